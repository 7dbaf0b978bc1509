"""What is shown: the steps after the writer, each recording what it removed and why (``show``), and the answer's
shape (``shape``)."""

__all__: list[str] = []
