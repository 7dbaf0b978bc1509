"""Digests: one brief per document, one dossier per cross-document topic, and the names they use."""

__all__: list[str] = []
