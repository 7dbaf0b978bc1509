"""The compiled store, the compiler's bottom layer (it imports no stage): the records it keeps (records.py),
documents and sections (store.py), the ledger's tables, the dense index's tables, and the build generations on disk.
"""

__all__: list[str] = []
