"""Lexical index: whoosh BM25F over sections (document title, heading path, heading, text, figure captions).

One whoosh document per section that has body text. Every text field is
stemmed (Porter) with English stop words removed. Updating is per document:
its sections are deleted by ``doc_id`` and added again, so a rebuild touches
only the changed documents. Queries are built from the analysed words of the
user's text (never parsed as whoosh query syntax), so quotes, colons, ``AND``
or brackets in a question are just words. Queries are scored by
shelfwise/compiler/index/lexical_scores.py: whoosh's BM25F over whole posting blocks with numpy
(whoosh's own collector scored one posting at a time: 0.5-2.7 s a query at
5,000 documents).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from whoosh import index as whoosh_index
from whoosh import query as whoosh_query
from whoosh.analysis import StemmingAnalyzer
from whoosh.fields import ID, TEXT, Schema
from whoosh.scoring import BM25F

from shelfwise.compiler.errors import SearchError
from shelfwise.compiler.index.lexical_scores import BlockScorer
from shelfwise.compiler.store.records import Section

__all__ = ["LexicalIndex", "update_lexical", "indexed_doc_ids", "FIELD_BOOSTS", "MAX_QUERY_TERMS", "WRITER_MB"]

SCHEMA_VERSION = "1"
MAX_QUERY_TERMS = 96
"""Distinct analysed words a query keeps (a 10 KB paste keeps its first 96 distinct words)."""

FIELD_BOOSTS: dict[str, float] = {"title": 0.5, "heading_path": 1.0, "text": 1.0, "captions": 1.0}
"""Default query-time weight of each field in the BM25 route. The heading is already in the heading
path; counting it twice lowered the fused dev nDCG@10 (BM25 + dense + named: 0.551 without it, 0.499 at 1.5)."""


def _schema() -> Schema:
    analyzer = StemmingAnalyzer()
    return Schema(
        section_id=ID(stored=True, unique=True),
        doc_id=ID(stored=True),
        title=TEXT(analyzer=analyzer),
        heading_path=TEXT(analyzer=analyzer),
        heading=TEXT(analyzer=analyzer),
        text=TEXT(analyzer=analyzer),
        captions=TEXT(analyzer=analyzer),
    )


def _open_or_create(index_dir: Path):
    """The index at ``index_dir``; created (or recreated when its schema is older) if needed. Returns (index, fresh)."""
    index_dir = Path(index_dir)
    marker = index_dir / "SCHEMA_VERSION"
    if whoosh_index.exists_in(str(index_dir)) and marker.exists() and marker.read_text().strip() == SCHEMA_VERSION:
        return whoosh_index.open_dir(str(index_dir)), False
    if index_dir.exists():
        shutil.rmtree(index_dir)
    index_dir.mkdir(parents=True)
    ix = whoosh_index.create_in(str(index_dir), _schema())
    marker.write_text(SCHEMA_VERSION + "\n")
    return ix, True


WRITER_MB = 512
"""Memory whoosh's writer pools postings in before it spills a run to disk (128 before). Indexing the bench's
5,000-document shelf (60,250 sections) from its store, side by side: 128 MB 22.6 s, 512 MB 16.0 s; 1,000 documents
3.2 s with either. With 128 the stage grew as documents^1.22 (the runs' merge); with 512 as documents^1.0."""


def _section_document(title: str, section: Section, captions: list[str]) -> dict:
    return {
        "section_id": section.id,
        "doc_id": section.doc_id,
        "title": title,
        "heading_path": " / ".join(section.heading_path),
        "heading": section.heading if section.heading_path else "",
        "text": section.text,
        "captions": "\n".join(captions),
    }


MERGE_SHARE = 10
"""Rewrite the index when the replaced sections reach 1/MERGE_SHARE of the live ones. A rewrite costs about what
indexing the shelf afresh costs (2.6 s for the filings shelf's 1,163 sections; it grows with the index): rewriting on
every commit would add that to every one-edit rebuild (55 s at 5,000 documents in the scale benchmark, against the 5% of
a full compile its floor allows), while rewriting at a tenth costs at most about ten re-indexed sections per replaced
one over time and keeps the statistics within a tenth of the live sections' in between."""


def update_lexical(
    index_dir: Path,
    documents: Iterable[tuple[str, str, list[Section], dict[str, list[str]]]],
    removed_doc_ids: Iterable[str],
    *,
    keep_doc_ids: set[str] | None = None,
    progress: Callable[[str], None] | None = None,
    everything: Callable[[], Iterable[tuple[str, str, list[Section], dict[str, list[str]]]]] | None = None,
) -> dict[str, int]:
    """Replace the given documents' sections in the index and drop the removed ones.

    ``documents`` yields (doc_id, title, sections, captions by section id) for
    each document to (re)index. With ``keep_doc_ids`` every indexed document not
    in it is dropped too (a self-healing sweep). Returns counts.

    An index updated in place is merged into one segment without its replaced sections once they make up a tenth of
    its live ones (``MERGE_SHARE``): whoosh keeps a replaced document's old sections until a merge purges them and
    counts them in its BM25 statistics (document frequencies, average field lengths), so a shelf rebuilt eight times
    held 9,284 sections for 1,163 live ones (23 MB; 2.9 MB merged), and two stores of identical sections ranked them
    apart: answers moved from one rebuild to the next. A rebuild that replaces most of a shelf leaves it merged.

    With ``everything`` (every live document, as ``documents`` yields them) the index is then written afresh rather
    than merged: whoosh's merge recounts each field's total length from the byte-coded lengths it stores per section
    (the papers shelf's text: 47,350 words against 46,499), so a merged index's BM25 length normalisation differed from
    a fresh build's by about 2% and near-tied sections swapped ranks: a shelf rebuilt once answered a question with
    other sentences than the same shelf compiled from scratch. Written afresh, the index is the one a fresh build
    writes, score for score.
    """
    ix, fresh = _open_or_create(Path(index_dir))
    writer = ix.writer(limitmb=WRITER_MB)
    added = deleted_docs = 0
    try:
        drop = set(removed_doc_ids)
        if keep_doc_ids is not None and not fresh:
            drop |= _live_doc_ids(ix) - keep_doc_ids
        for doc_id in sorted(drop):
            writer.delete_by_term("doc_id", doc_id)
            deleted_docs += 1
        for doc_id, title, sections, captions in documents:
            if not fresh:
                writer.delete_by_term("doc_id", doc_id)
            added += _add_sections(writer, title, sections, captions)
            if progress:
                progress(f"lexical: indexed {doc_id}")
        writer.commit()
    except BaseException:
        writer.cancel()
        raise
    if not fresh:
        with ix.searcher() as searcher:
            live, replaced = searcher.doc_count(), searcher.doc_count_all() - searcher.doc_count()
        if replaced and replaced * MERGE_SHARE >= live:
            if everything is None:
                ix.optimize()
            else:
                _write_afresh(Path(index_dir), everything(), progress)
    return {"sections_added": added, "documents_dropped": deleted_docs}


def _add_sections(writer, title: str, sections: list[Section], captions: dict[str, list[str]]) -> int:
    """Add one document's sections that have body text to ``writer``; how many were added."""
    added = 0
    for section in sections:
        if section.text.strip():
            writer.add_document(**_section_document(title, section, captions.get(section.id, [])))
            added += 1
    return added


def _write_afresh(index_dir: Path, documents: Iterable[tuple[str, str, list[Section], dict[str, list[str]]]],
                  progress: Callable[[str], None] | None) -> None:
    """Replace the index at ``index_dir`` by one written from ``documents`` alone, as a fresh build writes it. The new
    index is written beside the old one and swapped in, so a failure leaves the old one whole."""
    staged = index_dir.with_name(index_dir.name + ".afresh")
    if staged.exists():
        shutil.rmtree(staged)
    ix, _ = _open_or_create(staged)
    writer = ix.writer(limitmb=WRITER_MB)
    try:
        for _doc_id, title, sections, captions in documents:
            _add_sections(writer, title, sections, captions)
        writer.commit()
    except BaseException:
        writer.cancel()
        shutil.rmtree(staged, ignore_errors=True)
        raise
    old = index_dir.with_name(index_dir.name + ".replaced")
    if old.exists():
        shutil.rmtree(old)
    index_dir.rename(old)
    staged.rename(index_dir)
    shutil.rmtree(old, ignore_errors=True)
    if progress:
        progress("lexical: index written afresh (its replaced sections reached a tenth of the live ones)")


def indexed_doc_ids(index_dir: Path) -> set[str]:
    """Document ids present in the index (empty when there is no index)."""
    if not whoosh_index.exists_in(str(index_dir)):
        return set()
    return _live_doc_ids(whoosh_index.open_dir(str(index_dir)))


def _live_doc_ids(ix) -> set[str]:
    """Document ids of undeleted sections (the term lexicon keeps deleted ones until a merge)."""
    with ix.searcher() as searcher:
        return {fields["doc_id"] for fields in searcher.all_stored_fields()}


class LexicalIndex:
    """An open index for repeated queries (one whoosh searcher, reopened by ``refresh``)."""

    def __init__(self, index_dir: Path, *, b: float = 0.75, k1: float = 1.2):
        index_dir = Path(index_dir)
        if not whoosh_index.exists_in(str(index_dir)):
            raise SearchError(f"no lexical index at {index_dir}; run 'shelfwise build' on the shelf first")
        self.index_dir = index_dir
        self._ix = whoosh_index.open_dir(str(index_dir))
        self._weighting = BM25F(B=b, K1=k1)
        self._searcher = self._ix.searcher(weighting=self._weighting)
        self._scorer = BlockScorer(self._searcher, self._weighting)  # reads field lengths: part of opening
        self.analyzer = StemmingAnalyzer()

    def close(self) -> None:
        self._searcher.close()

    def refresh(self) -> None:
        self._searcher = self._searcher.refresh()
        self._scorer = BlockScorer(self._searcher, self._weighting)

    def forget_postings(self) -> None:
        """Drop the decoded postings kept between queries (shelfwise/compiler/index/lexical_scores.py), so the next query reads its words cold."""
        self._scorer.forget()

    def terms(self, text: str) -> list[str]:
        """The query's analysed words, distinct, in order of first appearance, at most MAX_QUERY_TERMS."""
        seen: dict[str, None] = {}
        for token in self.analyzer(text):
            seen.setdefault(token.text, None)
            if len(seen) >= MAX_QUERY_TERMS:
                break
        return list(seen)

    def search(
        self,
        text: str,
        *,
        fields: dict[str, float] | None = None,
        limit: int = 100,
        doc_ids: Iterable[str] | None = None,
    ) -> list[tuple[str, float]]:
        """(section id, score) best first for the words of ``text`` over ``fields`` (name -> boost).

        ``doc_ids`` restricts the search to those documents. No words after
        analysis (only stop words, say) gives an empty list.
        """
        words = self.terms(text)
        if not words:
            return []
        fields = fields or FIELD_BOOSTS
        allowed = None
        if doc_ids is not None:
            wanted = sorted(set(doc_ids))
            if not wanted:
                return []
            allowed = np.zeros(self._searcher.doc_count_all(), dtype=bool)
            allowed[list(self._searcher.docs_for_query(whoosh_query.Or([whoosh_query.Term("doc_id", d) for d in wanted])))] = True
        terms = [(field, word, boost) for field, boost in fields.items() for word in words]
        hits = self._scorer.top(terms, limit, allowed)
        ranked = [(self._searcher.stored_fields(docnum)["section_id"], score) for docnum, score in hits]
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked

    def doc_count(self) -> int:
        return self._searcher.doc_count()

    def doc_frequency(self, term: str, field: str = "text") -> int:
        """Sections whose ``field`` holds the analysed word ``term``."""
        return int(self._searcher.doc_frequency(field, term))
