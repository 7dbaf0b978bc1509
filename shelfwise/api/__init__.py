"""The answering side of shelfwise: a Litestar app over compiled shelves, and the answering pipeline.

``shelfwise.api.server.app.create_app`` builds the HTTP app; ``shelfwise.api.answer.answer_question`` runs
plan → recall → read → write → check → gate → complete in-process (``shelfwise ask``). Nothing is imported here:
the CLI loads this package for its commands (``shelfwise.api.cli``), and the pipeline and Litestar are imported only
by the command that runs them, so ``shelfwise --help`` prints at once.
"""

__all__: list[str] = []
