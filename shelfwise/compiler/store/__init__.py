"""The compiled store: documents and sections (store.py), the ledger's tables, the dense index's tables,
and the build generations on disk.
"""

__all__: list[str] = []
