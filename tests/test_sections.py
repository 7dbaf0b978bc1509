from shelfwise.compiler.store.records import Converted, Element
from shelfwise.compiler.refs import section_id
from shelfwise.compiler.ingest.sections import build_sections, numbering_depth, repair_levels


def _doc(*elements: Element) -> Converted:
    return Converted(title="Doc", elements=list(elements), reader="test", reader_version="1")


def h(text, level=None, page=None):
    return Element(kind="heading", text=text, level=level, page=page)


def p(text, page=None):
    return Element(kind="paragraph", text=text, page=page)


def test_numbering_depth():
    assert numbering_depth("4 Scope") == 1
    assert numbering_depth("4.1.2. Authorization Response") == 3
    assert numbering_depth("Appendix A") == 1
    assert numbering_depth("A.1 Introduction") == 2
    assert numbering_depth("A Note on Style") is None
    assert numbering_depth("2017 in review") is None
    assert numbering_depth("Abstract") is None


def test_flattened_levels_are_rebuilt_from_numbering():
    heads = [h("1 Intro", 1), h("1.1 Scope", 1), h("1.1.1 Detail", 1), h("2 Next", 1)]
    assert repair_levels(heads) == [1, 2, 3, 1]
    # a reader that knows its levels is believed
    assert repair_levels([h("Intro", 1), h("Scope", 2)]) == [1, 2]


def test_tree_paths_ids_pages_and_text():
    sections, _ = build_sections(
        "qm",
        _doc(
            p("Preface text.", 1),
            h("1 Scope", page=1),
            p("Scope text.", 1),
            h("1.1 Applicability", page=2),
            p("Applies here.", 2),
            p("And on page 3.", 3),
            h("2 Terms", page=3),
        ),
    )
    root, scope, appl, terms = sections
    assert root.level == 0 and root.text == "Preface text." and root.heading == "Doc"
    assert appl.heading_path == ["1 Scope", "1.1 Applicability"] and appl.parent_id == scope.id
    assert terms.parent_id == root.id
    assert (appl.page_start, appl.page_end) == (2, 3)
    assert appl.text == "Applies here.\n\nAnd on page 3."
    assert appl.id == section_id("qm", ["1 Scope", "1.1 Applicability"], 0)


def test_ids_are_stable_when_another_section_is_edited_or_inserted():
    before, _ = build_sections("d", _doc(h("A", 1), p("x"), h("B", 1), p("y"), h("C", 1)))
    after, _ = build_sections("d", _doc(h("A", 1), p("x changed"), h("New", 1), h("B", 1), p("y"), h("C", 1)))
    ids_before = {s.heading: s.id for s in before}
    ids_after = {s.heading: s.id for s in after}
    assert all(ids_before[k] == ids_after[k] for k in ("A", "B", "C"))


def test_same_path_siblings_get_distinct_ids():
    sections, _ = build_sections("d", _doc(h("Example", 1), h("Example", 1)))
    assert sections[1].id != sections[2].id


def test_figures_get_records():
    sections, figures = build_sections(
        "d", _doc(h("Setup", 1), Element(kind="figure", text="Figure 1: the pump", page=4, image=b"png"))
    )
    assert figures[0].section_id == sections[1].id and figures[0].caption == "Figure 1: the pump"
    assert figures[0].image_hash and sections[1].blocks[0].figure_id == figures[0].id
