"""shelfwise evaluation: question sets, retrieval and answer metrics, scoreboard."""
