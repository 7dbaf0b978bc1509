"""Cost before spending: the model calls, tokens and price a compile would make, counted before any model call.

``shelfwise build SHELF --estimate`` prints the estimate and stops; a compile with models configured runs the
same estimate first and refuses, without ``--yes``, when its price is over ``cost.confirm_above_usd`` or a
model it would call has no price in ``cost.prices``.

What is counted (the compile's model roles; briefs and dossiers are composed by code and make no calls):

- ledger extractor (``models.extractor``): one call per batch of sections (shelfwise/compiler/ledger/model.py batches
  them as the compile does), for every section whose extraction is not cached for that model: all sections
  of a new or changed document (an upper bound: its unchanged sections may be cached), and the sections of
  unchanged documents missing from the extraction cache. The prompt is the exact system prompt and sections
  text; completion tokens are an assumption (OUTPUT_TOKENS_PER_SECTION).
- alias judgements (also ``models.extractor``): one call per acronym and long form the code aligns, found
  with the rule extractor's assertions (the model's own may find a few more or fewer).
- figure descriptions (``models.vision``): one call per figure with an image crop in a new or changed
  document that is not in the description cache; an image counts IMAGE_TOKENS, the reply at most 400 tokens.

New and changed documents are converted (model-free, nothing is written) to count their sections and figures;
tokens are characters / 4 (CHARS_PER_TOKEN), an approximation of OpenAI-style tokenizers on English text.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel, Field

from shelfwise.compiler.errors import ShelfwiseError
from shelfwise.compiler.settings import Settings

__all__ = ["RoleEstimate", "Estimate", "estimate_compile", "confirm_spend", "CHARS_PER_TOKEN"]

CHARS_PER_TOKEN = 4
OUTPUT_TOKENS_PER_SECTION = 150
IMAGE_TOKENS = 1000
FIGURE_REPLY_TOKENS = 400
ALIAS_REPLY_TOKENS = 60


class RoleEstimate(BaseModel):
    """The calls one model role would make."""

    role: str = Field(description="'extractor', 'aliases' or 'vision'.")
    model: str = Field(description="The model id the role calls.")
    calls: int = Field(description="Model requests.")
    items: int = Field(description="Sections, alias pairs or figures behind those calls.")
    input_tokens: int = Field(description="Prompt tokens (estimated).")
    output_tokens: int = Field(description="Completion tokens (estimated).")
    usd: float | None = Field(description="Price at cost.prices; None when the model has no price there.")


class Estimate(BaseModel):
    """What a compile with models would spend, before it spends anything."""

    documents: int = Field(description="Documents of the shelf.")
    converted: int = Field(description="New or changed documents converted to count their sections and figures.")
    roles: list[RoleEstimate] = Field(default_factory=list)

    @property
    def calls(self) -> int:
        return sum(r.calls for r in self.roles)

    @property
    def usd(self) -> float:
        return round(sum(r.usd or 0.0 for r in self.roles), 4)

    @property
    def unpriced(self) -> list[str]:
        return sorted({r.model for r in self.roles if r.usd is None and r.calls})

    def render(self) -> str:
        lines = [f"estimate: {self.documents} document(s), {self.converted} new or changed (converted to count, model-free)"]
        for r in self.roles:
            price = "no price in cost.prices" if r.usd is None else _usd(r.usd)
            lines.append(f"  {r.role:<9} {r.model}: {r.calls:,} call(s) for {r.items:,} item(s), ~{r.input_tokens:,} input + "
                         f"~{r.output_tokens:,} output tokens, {price}")
        if not self.roles:
            lines.append("  no model roles configured (models.extractor, models.vision): the compile makes no model calls")
        lines.append("  briefs and dossiers: composed by code, no calls")
        total = _usd(self.usd) + (f" + unpriced calls to {', '.join(self.unpriced)}" if self.unpriced else "")
        lines.append(f"total: {self.calls:,} call(s), {total}")
        return "\n".join(lines)


def _usd(amount: float) -> str:
    return f"${amount:,.2f}" if amount >= 1 else f"${amount:.4f}"


def _price(settings: Settings, model: str, input_tokens: int, output_tokens: int) -> float | None:
    price = settings.cost.prices.get(model)
    if price is None:
        return None
    return round((input_tokens * price.input_usd_per_million + output_tokens * price.output_usd_per_million) / 1e6, 4)


def _role(settings: Settings, role: str, model: str, calls: int, items: int, input_chars: int, output_tokens: int) -> RoleEstimate:
    tokens = input_chars // CHARS_PER_TOKEN
    return RoleEstimate(role=role, model=model, calls=calls, items=items, input_tokens=tokens, output_tokens=output_tokens,
                        usd=_price(settings, model, tokens, output_tokens))


def _documents(shelf_dir: Path, settings: Settings, exclude: list[str] | None):
    """(sources, the current store or None, unchanged (doc id, title), converted (title, sections, figures))."""
    from shelfwise.compiler.build import reader_settings, shelf_build_dir
    from shelfwise.compiler.ingest.convert import convert_file
    from shelfwise.compiler.ingest.discover import discover, display_name
    from shelfwise.compiler.store.generations import current_generation
    from shelfwise.compiler.ingest.sections import build_sections
    from shelfwise.compiler.settings import load_shelf_config
    from shelfwise.compiler.store.store import Store

    config = load_shelf_config(shelf_dir)
    if exclude:
        config = config.model_copy(update={"exclude": [*config.exclude, *exclude]})
    current = current_generation(shelf_build_dir(shelf_dir, settings, config))
    store = Store(current / "store.sqlite", create=False) if current else None
    existing = {row["path"]: row for row in store.documents()} if store else {}
    sources = [s for s in discover(shelf_dir, config, [], allow_outside=settings.compile.follow_symlinks_outside) if s.supported]
    unchanged, converted = [], []
    for source in sources:
        options, reader_hash = reader_settings(settings, config, None, None)
        previous = existing.get(source.relpath)
        if previous and (previous["content_hash"], previous["settings_hash"], previous["doc_id"]) == (source.content_hash, reader_hash, source.doc_id):
            unchanged.append((source.doc_id, previous["title"]))
            continue
        try:
            document = convert_file(source.path, options)
        except Exception:  # a document that will fail to convert makes no model calls
            continue
        sections, figures = build_sections(source.doc_id, document)
        converted.append((source.title or display_name(document.title), sections, figures))
    return sources, store, unchanged, converted


def estimate_compile(shelf_dir: Path, settings: Settings, *, exclude: list[str] | None = None) -> Estimate:
    """The estimate for compiling ``shelf_dir`` now with ``settings``' models; calls no model, writes nothing."""
    from shelfwise.compiler.links.aliases import find_aliases
    from shelfwise.compiler.ledger.rules import extract_rules
    from shelfwise.compiler.ledger.model import _batches, extractor_key
    from shelfwise.compiler.prompts import ALIAS_PAIR, ALIAS_SYSTEM, DESCRIBE_FIGURE, EXTRACT_SECTION, EXTRACT_SYSTEM

    sources, store, unchanged, converted = _documents(Path(shelf_dir), settings, exclude)
    estimate = Estimate(documents=len(sources), converted=len(converted))
    try:
        extractor, vision = settings.models.extractor, settings.models.vision
        if extractor:
            key = extractor_key(extractor)
            items = [(s, title) for title, sections, _ in converted for s in sections]
            for doc_id, title in unchanged:
                cached = store.ledger.cached_section_ids(doc_id, key)
                items += [(s, title) for s in store.sections(doc_id) if s.id not in cached]
            items = [(s, t) for s, t in items if s.text.strip()]
            batches = _batches(items)
            chars = sum(len(EXTRACT_SYSTEM) + sum(len(EXTRACT_SECTION.format(key="S1", title=t, heading=" > ".join(s.heading_path) or t, text=s.text))
                                                  for s, t in batch) for batch in batches)
            estimate.roles.append(_role(settings, "extractor", extractor, len(batches), len(items), chars, OUTPUT_TOKENS_PER_SECTION * len(items)))
            sections = [s for _, secs, _ in converted for s in secs] + [s for d, _ in unchanged for s in store.sections(d)]
            pairs = [a for s in sections for a in find_aliases(s, extract_rules(s).assertions) if a.decision == "aligned"]
            chars = sum(len(ALIAS_SYSTEM) + len(ALIAS_PAIR.format(short=a.short, long=a.long, quote=a.quote)) for a in pairs)
            estimate.roles.append(_role(settings, "aliases", extractor, len(pairs), len(pairs), chars, ALIAS_REPLY_TOKENS * len(pairs)))
        if vision:
            figures = [f for _, _, figs in converted for f in figs if f.image and f.image_hash]
            if store:
                figures = [f for f in figures if store.vision_description(f.image_hash, vision) is None]
            chars = sum(len(DESCRIBE_FIGURE.format(caption=f.caption or "(no caption)")) + IMAGE_TOKENS * CHARS_PER_TOKEN for f in figures)
            estimate.roles.append(_role(settings, "vision", vision, len(figures), len(figures), chars, FIGURE_REPLY_TOKENS * len(figures)))
    finally:
        if store:
            store.close()
    return estimate


def confirm_spend(shelf_dir: Path, settings: Settings, *, estimate_only: bool, yes: bool, exclude: list[str] | None = None) -> bool:
    """Print the estimate; True when the command should stop there (--estimate). Raises ShelfwiseError when a
    compile with models would spend more than cost.confirm_above_usd (or call an unpriced model) without --yes."""
    estimate = estimate_compile(shelf_dir, settings, exclude=exclude)
    if estimate_only:
        print(estimate.render())
        return True
    print(estimate.render(), file=sys.stderr)
    limit = settings.cost.confirm_above_usd
    if yes or estimate.calls == 0:
        return False
    if estimate.unpriced:
        raise ShelfwiseError(f"the compile would make {estimate.calls:,} model call(s), some to {', '.join(estimate.unpriced)} with no price "
                             "in cost.prices; add its price to the settings or run again with --yes to spend it")
    if estimate.usd > limit:
        raise ShelfwiseError(f"the compile would spend about {_usd(estimate.usd)} on {estimate.calls:,} model call(s), over "
                             f"cost.confirm_above_usd ({_usd(limit)}); run again with --yes to spend it, or raise the limit")
    return False
