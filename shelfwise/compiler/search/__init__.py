"""Search: the fused search over a compiled shelf (search.py), its recall routes and the reranker,
reading units and snippets.
"""

__all__: list[str] = []
