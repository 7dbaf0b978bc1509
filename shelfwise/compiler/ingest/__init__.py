"""Ingest: a shelf's files found (discover), converted (convert/), walked into sections with stable ids,
renamed sections mapped to their old ids, figures described.
"""

__all__: list[str] = []
