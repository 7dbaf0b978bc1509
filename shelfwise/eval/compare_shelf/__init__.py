"""A generated comparison shelf (tax returns, invoices, a procedure revision) with the truth of every change: `make bench-compare`."""

__all__: list[str] = []
