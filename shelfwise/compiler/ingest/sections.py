"""Section tree: a reader's element stream walked once into sections with stable ids.

Heading levels are rebuilt from the numbering ("4.1.2", "A.3", "Appendix B")
when the reader gave none or flattened them; a section's id is a short hash of
(document id, heading path, ordinal among earlier sections with that same
path), so editing one section never moves another's id.
"""

from __future__ import annotations

import hashlib
import re

from shelfwise.compiler.store.records import Block, Converted, Element, Figure, Section, table_text
from shelfwise.compiler.refs import section_id

__all__ = ["build_sections", "numbering_depth", "repair_levels"]

_NUMBER = re.compile(r"^(?:(?:appendix|annex|chapter|part)\s+)?((?:\d+|[A-Z])(?:\.\d+)*)\.?(?:\s|$)", re.IGNORECASE)


def numbering_depth(heading: str) -> int | None:
    """Depth implied by a heading's leading number: '4' -> 1, '4.1.2' -> 3, 'A.1' -> 2; None if unnumbered.

    A lone capital letter counts only with a word like 'Appendix' or a following dot-number,
    so headings such as 'A Note' are not taken as numbered.
    """
    match = _NUMBER.match(heading.strip())
    if not match:
        return None
    number = match.group(1)
    parts = number.split(".")
    has_word = not heading.strip()[0].isalnum() or heading.strip().split()[0].lower() in {"appendix", "annex", "chapter", "part"}
    if parts[0].isalpha() and len(parts) == 1 and not has_word:
        return None
    if parts[0].isdigit() and int(parts[0]) > 999:
        return None  # a year or a quantity, not a section number
    return len(parts)


def repair_levels(headings: list[Element]) -> list[int]:
    """Levels for ``headings``: the reader's, unless missing or flattened, then the numbering's.

    Flattened means the numbered headings' numbering depths vary while the reader's levels do not.
    Unnumbered headings keep the reader's level (or 1 when it gave none).
    """
    depths = [numbering_depth(h.text) for h in headings]
    reader = [h.level for h in headings]
    numbered = [(d, r) for d, r in zip(depths, reader) if d is not None]
    missing = any(r is None for r in reader)
    flattened = bool(numbered) and len({d for d, _ in numbered}) > 1 and len({r for _, r in numbered}) == 1
    if not (missing or flattened):
        return [int(r) for r in reader]  # type: ignore[arg-type]
    base = min((r for r in reader if r is not None), default=1)
    levels = []
    for depth, level in zip(depths, reader):
        if depth is not None:
            levels.append(depth)
        elif level is not None and not flattened:
            levels.append(max(1, level - base + 1))
        else:
            levels.append(1)
    return levels


def _block(element: Element) -> Block:
    text = element.text
    if element.kind == "table" and element.rows and not text:
        text = table_text(element.rows)
    return Block(
        kind=element.kind,
        text=text,
        page=element.page,
        rows=element.rows,
        header_rows=element.header_rows,
        name=element.name,
    )


def build_sections(doc_id: str, converted: Converted) -> tuple[list[Section], list[Figure]]:
    """Walk the element stream into sections (root first, document order) and the figures they hold."""
    headings = [e for e in converted.elements if e.kind == "heading"]
    levels = iter(repair_levels(headings))
    root = Section(
        id=section_id(doc_id, [], 0),
        doc_id=doc_id,
        parent_id=None,
        seq=0,
        level=0,
        heading=converted.title,
        heading_path=[],
    )
    sections = [root]
    stack = [root]
    seen_paths: dict[tuple[str, ...], int] = {}
    figures: list[Figure] = []
    for element in converted.elements:
        current = stack[-1]
        if element.kind == "heading":
            level = next(levels)
            heading = " ".join(element.text.split())
            while stack[-1].level >= level and len(stack) > 1:
                stack.pop()
            parent = stack[-1]
            path = [*parent.heading_path, heading]
            ordinal = seen_paths.get(tuple(path), 0)
            seen_paths[tuple(path)] = ordinal + 1
            section = Section(
                id=section_id(doc_id, path, ordinal),
                doc_id=doc_id,
                parent_id=parent.id,
                seq=len(sections),
                level=level,
                heading=heading,
                heading_path=path,
                page_start=element.page,
                page_end=element.page,
            )
            sections.append(section)
            stack.append(section)
            continue
        block = _block(element)
        if element.kind == "figure":
            n = sum(1 for b in current.blocks if b.kind == "figure")
            block.figure_id = f"{current.id}-f{n + 1}"
            image_hash = hashlib.sha256(element.image).hexdigest() if element.image else None
            figures.append(
                Figure(
                    id=block.figure_id,
                    doc_id=doc_id,
                    section_id=current.id,
                    caption=element.text,
                    page=element.page,
                    image=element.image,
                    image_hash=image_hash,
                )
            )
        current.blocks.append(block)
        if element.page is not None:
            current.page_start = current.page_start if current.page_start is not None else element.page
            current.page_end = max(current.page_end or element.page, element.page)
    return sections, figures
