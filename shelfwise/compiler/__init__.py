"""shelfwise compiler: a shelf of documents → compiled store, indexes, ledger and site sources."""

__all__ = ["__version__"]

__version__ = "0.1.0"
