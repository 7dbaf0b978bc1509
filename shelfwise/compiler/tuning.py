"""The answer's tuning: the thresholds, budgets and caps of the answering stages (``[answer.tuning]`` in shelfwise.toml).

Each field is read by one stage of ``shelfwise.api.answer`` from the settings that reach it; the defaults are the values
the answers were measured with (eval/results/tuning-history.md records how each was set). The ranking's fitted weights
(``rank_weights.json``, ``answer.rank_weights``) and the features they were fitted on are not here: they change with
``make fit``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["AnswerTuning", "DEFAULT_TUNING"]


class AnswerTuning(BaseModel):
    """Thresholds, budgets and caps of answering; the defaults keep answers as measured."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # the answer's size
    written_share: float = Field(
        default=0.85, gt=0, le=1,
        description="Share of answer.max_answer_chars the extractive writer fills with quoted text; the size limit then "
                    "trims the least relevant units.")
    compare_share: float = Field(
        default=0.6, gt=0, le=1,
        description="Share of answer.max_answer_chars a computed comparison's tables may take; the rest is for the "
                    "question's other parts.")
    compare_max_pairs: int = Field(
        default=12, ge=1, le=1000,
        description="Version pairs one answer compares; a question matching more says how to compare them all "
                    "('shelfwise compare SHELF --batch').")
    model_writer_chars: int = Field(
        default=48_000, ge=1000, le=10_000_000,
        description="Characters of sections one writer-model call receives (models.writer); more sections go in further "
                    "calls. Fit it to the model's context window (about 4 characters a token).")
    # the extractive writer: what it picks per part of the question
    chars_per_unit: int = Field(
        default=260, ge=20, le=10_000,
        description="Characters per unit of a part's budget: a part gets answer.max_units_per_obligation times this "
                    "(twice for a compare or list part).")
    write_floor: float = Field(
        default=0.45, ge=0, le=1,
        description="A unit is written only when its score is at least this share of its part's best unit's.")
    strong_share: float = Field(
        default=0.7, ge=0, le=1,
        description="A unit scoring this share of its part's best is strong evidence; one left out for the budget or "
                    "the size limit marks the part not fully answered. A part whose best unit scores this share of the "
                    "best part's best shares the size limit with it as an equal.")
    covered_share: float = Field(
        default=0.75, ge=0, le=1,
        description="A part is covered when its best shown unit holds this share of its words and asked facets (and the "
                    "shown units its key names); for a 'which ...' part, one shown unit must hold this share of the ask's words.")
    best_sections: int = Field(
        default=4, ge=0, le=100,
        description="Sections holding most of a part's evidence that are read on after their best unit (0: none).")
    best_section_window_chars: int = Field(
        default=600, ge=0, le=100_000,
        description="Characters of a best section shown after its best unit.")
    continued_sentences: int = Field(
        default=3, ge=0, le=100,
        description="Best picked sentences of a part whose paragraph continues after them are followed (0: none).")
    continuation_sentences: int = Field(
        default=2, ge=0, le=100,
        description="Following sentences of the same paragraph that continue one best picked sentence, at most.")
    per_named_document: int = Field(
        default=2, ge=0, le=100,
        description="Units a named document nothing was picked from gives a part that names several documents.")
    whole_list_items: int = Field(
        default=8, ge=0, le=1000,
        description="A list that a picked sentence introduces is kept whole up to this many items.")
    overrun: float = Field(
        default=1.3, ge=1, le=10,
        description="Factor past a part's budget that units kept beside a picked one (a condition, a list item, a "
                    "continuation, a section's next sentence) may take it.")
    # the ranking: which units may be shown, and the query
    min_shown: float = Field(
        default=0.3, ge=0, le=1,
        description="A unit may be shown only when it, read with its title and headings, holds this share of its part's "
                    "words (idf-weighted), unless it stands in a document the part names.")
    relative_shown: float = Field(
        default=0.5, ge=0, le=1,
        description="When no unit holds min_shown of a part's words, a unit may be shown when it holds this share of what "
                    "the best one holds.")
    contrast_weight: float = Field(
        default=0.3, ge=0, le=1,
        description="Weight factor of a question word that stands only in a contrast phrase ('instead of X', 'rather than X').")
    header_share: float = Field(
        default=0.8, ge=0, le=1,
        description="Share of its matching header row's score a table row of a named document takes when it holds no "
                    "word of the part itself.")
    feedback_units: int = Field(
        default=7, ge=0, le=1000,
        description="Best units of a part whose shared words expand its query for a second ranking pass (0: no feedback).")
    feedback_terms: int = Field(
        default=10, ge=0, le=1000,
        description="Words the feedback adds to a part's query.")
    feedback_weight: float = Field(
        default=0.3, ge=0, le=10,
        description="Share of the query's own weight the feedback words weigh together.")
    semantic_top: int = Field(
        default=20, ge=0, le=1000,
        description="Best units per part reranked by embedding similarity to the ask: units the writer may show, each text "
                    "counted once (0: no semantic rerank).")
    semantic_weight: float = Field(
        default=1.5, ge=0, le=100,
        description="How much the similarity to the ask weighs against the word score in the semantic rerank (both "
                    "scaled to the part's best).")
    # what is shown: repeats, changed rules, premises
    same_statement_share: float = Field(
        default=0.9, ge=0, le=1,
        description="Share of the shorter sentence's words the longer one must hold for two sentences (with the same "
                    "modal and negating words) to state the same thing; the second is not shown.")
    same_statement_words: int = Field(
        default=6, ge=1, le=1000,
        description="Sentences of fewer words are compared whole only: never dropped as a near repeat.")
    same_rule_share: float = Field(
        default=0.6, ge=0, le=1,
        description="Two sentences state the same rule when this share of their words (figures left out) is shared: a "
                    "superseded revision's sentence is shown beside the current one when its figures differ.")
    premise_share: float = Field(
        default=0.5, ge=0, le=1,
        description="A read sentence can contradict a question's premise only when it holds this share of the premise's "
                    "content words (for a limit, one for each, or only against all: with its document's identity and its "
                    "section's headings).")


DEFAULT_TUNING = AnswerTuning()
"""The defaults (a frozen model): what a stage uses when it is called without the settings' tuning."""
