"""Compiled shelves for the answering tests: the demo shelf (built once per session) and two small tenants."""

from __future__ import annotations

import hashlib
import math
import re
from functools import lru_cache
from pathlib import Path

from shelfwise.compiler.build import build_shelf, links_stage
from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.index.indexes import index_stage
from shelfwise.compiler.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "shelves" / "northwind"


class HashEmbedder(Embedder):
    """Deterministic bag-of-words vectors (64 dims): the real Embedder interface, no model."""

    model_id = "test:hash-64"
    dimensions = 64
    window_tokens = 256

    def embed_batch(self, texts: list[str]) -> list[list[float]]:
        vectors = []
        for text in texts:
            vector = [0.0] * self.dimensions
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimensions] += 1.0
            norm = math.sqrt(sum(x * x for x in vector)) or 1.0
            vectors.append([x / norm for x in vector])
        return vectors


def compile_shelf(shelf_dir: Path, build_dir: Path, exclude: list[str] | None = None) -> Path:
    """Compile with the index and ledger stages; returns build_dir/<shelf>."""
    settings = Settings(build_dir=build_dir)
    report = build_shelf(
        shelf_dir, settings, progress=lambda line: None, stages=[index_stage(HashEmbedder()), links_stage()], exclude=exclude
    )
    assert not report.failed, report.render()
    return build_dir / report.shelf


@lru_cache(maxsize=1)
def demo_build(build_dir: Path) -> Path:
    """The demo shelf's documents compiled once per test session (its source/ texts and generator left out)."""
    return compile_shelf(DEMO, build_dir, exclude=["source/**", "*.py", "*.yaml"])


TENANTS = {
    "alpha": {
        "access-policy.md": "# Access Policy\n\n## Passwords\n\nPasswords must have at least 12 characters. "
        "Passwords are changed every 90 days.\n\n## Refresh tokens\n\nRefresh tokens expire after 30 days. "
        "A refresh token is revoked when the user logs out.\n\n## Access tokens\n\nAccess tokens expire after 15 minutes.\n",
        "backup-procedure.md": "# Backup Procedure\n\n## Steps\n\n1. Stop the database writer.\n2. Copy the data folder to the vault.\n"
        "3. Start the database writer again.\n\n## Retention\n\nBackups are kept for 35 days.\n",
    },
    "beta": {
        "beta-secrets.md": "# Beta Handbook\n\n## Launch code\n\nThe launch code of project Zephyr is 7741.\n",
    },
}


def tenant_builds(build_dir: Path, shelves_dir: Path) -> dict[str, Path]:
    """The two tenant shelves written inline and compiled."""
    built = {}
    for name, files in TENANTS.items():
        folder = shelves_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        for filename, text in files.items():
            (folder / filename).write_text(text, encoding="utf-8")
        built[name] = compile_shelf(folder, build_dir)
    return built
