"""The site's "What changed" pages: one per pair of versions the ledger links, the change set computed by code.

``change_pages`` pairs the store's documents joined by a supersedes or
same_series link (``shelfwise.compiler.compare.pair_documents``, which keeps a
supersedes link only between two versions of one series) and computes each
pair's change set. shelfwise/compiler/publish/pages.py renders each as changes/<older>--<newer>.md
(template changes.md.j2): a table of every change, old → new with the
difference computed by code (``marked``: deleted words struck through, inserted words underlined, both
tinted, so neither colour alone nor raw word-diff marks carry it), each side linking to its section's
anchor on the document's page. The superseded revision's page and the newer one's link to it,
and the home and shelf pages list every such page.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from shelfwise.compiler.compare import DocView, compare_documents, links_from_store, pair_documents
from shelfwise.compiler.publish.inert import Md, escape_inline

__all__ = ["change_pages", "pages_by_document", "marked"]


def _del(words: list[str]) -> str:
    return f'<del class="sw-del">{escape_inline(" ".join(words))}</del>' if words else ""


def _ins(words: list[str]) -> str:
    return f'<ins class="sw-ins">{escape_inline(" ".join(words))}</ins>' if words else ""


def marked(change: dict) -> Md:
    """A change's old → new for a table cell: a reworded sentence once, its deleted and inserted words marked
    (``<del>``/``<ins>``, every word escaped); a changed value as old → new; an added or removed one as it stands."""
    old, new = change.get("old") or "", change.get("new") or ""
    if old and new and change.get("words"):
        a, b = old.split(), new.split()
        parts = []
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            parts.append(escape_inline(" ".join(a[i1:i2])) if tag == "equal" else " ".join(p for p in (_del(a[i1:i2]), _ins(b[j1:j2])) if p))
        return Md(" ".join(p for p in parts if p))
    if old and new:
        return Md(f"{_del(old.split())} → {_ins(new.split())}")
    return Md(_del(old.split()) or _ins(new.split()) or "—")


def change_pages(store) -> list[dict]:
    """One record per linked pair of versions, oldest pair first: slug, path, older, newer, name, reason and changes."""
    links = links_from_store(store)
    if not links:
        return []
    involved = {doc for _, newer, older in links for doc in (newer, older)}
    views = {row["doc_id"]: DocView(row["doc_id"], row["title"], row["path"], store.sections(row["doc_id"]))
             for row in store.documents() if row["doc_id"] in involved}
    pairing = pair_documents([views[d] for d in sorted(views, key=lambda d: views[d].path)], links)
    pages = []
    for older, newer, identity, reason in pairing.pairs:
        if not reason.endswith(" link"):
            continue
        changes = compare_documents(older, newer)
        slug = f"{older.doc_id}--{newer.doc_id}"
        pages.append({
            "slug": slug, "path": f"changes/{slug}.md", "name": identity.label, "reason": reason,
            "older": {"doc_id": older.doc_id, "title": changes.title_a}, "newer": {"doc_id": newer.doc_id, "title": changes.title_b},
            "fields_compared": changes.fields_compared, "sections_aligned": changes.sections_aligned,
            "changes": [change.model_dump() for change in changes.changes],
        })
    return pages


def pages_by_document(pages: list[dict]) -> dict[str, list[dict]]:
    """Document id -> the "What changed" pages it is one side of (the older side first)."""
    out: dict[str, list[dict]] = {}
    for page in pages:
        for side in ("older", "newer"):
            out.setdefault(page[side]["doc_id"], []).append({**{k: page[k] for k in ("slug", "path", "name")}, "side": side,
                                                              "older": page["older"], "newer": page["newer"],
                                                              "count": len(page["changes"])})
    return out
