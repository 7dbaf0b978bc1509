"""The compile driver: the only module that knows the order of the stages.

discover → convert (per changed document) → sections → figures → store,
then removed documents are retracted, every document without a current identity is named (``identity_stage``: its
issuer, form and period from the stored title, path and first page; cheap, nothing is reconverted), and the later stages run over what
changed, in the order they are given (``default_stages`` orders them: indexes; the ledger, links and digests
(``link_shelf``: ledger → links → briefs and dossiers); site). A document that fails keeps its last good version in
the store; the failure is reported by file name with its reason.
"""

from __future__ import annotations

import json
import logging
import shutil
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from shelfwise.compiler.ingest.convert import ReadOptions, convert_file
from shelfwise.compiler.ingest.convert.worker import ConvertWorker
from shelfwise.compiler.ingest.discover import Refused, SourceFile, discover, display_name, escaped_name
from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.digests.briefs import build_briefs
from shelfwise.compiler.digests.dossiers import build_dossiers
from shelfwise.compiler.digests.identity import identity_stage
from shelfwise.compiler.ledger.extract import extract_ledger, stored_assertions
from shelfwise.compiler.ledger.model import extractor_key
from shelfwise.compiler.ledger.rules import RULES_VERSION
from shelfwise.compiler.links.linking import load_index, reason_class, relink
from shelfwise.compiler.ingest.figures import describe_figures
from shelfwise.compiler.store.generations import (
    UNFINISHED,
    BuildLock,
    begin_generation,
    flip_generation,
    keep_original,
    prune_kept,
)
from shelfwise.compiler.models import ChatModel, make_client
from shelfwise.compiler.ingest.renames import carry_aliases
from shelfwise.compiler.report import BuildReport, DocReport
from shelfwise.compiler.ingest.sections import build_sections
from shelfwise.compiler.settings import Settings, ShelfConfig, load_shelf_config, settings_hash
from shelfwise.compiler.store.store import Store
from shelfwise.compiler.store.locate import current_build, shelf_build_dir, shelf_dir_for, shelf_name

__all__ = ["build_shelf", "default_stages", "role_model", "link_shelf", "links_stage", "shelf_name", "shelf_build_dir", "shelf_dir_for", "current_build", "conversion_peak_mb", "reader_settings", "READER_EPOCH"]


