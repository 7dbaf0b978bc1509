"""The shown answer: what is shown (the steps after the writer, each recording what it removed and why), its shape, completeness per obligation, its Markdown."""

__all__: list[str] = []
