"""The answering command group (ask, trace, serve, mcp), registered through the ``shelfwise.commands`` entry
point: ``commands`` builds the parsers, ``actions`` runs them.
"""

__all__: list[str] = []
