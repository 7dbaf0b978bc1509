"""Read: the whole sections the writer gets (``read``), and whether they state what an obligation asks for at all
(``evidence``), and whether the periods they hold are the one asked about (``periods``)."""

__all__: list[str] = []
