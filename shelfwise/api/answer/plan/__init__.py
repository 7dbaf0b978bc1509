"""Plan: the question's obligations (``plan``), and the documents it names by name (``names``)."""

__all__: list[str] = []
