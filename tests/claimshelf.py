"""Helpers for the claim-checking tests: a small in-memory shelf and recorded model replies played through the real
openai client (httpx.MockTransport), in the order recorded."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from shelfwise.api.shelves import OpenShelf
from shelfwise.compiler.models import ChatModel, make_client
from shelfwise.compiler.store.records import Block, Section
from shelfwise.compiler.settings import ModelSettings

RECORDINGS = Path(__file__).resolve().parent / "recordings"
S_RULES = "s0000000000a"
S_TABLE = "s0000000000b"
S_CASE = "s0000000000c"

RULES = ("A complaint must be acknowledged within 5 working days. If the complaint is a Reportable Event, notify "
         "Regulatory Affairs the same working day. Complaints are not closed before the investigation ends. "
         "The Complaint Handling Unit may extend the deadline by 10 days, e.g. when a sample is still in transit.")
TABLE = "Event | Deadline\nReportable Event | 1 working day\nComplaint | 5 working days"
CASE = ("Complaint C-2025-0481 was received on 2025-03-03. The MDR report was submitted on 2025-04-02. "
        "An MDR report is due within 30 days of receipt.")


def make_shelf(name: str = "qa") -> OpenShelf:
    """One document, three sections (rules, a table, a case record), held in memory like an opened shelf."""
    def section(sid: str, seq: int, heading: str, blocks: list[Block]) -> Section:
        return Section(id=sid, doc_id="sop-014", parent_id=None, seq=seq, level=1, heading=heading,
                       heading_path=[heading], blocks=blocks, page_start=seq, page_end=seq)
    rows = [line.split(" | ") for line in TABLE.split("\n")]
    sections = {
        S_RULES: section(S_RULES, 1, "6 Procedure", [Block(kind="paragraph", text=RULES)]),
        S_TABLE: section(S_TABLE, 2, "7 Deadlines", [Block(kind="table", text=TABLE, rows=rows, header_rows=1)]),
        S_CASE: section(S_CASE, 3, "8 Case record", [Block(kind="paragraph", text=CASE)]),
    }
    documents = {"sop-014": {"doc_id": "sop-014", "title": "SOP-014 Complaint Handling", "path": "sop-014.docx"}}
    return OpenShelf(name, Path("."), None, None, documents, sections, {"sop-014": list(sections)})


class Replay:
    """Serves a recording's replies in order; records every request body. A reply may be
    {"status": 200, "body": {...}}, {"status": 429/500, "headers": {...}, "body": {...}} or {"timeout": true}."""

    def __init__(self, name: str):
        self.recording = json.loads((RECORDINGS / f"{name}.json").read_text())
        self.replies = list(self.recording["replies"])
        self.requests: list[dict] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content))
        if not self.replies:
            raise AssertionError(f"recording {self.recording['name']!r} has no reply left for request {len(self.requests)}")
        reply = self.replies.pop(0)
        if reply.get("timeout"):
            raise httpx.ReadTimeout("recorded timeout", request=request)
        return httpx.Response(reply.get("status", 200), headers=reply.get("headers", {}), json=reply["body"])

    def chat(self, model: str = "checker-test", max_retries: int = 2) -> ChatModel:
        settings = ModelSettings(base_url="http://127.0.0.1:9/v1", max_retries=max_retries, timeout_s=5)
        return ChatModel(make_client(settings, http_client=httpx.Client(transport=httpx.MockTransport(self))), model)

    def messages(self, index: int) -> str:
        return "\n".join(m["content"] for m in self.requests[index]["messages"])