# Bump when a reader's output changes, so stores compiled by older code reconvert.
READER_EPOCH = 38  # 38: a PDF table's one header piece centred over all its figure columns names each of them (Apple's "June 25, 2022 › Adjusted Cost", Amazon's "December 31, 2021 › Operating Leases", Intel's "Oct 1, 2022 › Gross Amounts Recognized"), where it named the column it stood over (WINDOW_FORMAT 19); 37: a PDF table found by its aligned columns beside a column of prose set justified (five words or more a line, one right edge: the other column of a two-column page, level with a small table) leaves that column out, so the table keeps its own columns and the paragraph reads whole (Dense X Retrieval's Table 1 had "concept of proposition and how a passage can be" for a row label) (WINDOW_FORMAT 18); 36: a PDF numeric table keeps a column of group labels left of its row labels, each set on one row of its group (a paper's results table: "Adaptive  Self-RAG  9.90 ..."), instead of being left to the other finders with its header lines read as paragraphs, and a group's label right under the column headers, running over the figure columns ("w/o relevance judgement"), keeps the headers on the table; a row of short labels and figures ("Single-step  Adaptive  Self-RAG  2.20 ...") no longer ends a run of rows as prose beside figures would; header pieces centred each over an equal group of columns name the whole group ("FLAN-T5-XL (3B) › EM", Apple's "Three Months Ended › Change", Amazon's "Three Months Ended September 30, 2023") (WINDOW_FORMAT 17); 35: a PDF glossary set in two columns, three lines or more of a short term and its meaning at two left edges, a term stopping short of the middle between them ("IFS  Intel Foundry Services operating segment", make's "AR  Archive-maintaining program"), is a table of term and meaning, a centred "Term  Definition" line its header (WINDOW_FORMAT 16); 34: a PDF schedule of one row, a label and three figures or more right under a line of as many periods ("2023 2024 2025 2026 2027 Thereafter Total" over "Scheduled vesting — restricted stock units  70.7  224.5 ..."), is a table headed by the periods (WINDOW_FORMAT 15); a PDF table's columns empty in every row are dropped ("|  | Key Activities |  |  | Description |  |"); 33: a PDF line wholly within one pair of parentheses is an aside, no heading ("(In Millions)" over a table, "(unaudited)" under a statement's title, "(Mark One)", "(Text with EEA relevance)"); 32: a PDF bridge (waterfall) chart set as text, three lines or more each led by an amount right-aligned with one amount at least a fall ("428 Lower operating expenses ...", "(585) Lower product margin ..."), is a table of label and amount, not one paragraph; a diagram's labels in type smaller than its caption's, drawn about a small embedded picture above the caption (RAPTOR's Figure 1: "Root layer", "Text chunks"), belong to its figure, not to the section's prose (WINDOW_FORMAT 14); 31: a PDF statement with one column of figures (a rollforward, a maturity schedule: "Cash payments   (923)"), three lines or more of a label and one amount right-aligned, is a numeric table, not label and figure paragraphs by turns; over one column of figures the table grows up over short labels only, not the paragraph above (WINDOW_FORMAT 13); 30: a PDF footer's words on the row of its running page number, the same on three pages or more, are furniture wherever the row stands (Intel's "MD&A" beside "38", read as a heading atop each page of the part); a numeric table's label set a line above its figures ("Total cash and investments 1") is that row's label (WINDOW_FORMAT 12); a table going on from the table before it on the next page, its first row read as a header, gets that table's header; 29: a PDF run of three boxes of prose or more set side by side (Intel's summary panel: "Lower revenue in CCG, ..." beside "Lower GAAP gross margin from ...") is read box by box, not line by line across the boxes (WINDOW_FORMAT 11); 28: a PDF line stating an amount of money ("$ 1,393 Q1 2022 DCAI Operating Income (Loss)": a waterfall chart's label) is no heading; 27: a PDF line of figures and periods only ("$11.7B 34.2% 38.4%", "Q1 2022 Q1 2023": key figures, a chart's axis) is no heading; 26: a PDF row of key figures set side by side, each over the wrapped lines saying what it is (Intel's overview tiles: "$12.9B" over "GAAP" over "Revenue down $2.4B or" over "15% from Q2 2022"), is one text per tile, not a grid with the figures for its column header; 25: a PDF word a font's ligature broke ("dif er", "Af ect": the ff glyph mapped to a plain f) is one word again when the document spells it whole elsewhere and neither piece stands alone in it ("differ", "Affect"); 24: a PDF table cell's, a wrapped row label's and a figure caption's lines are joined as a paragraph's are, by the whole document's words ("acquisition-related", not "acquisition- related"); "mark-to-" over "market" keeps the compound the document spells (WINDOW_FORMAT 10); 23: a PDF line ending in a hyphen over a line going on with a capital or a figure ("Flan-" over "T5-large") joins them as one word, its hyphen kept unless the document spells the word whole ("Flan-T5-large", not "Flan- T5-large"); 22: a PDF line ending in a hyphen over the rest of a hyphenated compound ("retrieval-" over "and-generate") keeps the hyphen; 21: an HTML paragraph of a few words set wholly in bold ("<p><strong>Section 2 – Scope.</strong></p>") is a heading one level under the heading above it; 20: a PDF table's leading lines that each hold a label and words over the figure columns ("Name  Jordan Ellis", "Tax year  2023") are a form's rows, not a column header joined into one cell; 19: a Texinfo manual's @copying notice stands where @insertcopying places it (its Top node: "This is Edition 0.77, ..."), an unset @value leaving no text; 18: a PDF line holding only its page's number (plus the offset most such lines share) is furniture wherever it stands (a PDF printed from HTML sets it under the last paragraph, above the margin band, and it opened the next page's first paragraph); 17: a PDF paragraph a figure, a table or lines in other type cut mid-sentence reads on after them when the body text goes on in lower case; a line "Figure 8. After ..." going on with a sentence is no caption; two columns of prose under full-width text are read column by column; 16: a Markdown file's HTML <ol>/<ul> lists are read as list items (SP 800-63A's requirements were one paragraph with their tags); 15: a PDF's ruling lines are cut to the part their clip path shows (a chart's bars drawn past its axis no longer make a table over the text below it) and a footnote mark clustered into the other column's line is dropped, not a line of its own; a footnote at a column's or page's foot no longer cuts the paragraph running past it (it follows that paragraph); refitted; 14: a PDF line's last word set as a raised smaller number (a footnote mark) is not part of its text; refitted; 13: a Texinfo table item keeps its description across a blank line (GNU Make's option table); 12: PDF bookmarks that run to sentences (a paragraph index) are not taken for headings; "Article 12" alone on its line heads with its title line below; a line atop several pages is running furniture only when its text repeats or its number follows the page; refitted; 11: a sheet keeps one table across a blank spacer row or column, its banner and multi-row header read as such; 10: the PDF heading check also weighs a running title at one height on many pages, a page number after a title, and a section number out of sequence; refitted; 9: the PDF heading check counts a title right under a heading as after a finished unit (prev_ended: "Note 5 – Debt" over "Commercial Paper") and judges a heading wrapped over lines by its first line, keeping its lines together; refitted; 8: PDF headings the rules pick are checked by a fitted logistic model (contents lines, index letters, table cells dropped); 7: PDF headings from tags and layout cues; page-numbered running lines dropped wherever they stand; 6: PDF numeric tables with column headers; definition list items (RFC text, rST, Markdown)

