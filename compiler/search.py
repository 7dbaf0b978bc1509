"""Search a compiled shelf: several recall routes fused by reciprocal rank (k = 60).

Routes (paper §3.3 "Recall"):

    bm25      whoosh BM25F over title, heading path, heading, text and captions
    dense     headed passages by cosine similarity; a section scores as its best passage
    heading   BM25 over section headings alone
    named     a document the query names ("RFC 6750", "PEP 585", "SP 800-63B" or its full title):
              its sections by BM25, or in document order when nothing else matches
    figures   BM25 over figure captions (and vision descriptions)
    numeric   sections holding the query's numbers (with the unit after them, if any)

``ShelfSearcher.search`` returns sections with each route's rank. A route with
nothing to say (no number in the query, no document named) returns nothing and
so does not move the fusion.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, Field

from compiler.embedders import Embedder
from compiler.errors import SearchError
from compiler.lexical import LexicalIndex
from compiler.vectors import dense_sections

__all__ = [
    "ROUTES",
    "ROUTE_WEIGHTS",
    "RRF_K",
    "MAX_QUERY_CHARS",
    "SearchHit",
    "SearchResult",
    "ShelfSearcher",
    "rrf_fuse",
    "document_identifiers",
]

ROUTES = ("bm25", "dense", "heading", "named", "figures", "numeric")
RRF_K = 60
ROUTE_WEIGHTS: dict[str, float] = {"bm25": 1.0, "dense": 1.0, "named": 1.0, "heading": 0.25, "figures": 0.5, "numeric": 0.5}
"""Weight of each route in the fusion. A heading the question names is often a near miss (a question on
"memorized secret" names the usability section "Memorized Secrets" too), so it only breaks ties
(dev nDCG@10: 0.542 without it, 0.522 at 0.25, 0.511 at 0.5); figures and numbers are narrow routes."""
MAX_QUERY_CHARS = 2000
"""Longer queries are cut at the last word boundary before this many characters (a warning says so)."""

_IDENTIFIER = re.compile(r"(?<![a-z0-9])(rfc|pep|sp|fips|nistir|special publication)[\s_\-]*(\d+(?:[\-.]\d+)*[a-z]?)(?![a-z0-9])", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)(?:\s*(%|[a-z]+))?", re.IGNORECASE)
_STOP_UNITS = {"and", "or", "the", "of", "to", "in", "for", "a", "an", "is", "are", "with"}


class SearchHit(BaseModel):
    """One section found, with the rank each route gave it."""

    section_id: str = Field(description="Section id (also the site anchor and the citation key).")
    doc_id: str = Field(description="Document id.")
    path: str = Field(description="Shelf-relative path of the document.")
    title: str = Field(description="Document title.")
    heading: str = Field(description="Section heading.")
    heading_path: list[str] = Field(description="Headings from the top level down to this section.")
    chars: int = Field(description="Length of the section's own text in characters.")
    score: float = Field(description="Fused reciprocal-rank score: sum over routes of weight / (60 + rank).")
    ranks: dict[str, int] = Field(description="1-based rank of the section in each route that found it.")


class SearchResult(BaseModel):
    """The fused ranking for one query."""

    query: str = Field(description="The query as searched (after truncation).")
    truncated: bool = Field(default=False, description="Whether the query was cut to MAX_QUERY_CHARS.")
    routes: dict[str, int] = Field(description="Sections each route returned (0: the route had nothing to say).")
    named_documents: list[str] = Field(default_factory=list, description="Documents the query names.")
    hits: list[SearchHit] = Field(description="Sections, best first.")
    warnings: list[str] = Field(default_factory=list, description="What was changed about the query and why.")


def document_identifiers(text: str) -> set[tuple[str, str]]:
    """('rfc', '6750'), ('pep', '585'), ('sp', '800-63b') … named in ``text`` (leading zeros dropped)."""
    found = set()
    for prefix, number in _IDENTIFIER.findall(text.lower()):
        prefix = "sp" if prefix.startswith("special") else prefix
        head, _, rest = number.partition("-")
        found.add((prefix, (head.lstrip("0") or "0") + (f"-{rest}" if rest else "")))
    return found


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def rrf_fuse(rankings: dict[str, list[str]], *, k: int = RRF_K, weights: dict[str, float] | None = None) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion of ranked id lists: (id, score) best first, ties broken by best rank then id."""
    scores: dict[str, float] = {}
    best: dict[str, int] = {}
    for route, ids in rankings.items():
        weight = (weights or {}).get(route, 1.0)
        for rank, item in enumerate(ids, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
            best[item] = min(best.get(item, rank), rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], best[kv[0]], kv[0]))


