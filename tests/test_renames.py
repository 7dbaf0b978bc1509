"""Stable anchors across renames: a shelf rebuilt after a heading is renamed still answers at the old ids."""

from __future__ import annotations

import json
from pathlib import Path

from litestar.testing import TestClient

from answer_shelves import HashEmbedder
from shelfwise.api.server.app import create_app
from shelfwise.compiler.build import build_shelf, links_stage
from shelfwise.compiler.cli.main import main
from shelfwise.compiler.index.indexes import index_stage
from shelfwise.compiler.store.records import Section, SectionAlias
from shelfwise.compiler.ingest.renames import carry_aliases
from shelfwise.compiler.settings import Settings
from shelfwise.compiler.publish.site import site_stage
from shelfwise.compiler.store.store import Store

POLICY = ("# Access Policy\n\n## Passwords\n\nPasswords must have at least 12 characters.\n\n"
          "## Refresh tokens\n\nRefresh tokens expire after 30 days. A refresh token is revoked when the user logs out.\n\n"
          "### Revocation\n\nRevoked tokens are listed in the audit log.\n\n"
          "## Access tokens\n\nAccess tokens expire after 15 minutes.\n")
TOKEN = {"Authorization": "Bearer t"}


def _section(doc: str, path: list[str], seq: int, text: str, parent: str | None = None) -> Section:
    from shelfwise.compiler.refs import section_id

    return Section(id=section_id(doc, path, 0), doc_id=doc, parent_id=parent, seq=seq, level=len(path), heading=path[-1] if path else doc,
                   heading_path=path, blocks=[{"kind": "paragraph", "text": text}] if text else [])


def _doc(title: str, child: str, texts=("Alpha beta gamma delta.", "Epsilon zeta eta theta.")) -> list[Section]:
    root = _section("d", [], 0, "")
    top = _section("d", [title], 1, "", root.id)
    one = _section("d", [title, child], 2, texts[0], top.id)
    two = _section("d", [title, "Other"], 3, texts[1], top.id)
    return [root, top, one, two]


def test_a_renamed_heading_maps_itself_and_every_section_under_it():
    before, after = _doc("Policy", "Scope"), _doc("Access policy", "Scope")
    aliases = carry_aliases(before, [], after)
    assert {(a.old_id, a.new_id) for a in aliases} == {(b.id, a.id) for b, a in zip(before[1:], after[1:])}
    assert {a.old_heading for a in aliases} == {"Policy", "Policy › Scope", "Policy › Other"}
    assert all(a.doc_id == "d" and 0.5 <= a.score <= 1.0 for a in aliases)


def test_aliases_follow_a_second_rename_and_drop_when_the_old_id_is_live_again():
    first, second, third = _doc("Policy", "Scope"), _doc("Policy", "Reach"), _doc("Policy", "Extent")
    aliases = carry_aliases(first, [], second)
    assert [(a.old_id, a.new_id) for a in aliases] == [(first[2].id, second[2].id)]
    again = carry_aliases(second, aliases, third)
    assert sorted((a.old_id, a.new_id) for a in again) == sorted([(first[2].id, third[2].id), (second[2].id, third[2].id)])
    back = carry_aliases(third, again, first)  # renamed back: the first id is live, the others point at it
    assert sorted((a.old_id, a.new_id) for a in back) == sorted([(second[2].id, first[2].id), (third[2].id, first[2].id)])


def test_a_removed_section_and_a_new_one_with_other_text_are_not_taken_for_a_rename():
    before = _doc("Policy", "Scope")
    after = _doc("Policy", "Budget", texts=("Costs are approved by the board every quarter.", "Epsilon zeta eta theta."))
    assert carry_aliases(before, [], after) == []
    kept = [SectionAlias("sold00000000", "d", before[2].id, "Policy › Old", 1.0)]
    assert carry_aliases(before, kept, after) == []  # its section is gone: so is the alias