log = logging.getLogger("shelfwise.build")

Progress = Callable[[str], None]


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _one_line(progress: Progress) -> Progress:
    """``progress`` hearing each line with its control characters escaped: a file name holding a newline (a reader
    names the file it reads) cannot forge a line of its own."""
    return lambda line: progress(escaped_name(line))


def _read_options(settings: Settings, config: ShelfConfig, checkpoint_dir: Path, progress: Progress) -> ReadOptions:
    limits = settings.compile
    return ReadOptions(
        window_pages=config.options.pdf_window_pages or settings.pdf.window_pages,
        use_outline=settings.pdf.use_outline if config.options.use_outline is None else config.options.use_outline,
        ocr=settings.pdf.ocr,
        checkpoint_dir=checkpoint_dir,
        docling_artifacts_path=settings.pdf.docling_artifacts_path,
        progress=progress,
        max_unzipped_mb=limits.max_unzipped_mb,
        max_xml_elements=limits.max_xml_elements,
        max_sheet_rows=limits.max_sheet_rows,
        max_text_chars=limits.max_text_chars,
    )


def reader_settings(settings: Settings, config: ShelfConfig, checkpoint_dir: Path, progress: Progress) -> tuple[ReadOptions, str]:
    """A document's read options and the hash of what in them shapes its conversion (a stored document whose
    content hash and this hash are unchanged is not reconverted)."""
    options = _read_options(settings, config, checkpoint_dir, progress)
    return options, settings_hash(READER_EPOCH, options.window_pages, options.use_outline, options.ocr, str(options.docling_artifacts_path), settings.models.vision)


_WORKERS: dict[tuple, ConvertWorker] = {}


def _converter(settings: Settings) -> Callable[[Path, ReadOptions], object]:
    """convert_file, in the shared worker process under the compile limits unless compile.convert_in_subprocess is off."""
    if not settings.compile.convert_in_subprocess:
        return convert_file
    key = (settings.compile.convert_memory_mb, settings.compile.convert_timeout_s)
    if key not in _WORKERS:
        _WORKERS[key] = ConvertWorker(*key)
    return _WORKERS[key].convert


def conversion_peak_mb() -> float:
    """The largest peak resident memory (MB) a conversion worker of this process reported after a document."""
    return max((worker.last_peak_mb for worker in _WORKERS.values()), default=0.0)