class ShelfSearcher:
    """Search over one compiled store and its lexical index; keeps both open for repeated queries."""

    def __init__(self, store, index_dir: Path, embedder: Embedder | None, *, depth: int = 100):
        self.store = store
        self.lexical = LexicalIndex(Path(index_dir))
        self.embedder = embedder
        self.depth = depth
        self.documents = {row["doc_id"]: row for row in store.documents()}
        rows = store.db.execute("SELECT id, doc_id, heading, heading_path, text FROM sections").fetchall()
        self.sections = {row[0]: (row[1], row[2], json.loads(row[3]), row[4]) for row in rows}
        self._heading_words: dict[str, tuple[str, ...]] | None = None
        self._caption_words: dict[str, set[str]] | None = None
        self._doc_keys = {
            doc_id: document_identifiers(f"{row['path']} {row['title']}") for doc_id, row in self.documents.items()
        }

    def close(self) -> None:
        self.lexical.close()

    # --- routes ------------------------------------------------------------------
    def route_bm25(self, query: str) -> list[str]:
        return [sid for sid, _ in self.lexical.search(query, limit=self.depth)]

    def route_dense(self, query: str) -> list[str]:
        if self.embedder is None:
            return []
        vector = self.embedder.embed_batch([query])[0]
        return [sid for sid, _ in dense_sections(self.store, self.embedder, vector, passages=self.depth * 4)][: self.depth]

    def route_heading(self, query: str) -> list[str]:
        """Sections whose heading the query names: the heading's words (two or more, numbers aside)
        stand in the query in the same order, next to each other once stop words are gone.

        Longer headings first (more specific), then by BM25 over headings.
        """
        words = [t.text for t in self.lexical.analyzer(query) if not any(c.isdigit() for c in t.text)]
        if len(words) < 2:
            return []
        if self._heading_words is None:
            self._heading_words = {}
            for sid, (_, heading, path, body) in self.sections.items():
                if path and body.strip():
                    heading_words = tuple(t.text for t in self.lexical.analyzer(heading) if not any(c.isdigit() for c in t.text))
                    if len(heading_words) >= 2:
                        self._heading_words[sid] = heading_words
        text = " " + " ".join(words) + " "
        named = {sid: len(hw) for sid, hw in self._heading_words.items() if f" {' '.join(hw)} " in text}
        if not named:
            return []
        order = {sid: rank for rank, (sid, _) in enumerate(self.lexical.search(query, fields={"heading": 1.0}, limit=10_000))}
        ranked = sorted(named, key=lambda sid: (-named[sid], order.get(sid, len(order)), sid))
        return ranked[: self.depth]

    def route_figures(self, query: str) -> list[str]:
        """Sections whose figure captions share at least two distinct words with the query, by BM25 over captions."""
        words = set(self.lexical.terms(query))
        if self._caption_words is None:
            self._caption_words = {}
            for figure in self.store.figures():
                text = " ".join(part for part in (figure.caption, figure.description or "") if part)
                self._caption_words.setdefault(figure.section_id, set()).update(self.lexical.terms(text))
        ranked = self.lexical.search(query, fields={"captions": 1.0}, limit=self.depth)
        return [sid for sid, _ in ranked if len(self._caption_words.get(sid, set()) & words) >= 2]

    def named_documents(self, query: str) -> list[str]:
        """Documents the query names by identifier (exact, or as a prefix of a series) or by full title."""
        wanted = document_identifiers(query)
        normal_query = f" {_normal(query)} "
        named = []
        for doc_id, keys in self._doc_keys.items():
            by_id = any(
                p == qp and (n == qn or n.startswith(qn + "-")) for p, n in keys for qp, qn in wanted
            )
            title = _normal(self.documents[doc_id]["title"])
            by_title = len(title.split()) >= 3 and f" {title} " in normal_query
            if by_id or by_title:
                named.append(doc_id)
        return sorted(named, key=lambda d: self.documents[d]["path"])

    def route_named(self, query: str, named: list[str]) -> list[str]:
        if not named:
            return []
        text = _IDENTIFIER.sub(" ", query.lower())
        ranked = [sid for sid, _ in self.lexical.search(text, limit=self.depth, doc_ids=named)]
        if ranked:
            return ranked
        order = self.store.db.execute(
            f"SELECT id FROM sections WHERE doc_id IN ({','.join('?' for _ in named)}) AND text != '' ORDER BY doc_id, seq",
            named,
        )
        return [row[0] for row in order][: self.depth]

    def route_numeric(self, query: str) -> list[str]:
        text = _IDENTIFIER.sub(" ", query)
        numbers: dict[str, str | None] = {}
        for number, unit in _NUMBER.findall(text):
            unit = unit.lower() if unit and unit.lower() not in _STOP_UNITS else None
            numbers.setdefault(number, unit)
        if not numbers:
            return []
        patterns = {
            n: (re.compile(rf"(?<![\w.]){re.escape(n)}(?![\w]|\.\d)"), re.compile(rf"(?<![\w.]){re.escape(n)}\s*{re.escape(u[:4])}", re.I) if u else None)
            for n, u in numbers.items()
        }
        scored = []
        for sid, (_, _, _, body) in self.sections.items():
            score = 0.0
            for bare, with_unit in patterns.values():
                if bare.search(body):
                    score += 1.0 + (0.5 if with_unit is not None and with_unit.search(body) else 0.0)
            if score:
                scored.append((score, sid))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [sid for _, sid in scored[: self.depth]]

    # --- fused -------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        k: int = 20,
        routes: tuple[str, ...] | list[str] = ROUTES,
        weights: dict[str, float] | None = None,
    ) -> SearchResult:
        """The top ``k`` sections for ``query`` fused over ``routes``; raises SearchError for an empty query."""
        if query is None or not str(query).strip():
            raise SearchError('empty query: give words to search for, e.g. shelfwise search SHELF "bearer token lifetime"')
        unknown = sorted(set(routes) - set(ROUTES))
        if unknown:
            raise SearchError(f"unknown search route(s) {', '.join(unknown)}; choose from {', '.join(ROUTES)}")
        query = " ".join(str(query).split())
        warnings: list[str] = []
        truncated = len(query) > MAX_QUERY_CHARS
        if truncated:
            cut = query[:MAX_QUERY_CHARS]
            query = cut[: cut.rfind(" ")] if " " in cut else cut
            warnings.append(f"query cut to its first {len(query)} characters (limit {MAX_QUERY_CHARS})")
        named = self.named_documents(query) if "named" in routes else []
        rankings: dict[str, list[str]] = {}
        for route in routes:
            if route == "named":
                rankings[route] = self.route_named(query, named)
            else:
                rankings[route] = getattr(self, f"route_{route}")(query)
        if "dense" in routes and self.embedder is None:
            warnings.append("no embedder given: the dense route did not run")
        fused = rrf_fuse(rankings, weights=ROUTE_WEIGHTS if weights is None else weights)[:k]
        positions = {route: {sid: rank for rank, sid in enumerate(ids, start=1)} for route, ids in rankings.items()}
        hits = []
        for sid, score in fused:
            doc_id, heading, heading_path, body = self.sections[sid]
            document = self.documents[doc_id]
            hits.append(
                SearchHit(
                    section_id=sid,
                    doc_id=doc_id,
                    path=document["path"],
                    title=document["title"],
                    heading=heading,
                    heading_path=heading_path,
                    chars=len(body),
                    score=round(score, 6),
                    ranks={route: pos[sid] for route, pos in positions.items() if sid in pos},
                )
            )
        return SearchResult(
            query=query,
            truncated=truncated,
            routes={route: len(ids) for route, ids in rankings.items()},
            named_documents=named,
            hits=hits,
            warnings=warnings,
        )


def resolve_build_dir(target: Path, settings=None) -> Path:
    """A shelf's build folder from either that folder (holding store.sqlite) or the shelf folder."""
    target = Path(target)
    if (target / "store.sqlite").exists():
        return target
    from compiler.build import shelf_build_dir
    from compiler.settings import Settings

    build_dir = shelf_build_dir(target, settings or Settings())
    if not (build_dir / "store.sqlite").exists():
        raise SearchError(f"no compiled store for {target} (looked in {build_dir}); run 'shelfwise build {target}' first")
    return build_dir


def open_searcher(target: Path, *, settings=None, embedder: Embedder | None = None) -> ShelfSearcher:
    """A searcher over a compiled shelf (its build folder or its shelf folder), with the configured embedder."""
    from compiler.embedders import embedder_from_settings
    from compiler.settings import Settings
    from compiler.store import Store

    build_dir = resolve_build_dir(target, settings)
    store = Store(build_dir / "store.sqlite", create=False)
    return ShelfSearcher(store, build_dir / "lexical", embedder or embedder_from_settings(settings or Settings()))


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
