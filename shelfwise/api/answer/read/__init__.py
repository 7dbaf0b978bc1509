"""Read: the whole sections the writer gets (``read``), and whether they state what an obligation asks for at all
(``evidence``)."""

__all__: list[str] = []