def _convert_one(
    source: SourceFile, store: Store, options: ReadOptions, reader_hash: str, vision: ChatModel | None, progress: Progress,
    convert: Callable = convert_file,
) -> DocReport:
    started = time.perf_counter()
    converted = convert(source.path, options)
    sections, figures = build_sections(source.doc_id, converted)
    _, warnings = describe_figures(figures, store, vision, progress)
    warnings = converted.warnings + warnings + ([source.note] if source.note else [])
    seconds = time.perf_counter() - started
    n_tables = sum(1 for s in sections for b in s.blocks if b.kind == "table")
    row = {
        "doc_id": source.doc_id,
        "path": source.relpath,
        "title": source.title or display_name(converted.title),
        "format": source.path.suffix.lower().lstrip("."),
        "content_hash": source.content_hash,
        "size": source.size,
        "reader": converted.reader,
        "reader_version": converted.reader_version,
        "settings_hash": reader_hash,
        "pages": converted.pages,
        "n_sections": len(sections),
        "n_tables": n_tables,
        "n_figures": len(figures),
        "seconds": round(seconds, 3),
        "warnings": json.dumps(warnings),
    }
    previous = store.sections(source.doc_id)
    was = {s.id for s in previous}
    aliases = carry_aliases(previous, store.section_aliases(source.doc_id), sections)
    store.put_document(row, sections, figures, aliases)
    return DocReport(
        path=source.relpath,
        doc_id=source.doc_id,
        status="converted",
        reader=converted.reader,
        pages=converted.pages,
        sections=len(sections),
        tables=n_tables,
        figures=len(figures),
        seconds=round(seconds, 2),
        renamed=sum(1 for a in aliases if a.old_id in was),
        reason="; ".join(warnings),
    )


def build_shelf(
    shelf_dir: Path,
    settings: Settings,
    *,
    progress: Progress = _stderr,
    vision_http_client=None,
    stages: list[Callable] | None = None,
    exclude: list[str] | None = None,
    executor=None,
) -> BuildReport:
    """Compile ``shelf_dir`` into ``<build_dir>/<shelf>/store.sqlite``; returns the report.

    ``stages`` are later stages called as ``stage(store, out_dir, changed_ids, removed_ids, progress) -> (name, summary)``.
    ``executor`` (shelfwise.compiler.executors.RayExecutor) converts the changed documents in parallel; None converts here.
    """
    started = time.perf_counter()
    progress = _one_line(progress)
    shelf_dir = Path(shelf_dir)
    config = load_shelf_config(shelf_dir)
    if exclude:
        config = config.model_copy(update={"exclude": [*config.exclude, *exclude]})
    root = shelf_build_dir(shelf_dir, settings, config)
    lock = BuildLock(root, shelf_name(shelf_dir, config))
    try:
        return _build(shelf_dir, settings, config, root, progress, vision_http_client, stages, started, executor)
    finally:
        lock.release()


