"""The shelf's link map as a picture: an SVG drawn at build time by code (no script, nothing loaded).

Documents sit on a circle in shelf order, each a labelled node linking to its document page; every
document pair with links of a kind gets one arrow in that kind's colour (several kinds between one pair
bend apart), and a legend names the kinds in words. Beside it, the same links as a table. Deterministic:
the same shelf draws the same picture. Labels go through ``html.escape``.
"""

from __future__ import annotations

import html
import math

from shelfwise.compiler.publish.inert import Md
from shelfwise.compiler.digests.names import count, relation_words

__all__ = ["KIND_COLOURS", "link_pairs", "legend_html", "link_map_svg", "link_map_html"]

KIND_COLOURS = {
    "supersedes": "#c62828", "updates": "#ef6c00", "same_series": "#6a1b9a", "contradicts_candidate": "#d81b60",
    "depends_on": "#1565c0", "cites": "#2e7d32", "resolves": "#00838f", "shares_names": "#757575",
}
_ORDER = list(KIND_COLOURS)
_BACKGROUND = {"cites", "resolves", "shares_names"}  # many and routine: drawn under the others
WIDTH, HEIGHT, RADIUS, NODE_R = 640, 480, 170, 9
LABEL_CHARS = 22


def link_pairs(links: list[dict]) -> dict[tuple[str, str, str], int]:
    """(source, destination, kind) -> count, for links between two different documents."""
    pairs: dict[tuple[str, str, str], int] = {}
    for link in links:
        if link["src_doc"] != link["dst_doc"]:
            key = (link["src_doc"], link["dst_doc"], link["kind"])
            pairs[key] = pairs.get(key, 0) + 1
    return pairs


def _e(text: str) -> str:
    return html.escape(" ".join(str(text).split()), quote=True)


def _label(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1].rstrip() + "…"


def legend_html(kinds: list[str]) -> str:
    """The kinds drawn, each with its colour and its words."""
    items = "".join(f'<li><span class="sw-swatch" style="background:{KIND_COLOURS.get(k, "#455a64")}"></span>{_e(relation_words(k))}</li>'
                    for k in kinds)
    return f'<ul class="sw-legend" aria-label="Link kinds">{items}</ul>'


def _kinds(pairs: dict) -> list[str]:
    return sorted({k for _, _, k in pairs}, key=lambda k: (_ORDER.index(k) if k in _ORDER else len(_ORDER), k))