def _build(shelf: Path, settings: Settings):
    report = build_shelf(shelf, settings, progress=lambda _: None,
                         stages=[index_stage(HashEmbedder()), links_stage(), site_stage(settings, shelf_dir=shelf)])
    assert not report.failed, report.render()
    return report


def test_a_rebuilt_shelf_answers_at_the_old_anchor_on_its_page_the_api_and_the_cli(tmp_path, capsys):
    shelf = tmp_path / "policies"
    shelf.mkdir()
    (shelf / "access.md").write_text(POLICY, encoding="utf-8")
    settings = Settings(build_dir=tmp_path / "build")
    _build(shelf, settings)
    store = Store(tmp_path / "build" / "policies" / "store.sqlite")
    old = {tuple(s.heading_path): s.id for s in store.sections("access-md")}
    store.close()

    (shelf / "access.md").write_text(POLICY.replace("## Refresh tokens", "## Refresh token lifetime"), encoding="utf-8")
    report = _build(shelf, settings)
    assert [d.renamed for d in report.documents] == [2]  # the renamed heading and the section under it
    assert "2 renamed section(s) keep answering at their old ids" in report.render()
    store = Store(tmp_path / "build" / "policies" / "store.sqlite")
    new = {tuple(s.heading_path): s.id for s in store.sections("access-md")}
    renamed = new[("Access Policy", "Refresh token lifetime")]
    below = new[("Access Policy", "Refresh token lifetime", "Revocation")]
    assert {(a.old_id, a.new_id) for a in store.section_aliases()} == {
        (old[("Access Policy", "Refresh tokens")], renamed), (old[("Access Policy", "Refresh tokens", "Revocation")], below)}
    assert old[("Access Policy", "Passwords")] == new[("Access Policy", "Passwords")]  # untouched sections keep their ids
    store.close()

    page = (tmp_path / "build" / "policies" / "site" / "documents" / "access-md.html").read_text(encoding="utf-8")
    old_id = old[("Access Policy", "Refresh tokens")]
    assert f'id="{old_id}"' in page and f'id="{renamed}"' in page
    assert page.index(f'id="{old_id}"') < page.index(f'id="{renamed}"') < page.index("Refresh tokens expire")
    widget_map = json.loads((tmp_path / "build" / "policies" / "site" / "assets" / "shelfwise" / "sections.json").read_text(encoding="utf-8"))
    assert widget_map["sections"][old_id] == widget_map["sections"][renamed]  # the widget links an old citation to the new section

    api = Settings.model_validate({"api": {"tokens": [{"name": "t", "token": "t", "shelves": ["policies"]}],
                                           "trace_db": str(tmp_path / "traces.sqlite")}})
    app = create_app(api, chat=None, embedder=HashEmbedder(), stores={"policies": tmp_path / "build" / "policies"})
    with TestClient(app) as client:
        moved = client.get(f"/api/sections/{old_id}?shelf=policies", headers=TOKEN, follow_redirects=False)
        assert moved.status_code == 301
        assert moved.headers["location"] == f"/api/sections/{renamed}?shelf=policies"
        body = moved.json()
        assert body["section_id"] == renamed and body["moved_from"] == old_id
        assert body["heading"] == "Refresh token lifetime" and "expire after 30 days" in body["text"]
        assert body["note"] == (f"section {old_id} moved: 'Access Policy › Refresh tokens' is now 'Access Policy › Refresh token lifetime' "
                                f"({renamed}) after its heading was renamed; cite {renamed} from now on")
        followed = client.get(f"/api/sections/{old_id}", headers=TOKEN)
        assert followed.status_code == 200 and followed.json()["section_id"] == renamed and followed.json()["note"] is None

    assert main(["sections", "policies", "--id", old_id, "--build-dir", str(tmp_path / "build"), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["id"] == renamed and printed["moved_from"] == old_id and printed["note"] == body["note"]