def _build(shelf_dir, settings, config, root, progress, vision_http_client, stages, started, executor=None) -> BuildReport:
    """One build into a new generation beside the current one, flipped in only when every stage succeeded."""
    out = begin_generation(root, progress)
    store = Store(out / "store.sqlite")
    report = BuildReport(shelf=shelf_name(shelf_dir, config), store=str(root / "store.sqlite"), migrated=store.migrated)
    try:
        _take_unfinished(store, root / UNFINISHED, progress)
        store.set_meta("shelf_name", report.shelf)
        store.set_meta("shelf_title", config.title or report.shelf)
        store.set_meta("shelf_description", config.description)
        store.set_meta("shelf_examples", json.dumps(config.examples, ensure_ascii=False))
        refused: list[Refused] = []
        sources = discover(shelf_dir, config, refused, allow_outside=settings.compile.follow_symlinks_outside)
        existing = {row["path"]: row for row in store.documents()}
        vision = None
        if settings.models.vision:
            vision = ChatModel(make_client(settings.models, http_client=vision_http_client), settings.models.vision)
        changed: list[str] = []
        convert = _converter(settings)
        for item in refused:
            report.documents.append(DocReport(path=item.relpath, doc_id="", status=item.status, reason=item.reason))
        todo = [s for s in sources if s.supported]
        for source in sources:
            if not source.supported:
                report.documents.append(
                    DocReport(path=source.relpath, doc_id=source.doc_id, status="skipped", reason=f"unsupported file type {source.path.suffix or '(none)'}")
                )
        plans = []
        for source in todo:
            options, reader_hash = reader_settings(settings, config, root / "checkpoints" / source.doc_id / source.content_hash[:16], progress)
            previous = existing.get(source.relpath)
            fresh = previous and previous["content_hash"] == source.content_hash and previous["settings_hash"] == reader_hash and previous["doc_id"] == source.doc_id
            plans.append((source, options, reader_hash, previous, fresh))
        if executor is not None:  # every changed document's conversion goes out at once; results are stored in order below
            convert = executor.prefetch([(s.path, o) for s, o, _, _, fresh in plans if not fresh and s.size <= settings.compile.max_file_mb * 1_000_000])
        for number, (source, options, reader_hash, previous, fresh) in enumerate(plans, 1):
            if fresh:
                keep_original(out, source.path, source.content_hash)
                report.documents.append(
                    DocReport(
                        path=source.relpath, doc_id=source.doc_id, status="unchanged", reader=previous["reader"],
                        pages=previous["pages"], sections=previous["n_sections"], tables=previous["n_tables"], figures=previous["n_figures"],
                    )
                )
                continue
            limit = settings.compile.max_file_mb * 1_000_000
            progress(f"[{number}/{len(todo)}] {source.relpath}")
            try:
                if source.size > limit:
                    raise ConversionError(
                        f"file is {source.size / 1e6:.0f} MB, over the {settings.compile.max_file_mb:g} MB limit (compile.max_file_mb)"
                    )
                doc_report = _convert_one(source, store, options, reader_hash, vision, progress, convert)
            except ConversionError as exc:
                doc_report = _failed(store, source, str(exc), previous is not None, exc.traceback)
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as exc:  # a bug in a reader: reported by name, its traceback kept in report.json
                doc_report = _failed(store, source, f"reader error {type(exc).__name__}: {exc}", previous is not None,
                                     traceback.format_exc())
            else:
                changed.append(source.doc_id)
                keep_original(out, source.path, source.content_hash)
                progress(f"      {doc_report.sections} sections, {doc_report.tables} tables, {doc_report.figures} figures ({doc_report.seconds:.1f} s)")
            report.documents.append(doc_report)
        present = {s.relpath for s in sources}
        removed = []
        for path, row in sorted(existing.items()):
            if path not in present:
                store.remove_document(row["doc_id"])
                removed.append(row["doc_id"])
                report.documents.append(DocReport(path=path, doc_id=row["doc_id"], status="removed"))
        for failure in store.failures():
            if failure["path"] not in present:
                store.clear_failure(failure["path"])
        report.stages["identity"] = identity_stage(store, changed, progress)
        prune_kept(out, {row["content_hash"] for row in store.documents()})
        for stage in stages or []:
            name, summary = stage(store, out, changed, removed, progress)
            report.stages[name] = summary
        report.seconds = round(time.perf_counter() - started, 2)
        store.set_meta("last_report", report.to_json())
        (out / "report.json").write_text(report.to_json(), encoding="utf-8")
    finally:
        store.close()
    flip_generation(root, out)
    for doc_id in changed:  # finished windows are kept until the build that used them is the current one
        shutil.rmtree(root / "checkpoints" / doc_id, ignore_errors=True)
    return report


def _take_unfinished(store: Store, aside: Path, progress: Progress) -> None:
    """Take the caches of the store a stopped build left (set aside by begin_generation), then delete it: what that
    build embedded is not embedded again."""
    if not (aside / "store.sqlite").is_file():
        return
    taken = store.take_caches(aside / "store.sqlite")
    shutil.rmtree(aside, ignore_errors=True)
    if any(taken.values()):
        progress("kept from the build that was stopped: " + ", ".join(f"{n} {table.replace('_', ' ')} rows"
                                                                       for table, n in taken.items() if n))


def _failed(store: Store, source: SourceFile, reason: str, kept: bool, bug: str = "") -> DocReport:
    """A failed document's report entry: ``reason``, and ``bug`` (a reader's traceback, logged at DEBUG: ``-v`` shows
    it as it happens; report.json keeps it either way) when the reader met an exception it did not expect."""
    if bug:
        log.debug("%s: %s\n%s", source.relpath, reason, bug.rstrip())
    store.put_failure(source.relpath, source.content_hash, reason)
    note = " (the store keeps its last good version, and search and the site show it, with its original as compiled)" if kept else ""
    return DocReport(path=source.relpath, doc_id=source.doc_id, status="failed", reason=reason + note, traceback=bug)


