"""What the site tests share: a shelf's own templates folder whose coverage page links to a page that does not exist."""

from __future__ import annotations

from pathlib import Path


def broken_templates(folder: Path) -> Path:
    """A templates folder (``build_site(templates_dir=...)``) whose coverage page makes mkdocs --strict fail."""
    templates = folder / "templates"
    templates.mkdir()
    (templates / "coverage.md.j2").write_text("# Coverage\n\nSee [the missing page](nowhere.md).\n", encoding="utf-8")
    return templates
