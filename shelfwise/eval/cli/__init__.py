"""The ``shelfwise eval`` command group, registered through the ``shelfwise.commands`` entry point:
``commands`` builds the parsers, ``answer_runs`` runs the answer evaluations.
"""

__all__: list[str] = []
