"""Search a compiled shelf: several recall routes fused by reciprocal rank (k = 60).

Routes (paper §3.3 "Recall"):

    bm25      whoosh BM25F over title, heading path, heading, text and captions
    dense     headed passages by cosine similarity; a section scores as its best passage
    heading   BM25 over section headings alone
    named     a document the query names ("RFC 6750", "PEP 585", "SP 800-63B" or its full title):
              its sections by BM25, or in document order when nothing else matches
    figures   BM25 over figure captions (and vision descriptions)
    numeric   sections holding the query's numbers with their unit
    code      sections writing the query's code or operator tokens verbatim (:=, *args, -MM, .d, typing.List),
              which the lexical index cannot see (shelfwise/compiler/search/code_tokens.py)
    identifier  sections holding an exact identifier of the query (CAL-07, Article 32, RFC 6749 §4.1):
              not fused but lifted by the identifier bonus (shelfwise/compiler/search/identifiers.py)

Every route but bm25 and dense fires only on its trigger: a heading named in
the query, a document named, a figure or table asked for, a number with a unit,
a code or operator token, an identifier held by few sections. Without its trigger a route returns nothing
and so does not move the fusion (``SearchResult.routes`` shows 0). Then catalogues count half (shelfwise/compiler/search/catalogues.py)
and a copy of a section ranked above folds into it (``SearchHit.repeats``, shelfwise/compiler/search/duplicates.py).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from itertools import zip_longest
from pathlib import Path

from pydantic import BaseModel, Field

from shelfwise.compiler.search.document_names import (
    document_identifiers,
    heading_names_document,
    names_series,
    normal as _normal,
    short_names,
    strip_document_names,
    without_identifiers,
)
from shelfwise.compiler.index.backends import embedder_for_store
from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.digests.identity import document_name
from shelfwise.compiler.errors import SearchError
from shelfwise.compiler.search.code_tokens import CodeTokenIndex, query_code_tokens
from shelfwise.compiler.search.catalogues import catalogue_sections, demote_catalogues
from shelfwise.compiler.search.duplicates import fold_repeats, held_by, newer_documents
from shelfwise.compiler.search.identifiers import IdentifierIndex, query_identifiers
from shelfwise.compiler.index.lexical import LexicalIndex
from shelfwise.compiler.links.linking import link_rows
from shelfwise.compiler.index.vectors import DenseIndex

__all__ = [
    "ROUTES",
    "ROUTE_WEIGHTS",
    "ROUTE_WEIGHTS_FILE",
    "HAND_SET_ROUTE_WEIGHTS",
    "RRF_K",
    "IDENTIFIER_BONUS",
    "MAX_QUERY_CHARS",
    "SearchHit",
    "SearchResult",
    "ShelfSearcher",
    "rrf_fuse",
    "document_identifiers",
    "short_names",
]

ROUTES = ("bm25", "dense", "heading", "named", "figures", "numeric", "code", "identifier")
RRF_K = 60
HAND_SET_ROUTE_WEIGHTS: dict[str, float] = {"bm25": 1.0, "dense": 1.0, "named": 0.25, "heading": 0.75, "figures": 0.0, "numeric": 0.5,
                                           "code": 1.0, "named_handover": 0.25}
"""The route weights chosen by hand on the three first question sets (each weighting scored with every route's
ablation on dev, dev-formats and northwind): what ships when no fitted weights file does. ``named_handover`` is no
route: it is added to the named route's weight when the dense route embeds the query without the identifiers naming
its documents (``without_names``, only while the named route is fused): the name is then the named route's alone.
Dev MRR 0.771 -> 0.812, nDCG@10 0.594 -> 0.607; dev-formats and northwind name no document by number (same). Raising
the named weight for every query instead (0.35 to 0.5) cost dev-formats: context recall at 16k 0.729 -> 0.679
(office-01, whose 2013 edition is named by title while its 2017 edition, shared by two files, is not). A fitted
weights file gives its own handover, none when it has none (the fit is scored as it ships)."""
ROUTE_WEIGHTS_FILE = Path(__file__).with_name("route_weights.json")
"""Fitted route weights (``python -m shelfwise.eval.fit_search``, ``make fit``), with their inputs' hashes and their
leave-one-set-out figures."""


def _route_weights() -> dict[str, float]:
    if not ROUTE_WEIGHTS_FILE.exists():
        return dict(HAND_SET_ROUTE_WEIGHTS)
    weights = json.loads(ROUTE_WEIGHTS_FILE.read_text(encoding="utf-8"))["weights"]
    fitted = {route: float(weights.get(route, 0.0)) for route in HAND_SET_ROUTE_WEIGHTS}  # a fit without a handover has none
    return {**fitted, "identifier_bonus": float(weights["identifier_bonus"])} if "identifier_bonus" in weights else fitted


ROUTE_WEIGHTS: dict[str, float] = _route_weights()
"""Weight of each route in the fusion (a route at 0 is not fused; its ranks are still reported): the fitted weights of
``route_weights.json`` when it ships, else ``HAND_SET_ROUTE_WEIGHTS``. The identifier route is not fused (its bonus below)."""
HEADING_MAX_SECTIONS = 2
"""A heading phrase held by more sections than this is a topic, not the name of a section (validated as above:
at 1 the route cost northwind 0.005; 2 and 3 scored alike)."""
IDENTIFIER_BONUS = 1.0
"""Added to the fused score per exact identifier a section holds when the weights give no ``identifier_bonus``: more
than any fusion gives, so holders come first. A fitted weights file gives its own (``fit_search.fit_bonus``: a
smaller bonus lifts the holders without putting them above every section the routes agree on)."""
MAX_QUERY_CHARS = 2000
"""Longer queries are cut at the last word boundary before this many characters (a warning says so)."""

_NUMBER = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)(?:\s*(%|[a-z]+))?", re.IGNORECASE)
_UNITS = re.compile(
    r"^(%|percent|ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|"
    r"bits?|bytes?|[kmgt]i?b|characters?|chars|digits?|words?|lines?|pages?|times|attempts?|tries|requests?|"
    r"[kmg]?hz|[mkc]?m|kg|g|mg|lbs?|usd|eur|gbp|dollars?|euros?|px|pt|dpi|°[cf]?|degrees?)$",
    re.IGNORECASE,
)
"""Units that make a number in a query a quantity (what the numeric route is for): time, size, count, money, measure."""
_MONEY = re.compile(r"[$€£]\s?\d")
_FIGURE_ASK = re.compile(
    r"\b(figures?|fig\.|diagrams?|charts?|graphs?|plots?|tables?|illustrat\w*|images?|screenshots?|slides?|spreadsheets?|sheets?|cells?|columns?|rows?)\b",
    re.IGNORECASE,
)
"""Words that ask for a figure or table: the figures route fires only when one is present."""


class SearchHit(BaseModel):
    """One section found, with the rank each route gave it."""

    section_id: str = Field(description="Section id (also the site anchor and the citation key).")
    doc_id: str = Field(description="Document id.")
    path: str = Field(description="Shelf-relative path of the document.")
    title: str = Field(description="Document title.")
    heading: str = Field(description="Section heading.")
    heading_path: list[str] = Field(description="Headings from the top level down to this section.")
    chars: int = Field(description="Length of the section's own text in characters.")
    score: float = Field(description="Fused reciprocal-rank score: sum over routes of weight / (60 + rank), plus 1 per exact identifier "
                         "held; halved for a catalogue's section (shelfwise/compiler/search/catalogues.py).")
    ranks: dict[str, int] = Field(description="1-based rank of the section in each route that found it.")
    repeats: list[str] = Field(
        default_factory=list,
        description="Sections of other documents this one holds nearly word for word (shelfwise/compiler/search/duplicates.py), ranked below "
        "it: folded into this hit instead of taking ranks of their own (the same text as PDF and as Texinfo, slides and report).",
    )


class SearchResult(BaseModel):
    """The fused ranking for one query."""

    query: str = Field(description="The query as searched (after truncation).")
    truncated: bool = Field(default=False, description="Whether the query was cut to MAX_QUERY_CHARS.")
    routes: dict[str, int] = Field(description="Sections each route returned (0: the route had nothing to say).")
    named_documents: list[str] = Field(default_factory=list, description="Documents the query names.")
    hits: list[SearchHit] = Field(description="Sections, best first.")
    warnings: list[str] = Field(default_factory=list, description="What was changed about the query and why.")


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

    def __init__(
        self, store, index_dir: Path, embedder: Embedder | None, *, depth: int = 100, identifier_max_sections: int = 8, reranker=None,
        fold: bool = True,
    ):
        self.store = store
        self.lexical = LexicalIndex(Path(index_dir))
        self.embedder = embedder_for_store(store, embedder, name=f"the store {Path(index_dir).parent}")
        """The configured embedder, or the local backend the store was embedded with (shelfwise.compiler.index.backends)."""
        self.depth = depth
        self.reranker = reranker
        """shelfwise.compiler.search.rerank.Reranker, or None: the fused order stands."""
        self.documents = {row["doc_id"]: row for row in store.documents()}
        self.sections = {s.id: (s.doc_id, s.heading, s.heading_path, s.text) for s in store.section_bodies()}
        self._heading_words: dict[str, tuple[str, ...]] | None = None
        self._heading_counts: Counter = Counter()
        self._caption_words: dict[str, set[str]] | None = None
        self._doc_keys = {
            doc_id: document_identifiers(f"{row['path']} {row['title']}") for doc_id, row in self.documents.items()
        }
        self._doc_names = " | ".join(_normal(f"{row['path']} {row['title']}") for row in self.documents.values())
        self._short_names = short_names(self.documents)
        self._title_counts = Counter(_normal(str(row["title"])) for row in self.documents.values())
        self.identifiers = IdentifierIndex(self.sections, max_sections=identifier_max_sections)
        self.code_tokens = CodeTokenIndex(self.sections)
        self.held_by = held_by({sid: (doc_id, body) for sid, (doc_id, _, _, body) in self.sections.items()}) if fold else {}
        """Section id -> sections of other documents holding its text (shelfwise/compiler/search/duplicates.py); empty: nothing is folded."""
        self._newer = newer_documents(link_rows(store)) if self.held_by else set()
        self.catalogues = catalogue_sections(self.documents, self.sections)
        self._bm25: tuple[str, list[str]] = ("", [])
        self._dense: DenseIndex | None = None
        self._vectors: dict[str, list[float]] = {}
        self._dense_scores: dict = {}

    def query_vector(self, query: str) -> list[float] | None:
        """The query's embedding (the last few are kept: recall and reading ask for the same query twice)."""
        if self.embedder is None:
            return None
        if query not in self._vectors:
            if len(self._vectors) >= 64:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[query] = self.embedder.embed_batch([query])[0]
        return self._vectors[query]

    def forget_queries(self) -> None:
        """Drop what is remembered per query: embeddings, similarities, the last BM25 ranking and the holders of
        code tokens (a benchmark times every query from scratch)."""
        self._vectors.clear()
        self._dense_scores.clear()
        self._bm25 = ("", [])
        self.code_tokens.forget()

    def dense_scores(self, query: str):
        """Every passage's similarity to the query (numpy array in DenseIndex order), the last few kept."""
        if query not in self._dense_scores:
            if len(self._dense_scores) >= 16:
                self._dense_scores.pop(next(iter(self._dense_scores)))
            self._dense_scores[query] = self.dense.scores(self.query_vector(query))
        return self._dense_scores[query]

    def best_passage(self, query: str, section_id: str) -> str:
        """The section's passage most similar to the query (body only), else the start of its text."""
        body = self.sections[section_id][3]
        if self.embedder is None or not len(self.dense):
            return body
        passages = self.dense.section_passages(section_id, self.dense_scores(query))
        if not passages:
            return body
        passage_id = max(passages, key=lambda p: (p[2], -p[1]))[0]
        text = self.store.vectors.passage_text(passage_id)
        return text.split("\n\n", 1)[-1] if text is not None else body

    @property
    def dense(self) -> DenseIndex:
        """Every passage vector in memory, loaded on first use."""
        if self._dense is None:
            self._dense = DenseIndex(self.store, self.embedder.model_id)
        return self._dense

    def close(self) -> None:
        self.lexical.close()

    # --- routes ------------------------------------------------------------------
    def route_bm25(self, query: str) -> list[str]:
        if self._bm25[0] != query:
            self._bm25 = (query, [sid for sid, _ in self.lexical.search(query, limit=self.depth)])
        return self._bm25[1]

    def route_code(self, query: str) -> list[str]:
        """When the query writes code or operator tokens: the sections writing them, the rarest and most of them
        first, ties in BM25 order."""
        scores = self.code_tokens.scores(query_code_tokens(query))
        if not scores:
            return []
        order = {sid: rank for rank, sid in enumerate(self.route_bm25(query))}
        return sorted(scores, key=lambda sid: (-scores[sid], order.get(sid, len(order)), sid))[: self.depth]

    def route_dense(self, query: str) -> list[str]:
        if self.embedder is None:
            return []
        return [sid for sid, _ in self.dense.ranked_sections(self.dense_scores(query), passages=self.depth * 4)][: self.depth]

    def route_heading(self, query: str) -> list[str]:
        """Sections whose heading the query names: the heading's words (two or more, numbers aside)
        stand in the query in the same order, next to each other once stop words are gone.

        A heading held by more than HEADING_MAX_SECTIONS sections ("Introduction", "Memorized Secrets" in
        three documents) names no section and is skipped, and so is a heading that is its document's title. Longer headings first (more specific), then by BM25
        over headings.
        """
        words = [t.text for t in self.lexical.analyzer(query) if not any(c.isdigit() for c in t.text)]
        if len(words) < 2:
            return []
        if self._heading_words is None:
            self._heading_words = {}
            for sid, (doc_id, heading, path, body) in self.sections.items():
                if path and body.strip() and not self._names_its_document(doc_id, heading):
                    heading_words = tuple(t.text for t in self.lexical.analyzer(heading) if not any(c.isdigit() for c in t.text))
                    if len(heading_words) >= 2:
                        self._heading_words[sid] = heading_words
            self._heading_counts = Counter(self._heading_words.values())
        text = " " + " ".join(words) + " "
        named = {
            sid: len(hw) for sid, hw in self._heading_words.items()
            if self._heading_counts[hw] <= HEADING_MAX_SECTIONS and f" {' '.join(hw)} " in text
        }
        if not named:
            return []
        order = {sid: rank for rank, (sid, _) in enumerate(self.lexical.search(query, fields={"heading": 1.0}, limit=10_000))}
        ranked = sorted(named, key=lambda sid: (-named[sid], order.get(sid, len(order)), sid))
        return ranked[: self.depth]

    def _names_its_document(self, doc_id: str, heading: str) -> bool:
        """``heading_names_document`` for its document: a query naming it names the document (the named route's)."""
        return heading_names_document(heading, str(self.documents[doc_id]["title"]), self.documents[doc_id]["path"])

    def route_figures(self, query: str) -> list[str]:
        """When the query asks for a figure or table: sections whose captions share two or more of its words, by BM25 over captions."""
        if not _FIGURE_ASK.search(query):
            return []
        words = set(self.lexical.terms(query))
        if self._caption_words is None:
            self._caption_words = {}
            for figure in self.store.figures():
                text = " ".join(part for part in (figure.caption, figure.description or "") if part)
                self._caption_words.setdefault(figure.section_id, set()).update(self.lexical.terms(text))
        ranked = self.lexical.search(query, fields={"captions": 1.0}, limit=self.depth)
        return [sid for sid, _ in ranked if len(self._caption_words.get(sid, set()) & words) >= 2]

    def named_documents(self, query: str) -> list[str]:
        """Documents the query names by identifier (exact, or as a prefix of a series), by full title or by short
        name; a title or short name two documents share (an edition as slides and as text) names neither."""
        wanted = document_identifiers(query)
        normal_query = f" {_normal(query)} "
        named = []
        for doc_id, keys in self._doc_keys.items():
            by_id = any(names_series(key, asked) for key in keys for asked in wanted)
            title = _normal(self.documents[doc_id]["title"])
            by_title = len(title.split()) >= 3 and self._title_counts[title] == 1 and f" {title} " in normal_query
            by_name = any(f" {name} " in normal_query for name in self._short_names.get(doc_id, ()))
            if by_id or by_title or by_name:
                named.append(doc_id)
        return sorted(named, key=lambda d: self.documents[d]["path"])

    def without_names(self, query: str, named: list[str]) -> str:
        """``query`` without the identifiers naming its ``named`` documents, for the dense route
        (shelfwise/compiler/search/document_names.py ``strip_document_names``)."""
        return strip_document_names(query, {key for doc_id in named for key in self._doc_keys[doc_id]}) if named else query

    def route_named(self, query: str, named: list[str]) -> list[str]:
        """Sections of the documents the query names, by BM25 within them (in document order when BM25 finds
        nothing); several named documents give their sections in turn, each one's best first (a comparison of two
        documents is not left to the one whose words the question happens to repeat). Nothing when the named
        documents are the whole shelf: naming every document singles out none.

        BM25 within the named documents scored as BM25 fused with dense within them at the validated weight
        (nDCG@10 0.530 / 0.517 / 0.647 on dev, dev-formats, northwind, both ways)."""
        if not named or set(named) >= set(self.documents):
            return []
        text = without_identifiers(query.lower())
        found = self.lexical.search(text, limit=self.depth * len(named), doc_ids=named)
        per_document = [[sid for sid, _ in found if self.sections[sid][0] == doc] for doc in named]
        ranked = [sid for group in zip_longest(*per_document) for sid in group if sid is not None]
        if ranked:
            return ranked[: self.depth]
        return self.store.text_section_ids(named)[: self.depth]

    def route_numeric(self, query: str) -> list[str]:
        """When the query holds a quantity (a number with a unit, or money): sections holding its numbers."""
        text = without_identifiers(query)
        numbers: dict[str, str | None] = {}
        for number, unit in _NUMBER.findall(text):
            unit = unit.lower() if unit and _UNITS.match(unit) else None
            numbers.setdefault(number, unit)
        if not any(numbers.values()) and not _MONEY.search(text):
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

    def route_identifier(self, query: str, named: list[str] | None = None) -> list[str]:
        """Sections holding the query's exact identifiers, those holding most of them first."""
        held = self.identifier_holders(query, named)
        return sorted(held, key=lambda sid: (-held[sid], sid))[: self.depth]

    def identifier_holders(self, query: str, named: list[str] | None = None) -> dict[str, int]:
        """Section id -> how many of the query's exact identifiers it holds.

        An identifier that names a document of the shelf ("PEP 604" when PEP 604 is on it) is the named
        route's; a section number ("§4.1") or a float ("Table 1") is looked for inside the named documents when
        there are any, and a float held in several documents when none is named singles out nothing.
        """
        named = self.named_documents(query) if named is None else named
        held: dict[str, int] = {}
        for identifier in query_identifiers(query):
            keys = document_identifiers(identifier.text)
            if keys and any(key in self._doc_keys[d] for d in named for key in keys):
                continue
            if identifier.kind not in ("section", "float") and f" {_normal(identifier.text)} " in f" {self._doc_names} ":
                continue  # it names a document of the shelf (a code in its title or file name): the named route's, not text to promote
            within = named if identifier.kind in ("section", "float") and named else None
            holders = self.identifiers.holders(identifier, within)
            if identifier.kind == "float" and within is None and len({self.sections[sid][0] for sid in holders}) > 1:
                continue  # "Table 1" of which document? every document numbers its own
            for sid in holders:
                held[sid] = held.get(sid, 0) + 1
        return held

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
        weights = ROUTE_WEIGHTS if weights is None else weights
        stripped = self.without_names(query, named) if weights.get("named", 1.0) > 0 else query  # a name is the named route's when it is fused
        rankings: dict[str, list[str]] = {}
        held: dict[str, int] = {}
        for route in routes:
            if route == "named":
                rankings[route] = self.route_named(query, named)
            elif route == "dense":
                rankings[route] = self.route_dense(stripped)
            elif route == "identifier":
                held = self.identifier_holders(query, named if "named" in routes else None)
                rankings[route] = sorted(held, key=lambda sid: (-held[sid], sid))
            else:
                rankings[route] = getattr(self, f"route_{route}")(query)
        if "dense" in routes and self.embedder is None:
            warnings.append("no embedder given: the dense route did not run")
        if weights.get("named_handover") and "dense" in routes and stripped != query:
            weights = {**weights, "named": weights.get("named", 0.0) + weights["named_handover"]}
        fused = rrf_fuse({r: ids for r, ids in rankings.items() if r != "identifier" and weights.get(r, 1.0) > 0}, weights=weights)
        if held:  # exact identifiers lifted by the bonus per identifier held (at 1, holders first), ties in fused order
            scores, bonus = dict(fused), weights.get("identifier_bonus", IDENTIFIER_BONUS)
            scores.update({sid: scores.get(sid, 0.0) + bonus * count for sid, count in held.items()})
            order = {sid: n for n, (sid, _) in enumerate(fused)}
            fused = sorted(scores.items(), key=lambda item: (-item[1], order.get(item[0], len(order)), item[0]))
        if self.catalogues:
            fused = demote_catalogues(fused, self.catalogues, keep=set(held))
        fused, repeats = fold_repeats(
            fused, self.held_by, max(k, self.reranker.depth) if self.reranker is not None else k, keep=set(held),
            newer=lambda a, b: (self.sections[a][0], self.sections[b][0]) in self._newer,
        )
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
                    title=document_name(document),
                    heading=heading,
                    heading_path=heading_path,
                    chars=len(body),
                    score=round(score, 6),
                    ranks={route: pos[sid] for route, pos in positions.items() if sid in pos},
                    repeats=repeats.get(sid, []),
                )
            )
        if self.reranker is not None and len(hits) > 1:
            from shelfwise.compiler.search.rerank import rerank_hits

            first = [h for h in hits if h.section_id in held]  # exact identifier holders stay first
            rest, warning = rerank_hits(
                self.reranker, query, [h for h in hits if h.section_id not in held],
                lambda h: " > ".join([h.title, *h.heading_path]), lambda h: self.best_passage(query, h.section_id),
            )
            hits = first + rest
            if warning:
                warnings.append(warning)
        hits = hits[:k]
        return SearchResult(
            query=query,
            truncated=truncated,
            routes={route: len(ids) for route, ids in rankings.items()},
            named_documents=named,
            hits=hits,
            warnings=warnings,
        )
