"""The `shelfwise` command: ``main`` (the parser, ``build``) and one module per command group.

    main        the parser, ``build``, and the groups registered by the layers above (entry points)
    inspection  documents, sections, ledger, links of a compiled shelf
    search      ``shelfwise search``
    compare     ``shelfwise compare``
"""

__all__: list[str] = []
