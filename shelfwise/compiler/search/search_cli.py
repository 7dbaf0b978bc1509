"""Searching a compiled shelf from the command line: find its build folder, open a searcher with the
configured embedder and reranker, print the ranking (``shelfwise search SHELF "query"``)."""

from __future__ import annotations

from pathlib import Path

from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.errors import SearchError
from shelfwise.compiler.search.search import SearchResult, ShelfSearcher

__all__ = ["resolve_build_dir", "open_searcher", "run_search", "format_result"]


def resolve_build_dir(target: Path, settings=None) -> Path:
    """The folder of a shelf's current build, from its build folder, its shelf folder or its name under the
    build dir: ``shelfwise.compiler.store.locate.current_build``, the one resolver, with a search error when nothing is compiled."""
    from shelfwise.compiler.settings import Settings
    from shelfwise.compiler.store.locate import current_build

    build_dir = current_build(Path(target), settings or Settings())
    if not (build_dir / "store.sqlite").exists():
        raise SearchError(f"no compiled store for {target} (looked in {build_dir}); run 'shelfwise build {target}' first")
    return build_dir


def open_searcher(target: Path, *, settings=None, embedder: Embedder | None = None) -> ShelfSearcher:
    """A searcher over a compiled shelf (its build folder or its shelf folder), with the configured embedder and reranker."""
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.search.rerank import reranker_from_settings
    from shelfwise.compiler.settings import Settings
    from shelfwise.compiler.store.store import Store

    settings = settings or Settings()
    build_dir = resolve_build_dir(target, settings)
    store = Store(build_dir / "store.sqlite", create=False)
    return ShelfSearcher(store, build_dir / "lexical", embedder or embedder_from_settings(settings),
                         identifier_max_sections=settings.search.identifier_max_sections, reranker=reranker_from_settings(settings))


def run_search(target: Path, query: str, k: int = 10, *, settings=None, embedder: Embedder | None = None) -> SearchResult:
    """``shelfwise search SHELF "query"``: the top ``k`` sections of a compiled shelf."""
    searcher = open_searcher(target, settings=settings, embedder=embedder)
    try:
        return searcher.search(query, k=k)
    finally:
        searcher.close()
        searcher.store.close()


def format_result(result: SearchResult) -> str:
    """Plain-text lines for the CLI: rank, section id, document path, heading path, route ranks."""
    lines = [f"warning: {w}" for w in result.warnings]
    if result.named_documents:
        lines.append("named documents: " + ", ".join(result.named_documents))
    for number, hit in enumerate(result.hits, start=1):
        where = " > ".join(hit.heading_path) or "(document start)"
        ranks = " ".join(f"{route}:{rank}" for route, rank in sorted(hit.ranks.items()))
        lines.append(f"{number:>3}. {hit.section_id}  {hit.path}  {where}  [{ranks}]")
    if not result.hits:
        lines.append("no sections found")
    return "\n".join(lines)
