"""The English words and patterns the compiler and the answering stages read text by."""

__all__: list[str] = []