def link_map_svg(documents: list[dict], links: list[dict], names: dict[str, str]) -> str:
    """The SVG: ``documents`` (rows with doc_id and title, in order), ``names`` doc id -> short label."""
    pairs = link_pairs(links)
    linked = [d for d in documents if any(d["doc_id"] in (s, t) for s, t, _ in pairs)]
    if not linked:
        return ""
    cx, cy = WIDTH / 2, HEIGHT / 2
    place = {}
    for n, doc in enumerate(linked):
        angle = -math.pi / 2 + 2 * math.pi * n / len(linked)
        place[doc["doc_id"]] = (cx + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle), angle)
    kinds = _kinds(pairs)
    out = [f'<svg class="sw-linkmap-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'role="group" aria-labelledby="sw-linkmap-title"><title id="sw-linkmap-title">How the documents link: '
           f'{len(linked)} documents, {len(pairs)} linked pairs</title>', "<defs>"]
    for kind in kinds:
        colour = KIND_COLOURS.get(kind, "#455a64")
        out.append(f'<marker id="sw-arrow-{kind}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" '
                   f'markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
    out.append("</defs>")
    by_pair: dict[frozenset, list[tuple[str, str, str]]] = {}
    for key in sorted(pairs, key=lambda k: (k[0], k[1], kinds.index(k[2]))):
        by_pair.setdefault(frozenset(key[:2]), []).append(key)
    edges = []
    for group in by_pair.values():
        for index, (src, dst, kind) in enumerate(group):
            edges.append((kind in _BACKGROUND, index, len(group), src, dst, kind))
    # plain citations underneath, thin and light; the kinds that change what a reader trusts on top
    for _, index, size, src, dst, kind in sorted(edges, key=lambda e: (not e[0], kinds.index(e[5]), e[3], e[4])):
        (x1, y1, _), (x2, y2, _) = place[src], place[dst]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        ux, uy = dx / length, dy / length
        sx, sy = x1 + ux * (NODE_R + 2), y1 + uy * (NODE_R + 2)
        tx, ty = x2 - ux * (NODE_R + 4), y2 - uy * (NODE_R + 4)
        bend = (index - (size - 1) / 2) * 28 + (14 if size == 1 and src > dst else 0)
        bend = bend if src < dst else -bend
        mx, my = (sx + tx) / 2 - uy * bend, (sy + ty) / 2 + ux * bend
        colour = KIND_COLOURS.get(kind, "#455a64")
        n_links = pairs[(src, dst, kind)]
        dash = ' stroke-dasharray="6 4"' if kind in ("contradicts_candidate", "shares_names") else ""
        width = min(1 + n_links * 0.25, 2.5) if kind in _BACKGROUND else min(2 + n_links * 0.5, 4)
        opacity = ' stroke-opacity="0.45"' if kind in _BACKGROUND else ""
        out.append(f'<path class="sw-edge sw-edge-{kind}" d="M{sx:.1f},{sy:.1f} Q{mx:.1f},{my:.1f} {tx:.1f},{ty:.1f}" '
                   f'fill="none" stroke="{colour}" stroke-width="{width:.1f}"{opacity}{dash} '
                   f'marker-end="url(#sw-arrow-{kind})"><title>{_e(names[src])} {_e(relation_words(kind))} '
                   f'{_e(names[dst])} ({count(n_links, "link")})</title></path>')
    for doc in linked:
        x, y, angle = place[doc["doc_id"]]
        anchor = "start" if math.cos(angle) > 0.2 else "end" if math.cos(angle) < -0.2 else "middle"
        lx = x + math.cos(angle) * (NODE_R + 6)
        ly = y + math.sin(angle) * (NODE_R + 8) + (4 if anchor != "middle" else (12 if math.sin(angle) > 0 else -4))
        shown = _label(names[doc["doc_id"]])  # the node's accessible name starts with the words it shows (WCAG 2.5.3)
        name = doc["title"] if shown in doc["title"] else f"{shown}: {doc['title']}"
        out.append(f'<a class="sw-node" href="documents/{doc["doc_id"]}.html" aria-label="{_e(name)}">'
                   f'<title>{_e(doc["title"])}</title>'
                   f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{NODE_R}" fill="#3f51b5" stroke="#fff" stroke-width="2"/>'
                   f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}" font-size="13">{_e(shown)}</text></a>')
    out.append("</svg>")
    return "".join(out)


def _unlinked(documents: list[dict], pairs: dict) -> str:
    linked = {d for s, t, _ in pairs for d in (s, t)}
    alone = sum(1 for d in documents if d["doc_id"] not in linked)
    return f" {count(alone, 'document')} without links to another document {'is' if alone == 1 else 'are'} not drawn." if alone else ""


def link_map_html(documents: list[dict], links: list[dict], names: dict[str, str], titles: dict[str, str]) -> Md:
    """The picture beside a table of the same links (a row per document pair: "From", "Relation", "To"), as one HTML block."""
    pairs = link_pairs(links)
    if not pairs:
        return Md("")
    order = {d["doc_id"]: n for n, d in enumerate(documents)}
    by_pair: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for (src, dst, kind), number in pairs.items():
        by_pair.setdefault((src, dst), []).append((kind, number))
    rows = []
    for (src, dst), kinds in sorted(by_pair.items(), key=lambda p: (order.get(p[0][0], 0), order.get(p[0][1], 0))):
        chips = " ".join(
            f'<span class="sw-kind" style="border-color:{KIND_COLOURS.get(kind, "#455a64")}">{_e(relation_words(kind))}'
            f'{" ×" + str(number) if number > 1 else ""}</span>'
            for kind, number in sorted(kinds, key=lambda k: (_ORDER.index(k[0]) if k[0] in _ORDER else len(_ORDER), k[0])))
        rows.append(f'<tr><th scope="row" class="sw-nw"><a href="documents/{src}.html" title="{_e(titles[src])}">{_e(names[src])}</a></th>'
                    f'<td>{chips}</td><td class="sw-nw"><a href="documents/{dst}.html" title="{_e(titles[dst])}">{_e(names[dst])}</a></td></tr>')
    table = ('<div class="sw-table" role="region" aria-label="Links between documents" tabindex="0"><table class="sw-grid">'
             '<thead><tr><th scope="col">From</th><th scope="col">Relation</th><th scope="col">To</th></tr></thead>'
             "<tbody>" + "".join(rows) + "</tbody></table></div>")
    svg = link_map_svg(documents, links, names)
    return Md(f'<div class="sw-linkmap"><figure class="sw-linkmap-figure">{svg}'
              f"{legend_html(_kinds(pairs))}<figcaption>Each dot is a document (select it to open its page); each arrow, "
              f"the links of one kind from one document to another.{_unlinked(documents, pairs)}</figcaption>"
              f"</figure>{table}</div>")