def role_model(settings: Settings, role: str, *, http_client=None) -> ChatModel | None:
    """The ChatModel configured for ``role`` (e.g. 'extractor'), or None when the role is model-free."""
    model = getattr(settings.models, role)
    if not model:
        return None
    return ChatModel(make_client(settings.models, http_client=http_client), model)


def default_stages(settings: Settings, *, site: bool = False, shelf_dir: Path | None = None, executor=None) -> list[Callable]:
    """Stages run after documents are stored: each is ``stage(store, out, changed, removed, progress) -> (name, summary)``.

    Indexes, then the ledger and links; with ``site`` the static site last (templates from ``shelf_dir`` override ours).
    With ``executor`` (shelfwise.compiler.executors.RayExecutor) the passages are embedded by its workers.
    """
    from shelfwise.compiler.index.embedders import embedder_from_settings
    from shelfwise.compiler.index.indexes import index_stage

    embedder = embedder_from_settings(settings)
    if executor is not None:
        from shelfwise.compiler.executors import RayEmbedder

        embedder = RayEmbedder(embedder, executor, settings.model_dump_json())
    stages = [index_stage(embedder), links_stage(role_model(settings, "extractor"))]
    if site:
        from shelfwise.compiler.publish.site import site_stage

        stages.append(site_stage(settings, shelf_dir=shelf_dir))
    return stages


def link_shelf(store, changed_doc_ids, removed_doc_ids, chat=None, progress: Progress | None = None) -> dict:
    """The ledger, links and digests of the shelf: removed documents' ledgers retracted, changed ones' extracted (the
    ledger stage), the shelf re-linked (the links stage), briefs and dossiers rewritten; returns summary counts."""
    started = time.perf_counter()
    counts: Counter = Counter()
    problems: list[str] = []
    extractor = extractor_key(chat.model) if chat else RULES_VERSION
    ledger = store.ledger
    with store.transaction():
        for doc_id in sorted(set(removed_doc_ids)):
            ledger.retract_document(doc_id)
    index = load_index(store)
    todo = extract_ledger(store, index, changed_doc_ids, chat, counts, problems, progress)
    hooks, links, aliases = relink(store, index, chat, problems)
    briefs = build_briefs(index, stored_assertions(store), links)
    dossiers = build_dossiers(index, stored_assertions(store), links, aliases)
    with store.transaction():
        ledger.replace_shelf_links(hooks, links, aliases, briefs, dossiers)
    kinds = ledger.assertion_kinds()
    open_reasons = Counter(reason_class(h.reason) for h in hooks if h.status == "open")
    return {
        "documents_extracted": len(todo),
        "documents_removed": len(set(removed_doc_ids)),
        "sections_extracted": counts["sections_extracted"],
        "sections_cached": counts["sections_cached"],
        "quotes_rejected": counts["rejected"],
        "assertions": sum(kinds.values()),
        "assertions_by_kind": dict(sorted(kinds.items())),
        "hooks": len(hooks),
        "hooks_resolved": sum(1 for h in hooks if h.status == "resolved"),
        "hooks_open": sum(open_reasons.values()),
        "open_by_reason": dict(sorted(open_reasons.items())),
        "links": len(links),
        "links_by_kind": dict(sorted(Counter(l.kind for l in links).items())),
        "aliases_aligned": sum(1 for a in aliases if a.decision == "aligned"),
        "aliases_rejected": sum(1 for a in aliases if a.decision == "rejected"),
        "briefs": len(briefs),
        "dossiers": len(dossiers),
        "extractor": extractor,
        "problems": problems,
        "seconds": round(time.perf_counter() - started, 3),
    }


def links_stage(chat=None) -> Callable:
    """``build_shelf`` stage: ``stage(store, out_dir, changed, removed, progress) -> ('links', summary)``."""

    def stage(store, out_dir, changed, removed, progress):
        return "links", link_shelf(store, changed, removed, chat=chat, progress=progress)

    return stage
