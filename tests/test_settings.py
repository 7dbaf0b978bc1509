from pathlib import Path

import pytest

from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.settings import load_settings, load_shelf_config, settings_hash


def test_shelf_toml_reports_every_problem_at_once(tmp_path: Path):
    (tmp_path / "shelf.toml").write_text(
        'title = "T"\ninclde = ["*.md"]\nexclude = "x"\n[options]\npdf_window_pages = "ten"\n', encoding="utf-8"
    )
    with pytest.raises(SettingsError) as caught:
        load_shelf_config(tmp_path)
    problems = caught.value.problems
    assert "inclde: unknown key; remove it or check its spelling" in problems
    assert any(p.startswith("exclude: ") and "valid list" in p for p in problems)
    assert any(p.startswith("options.pdf_window_pages: ") for p in problems)
    assert len(problems) == 3
    assert str(tmp_path / "shelf.toml") in str(caught.value)


def test_folder_without_shelf_toml_gets_defaults(tmp_path: Path):
    config = load_shelf_config(tmp_path)
    assert config.include == ["**/*"] and config.exclude == [] and config.title is None


def test_invalid_toml_names_the_file(tmp_path: Path):
    (tmp_path / "shelf.toml").write_text("title = \n", encoding="utf-8")
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_shelf_config(tmp_path)


def test_settings_file_and_overrides(tmp_path: Path):
    path = tmp_path / "shelfwise.toml"
    path.write_text('build_dir = "out"\n[pdf]\nwindow_pages = 5\n', encoding="utf-8")
    settings = load_settings(path, {"pdf.use_outline": False, "build_dir": None})
    assert settings.build_dir == Path("out")
    assert settings.pdf.window_pages == 5 and settings.pdf.use_outline is False


def test_settings_unknown_section_is_reported(tmp_path: Path):
    path = tmp_path / "shelfwise.toml"
    path.write_text('[modles]\nwriter = "x"\n', encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        load_settings(path)
    assert caught.value.problems == ["modles: unknown key; remove it or check its spelling"]


def test_settings_hash_changes_with_settings():
    assert settings_hash(1, 10) != settings_hash(1, 5)
    assert settings_hash(1, 10) == settings_hash(1, 10)
