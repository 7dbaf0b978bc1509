"""Prompt for the vision model that describes figures (input for the writer, never shown as fact)."""

DESCRIBE_FIGURE = (
    "Describe this figure from a document for a reader who cannot see it. "
    "State what it shows (chart type, axes, labelled values, steps, components and their connections) "
    "using only what is visible; do not guess at anything not shown. Caption: {caption}"
)
