"""shelfwise evaluation: question sets, retrieval and answer metrics, scoreboard."""

__all__: list[str] = []
