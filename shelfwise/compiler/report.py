"""The compile report: what happened to every document, and totals."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

__all__ = ["DocReport", "BuildReport"]

Status = Literal["converted", "unchanged", "removed", "failed", "skipped"]


class DocReport(BaseModel):
    path: str = Field(description="Shelf-relative path.")
    doc_id: str
    status: Status
    reader: str = ""
    pages: int = 0
    sections: int = 0
    tables: int = 0
    figures: int = 0
    seconds: float = 0.0
    renamed: int = Field(default=0, description="Sections whose id changed with a renamed heading this time (their old ids answer at the new ones).")
    reason: str = Field(default="", description="Why it failed or was skipped; warnings for converted ones.")
    traceback: str = Field(default="", description="The traceback of an unexpected exception in a reader (a bug to report); "
                                                   "kept in report.json, not printed.")


class BuildReport(BaseModel):
    shelf: str
    store: str
    documents: list[DocReport] = Field(default_factory=list)
    stages: dict[str, dict] = Field(default_factory=dict, description="Later stages' summaries (indexes, ledger, site).")
    migrated: list[str] = Field(default_factory=list, description="Schema migrations applied to the last build's store "
                                                                  "(written by an older shelfwise) before this build.")
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for d in self.documents if d.status == status)

    @property
    def failed(self) -> list[DocReport]:
        return [d for d in self.documents if d.status == "failed"]

    def render(self) -> str:
        lines = [f"Compile report: shelf {self.shelf!r} → {self.store}"]
        if self.migrated:
            lines.append(f"  the last build's store came from an older shelfwise: migrated (added {', '.join(self.migrated)})")
        header = f"  {'status':<10} {'pages':>5} {'sect':>5} {'tabl':>4} {'figs':>4} {'sec':>7}  document"
        lines.append(header)
        for d in self.documents:
            lines.append(
                f"  {d.status:<10} {d.pages:>5} {d.sections:>5} {d.tables:>4} {d.figures:>4} {d.seconds:>7.2f}  {d.path}"
                + (f"  — {d.reason}" if d.reason else "")
                + ("  (traceback in report.json)" if d.traceback else "")
            )
        totals = ", ".join(
            f"{self.count(s)} {s}" for s in ("converted", "unchanged", "removed", "failed", "skipped") if self.count(s)
        )
        renamed = sum(d.renamed for d in self.documents)
        lines.append(f"  {len(self.documents)} files: {totals or 'none'}; {self.seconds:.1f} s in all"
                     + (f"; {renamed} renamed section(s) keep answering at their old ids" if renamed else ""))
        for name, summary in self.stages.items():
            lines.append(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in summary.items()))
        return "\n".join(lines)

    def to_json(self) -> str:
        return json.dumps(self.model_dump(), indent=2, ensure_ascii=False)
