"""The shown answer: completeness per obligation, its Markdown, its shape."""

__all__: list[str] = []
