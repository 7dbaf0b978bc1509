"""Ledger and links: assertions (ledger), open references (hooks), the resolver (links), links between
documents that do not name each other (relations), aliases, and the stage that runs them (linking).
"""

__all__: list[str] = []
