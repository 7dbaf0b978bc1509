"""Request and response bodies of the HTTP API (also the OpenAPI schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "Turn",
    "AskRequest",
    "AnswerSentence",
    "Source",
    "AskResponse",
    "SearchHitOut",
    "SearchResponse",
    "SectionResponse",
    "HealthResponse",
    "FeedbackRequest",
    "FeedbackResponse",
]


class Turn(BaseModel):
    """One earlier turn of the conversation, as the client sends it back."""

    question: str = Field(max_length=20_000, description="The earlier question.")
    answer: str = Field(default="", max_length=200_000, description="The earlier answer's Markdown (not re-read as evidence).")
    citations: list[str] = Field(default_factory=list, max_length=500, description="Section ids the earlier answer cited.")


class AskRequest(BaseModel):
    """POST /api/ask."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, description="The question, in plain words.")
    shelf: str | None = Field(default=None, description="The shelf to answer from.")
    shelves: list[str] | None = Field(default=None, max_length=32, description="Several shelves to answer from (instead of shelf).")
    documents: list[str] | None = Field(default=None, max_length=1000, description="Document ids the answer may use (the scope).")
    mode: Literal["auto", "whole", "selected", "research"] = Field(
        default="auto",
        description="auto: the given documents or else the whole shelf; whole: the whole shelf; selected: only 'documents'; "
                    "research: as auto, then a research agent (with a tool-calling model) or a model-free expansion along links "
                    "and shared rare names chooses what is read.",
    )
    history: list[Turn] = Field(default_factory=list, description="Earlier turns of the conversation, oldest first.")

    @model_validator(mode="after")
    def _one_shelf_field(self) -> AskRequest:
        if not self.shelf and not self.shelves:
            raise ValueError("give 'shelf' (a shelf name) or 'shelves' (a list of shelf names)")
        if self.shelf and self.shelves:
            raise ValueError("give either 'shelf' or 'shelves', not both")
        if self.mode == "selected" and not self.documents:
            raise ValueError("mode 'selected' needs 'documents': a list of document ids")
        return self

    def shelf_names(self) -> list[str]:
        return sorted(set(self.shelves or [self.shelf or ""]))


class AnswerSentence(BaseModel):
    """One displayed unit of the answer."""

    text: str = Field(description="The unit's text, as shown.")
    citations: list[str] = Field(description="Section ids it rests on (also anchors in the site).")
    shelf: str = Field(default="", description="The shelf its cited sections are on: section ids are unique per shelf only, "
                                               "so an answer over several shelves names each sentence's.")
    kind: str = Field(default="sentence", description="sentence, list_item, step, table_header, table_row, figure or code (a code block "
                                                                     "the sentence before it introduces).")
    obligation: int = Field(default=0, description="Which obligation of the plan it serves.")
    status: str = Field(default="verbatim", description="How it was checked: verbatim (quoted), supports (checker).")
    source: str = Field(default="", description="Short name of the cited document and its revision, e.g. 'QM-001 Rev D'.")
    superseded_by: str = Field(default="", description="Short name of the document that supersedes the cited one; empty when current.")
    cells: list[str] = Field(default_factory=list, description="A table row's or header's cells, in order (its text joins them "
                                                               "with ' | '); empty for other kinds.")


class Source(BaseModel):
    """A cited section."""

    section_id: str
    shelf: str
    doc_id: str
    title: str = Field(description="Document title.")
    path: str = Field(description="Shelf-relative document path.")
    heading_path: list[str]
    page_start: int | None = None
    page_end: int | None = None
    anchor: str = Field(default="", description="The section's anchor on its document's page (its id): documents/<doc_id>.html#<anchor>.")
    url: str | None = Field(default=None, description="Where the section is read: its anchor in the shelf's site, or the API's "
                                                      "/api/sections/<id>; None when the shelf has no site and no server answered.")


class AskResponse(BaseModel):
    """The answer."""

    answer_markdown: str
    sentences: list[AnswerSentence]
    not_covered: list[str] = Field(description="One plain line per obligation the documents do not cover.")
    label: Literal["complete", "partial", "conditional", "not_in_documents"]
    trace_id: str
    mode: str = Field(description="'model-free' (extractive, quoted) or 'model'.")
    models: dict[str, str] = Field(description="Model id, 'rules' or 'extractive' per role.")
    shelves: list[str]
    resolved_question: str = Field(description="The question with a follow-up's referents filled in.")
    obligations: list[dict] = Field(description="Each obligation with whether it is covered.")
    sources: list[Source]
    not_shown: int = Field(description="Units written but not shown because they could not be checked.")
    warnings: list[str] = Field(default_factory=list)
    seconds: float


class SearchHitOut(BaseModel):
    section_id: str
    doc_id: str
    title: str
    path: str
    heading_path: list[str]
    score: float
    ranks: dict[str, int]
    snippet: str = Field(default="", description="The stretch of the section's text (at most 240 characters) holding most of the query's words.")


class SearchResponse(BaseModel):
    shelf: str
    query: str
    hits: list[SearchHitOut]
    warnings: list[str] = Field(default_factory=list)


class SectionResponse(BaseModel):
    shelf: str
    section_id: str
    doc_id: str
    title: str
    path: str
    heading: str
    heading_path: list[str]
    page_start: int | None
    page_end: int | None
    text: str
    blocks: list[dict]
    moved_from: str | None = Field(default=None, description="The old id asked for, when the section was renamed since (HTTP 301).")
    note: str | None = Field(default=None, description="Where a renamed section went, when moved_from is set.")


class HealthResponse(BaseModel):
    status: str
    version: str
    shelves: list[str] = Field(description="Served shelves the caller may read through the API: those its token grants; "
                                           "without a token, every served shelf when api.allow_anonymous is on, else none.")
    sites: list[str] = Field(default_factory=list, description="Served sites (/sites/<shelf>/) the caller may read: its "
                                                              "readable shelves' sites and those in api.public_sites.")


class FeedbackRequest(BaseModel):
    """POST /api/answers/{trace_id}/feedback: what a reader says of an answer."""

    model_config = ConfigDict(extra="forbid")

    rating: Literal["helpful", "not_helpful"] = Field(description="Whether the answer helped.")
    comment: str = Field(default="", max_length=2000, description="Anything the reader adds, in plain words.")


class FeedbackResponse(BaseModel):
    """The feedback as stored with the answer's trace (``GET /api/answers/{trace_id}`` lists it under ``feedback``)."""

    trace_id: str
    created: str = Field(description="UTC time, ISO 8601.")
    token: str = Field(description="Name of the token that gave it.")
    rating: Literal["helpful", "not_helpful"]
    comment: str
