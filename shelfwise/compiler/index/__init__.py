"""Index: headed passages, the embedders, the lexical (whoosh BM25F) and dense (sqlite-vec) indexes."""

__all__: list[str] = []
