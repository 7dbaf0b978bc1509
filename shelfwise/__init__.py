"""shelfwise: a shelf of documents compiled into a structured store, a knowledge site and checked answers.

The layers import one way (pyproject.toml [tool.importlinter], tests/test_layers.py)::

    eval      question sets, metrics, benchmarks, answer runs, the scoreboard   (imports api, compiler)
    api       the answering pipeline and its HTTP app, MCP server and commands   (imports compiler)
    compiler  a shelf → compiled store, indexes, ledger and links, digests, site (imports neither)

Beside them, two data folders (no code): ``templates/``, the jinja2 page templates, and ``site/``, the mkdocs-material
configuration, theme overrides and the ask widget; compiler/publish/ reads both.
"""

__all__: list[str] = []
