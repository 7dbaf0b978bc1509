"""Settings: one pydantic tree loaded from TOML, and the shelf definition (shelf.toml).

Every error is reported at once, by key, with the fix (``SettingsError``).
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.tuning import AnswerTuning

__all__ = [
    "Settings",
    "CostSettings",
    "ModelPrice",
    "ShelfConfig",
    "DocumentDecl",
    "load_settings",
    "load_shelf_config",
    "settings_hash",
    "AnswerSettings",
    "AnswerTuning",
    "ApiSettings",
    "ApiToken",
    "CompileSettings",
    "EmbeddingSettings",
    "ModelSettings",
    "PdfSettings",
    "ResearchSettings",
    "SearchSettings",
    "ShelfOptions",
    "SiteSettings",
    "plain_name_problem",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PdfSettings(_Strict):
    window_pages: int = Field(default=10, ge=1, le=1000, description="PDF pages read per checkpointed window.")
    use_outline: bool = Field(default=True, description="Take PDF headings from the file's outline (bookmarks), else its tagged structure (H1-H6), when it has one.")
    ocr: bool = Field(default=True, description="Read PDF pages without a text layer (scans) by offline OCR (rapidocr-onnxruntime); false leaves them empty.")
    docling_artifacts_path: Path | None = Field(
        default=None, description="Folder of local docling model weights; when set, PDFs go through docling's standard pipeline."
    )


class CompileSettings(_Strict):
    max_file_mb: float = Field(default=200, gt=0, description="Files larger than this many MB are reported and skipped.")
    follow_symlinks_outside: bool = Field(default=False, description="Compile files that symbolic links in the shelf point to outside the shelf folder (refused by default).")
    max_unzipped_mb: float = Field(default=500, gt=0, description="A docx/xlsx/pptx whose parts add up to more than this many MB uncompressed is reported and skipped (a zip bomb).")
    max_xml_elements: int = Field(default=2_000_000, ge=1000, description="A docx/xlsx/pptx with more XML elements than this in its document parts is reported and skipped.")
    max_sheet_rows: int = Field(default=20_000, ge=1, description="A workbook with a sheet of more rows than this is reported and skipped.")
    max_text_chars: int = Field(default=5_000_000, ge=1000, description="A text file (Markdown, HTML, RST, Texinfo, plain text) of more characters than this is reported and skipped.")
    convert_in_subprocess: bool = Field(default=True, description="Convert each document in a separate worker process under the memory and time limits below (false: in the build's own process, no limits).")
    convert_memory_mb: int = Field(default=2048, ge=256, description="Address space the conversion worker may use (RLIMIT_AS), in MB; a document needing more is reported and skipped. Raise it for docling's standard PDF pipeline.")
    convert_timeout_s: float = Field(default=1800, gt=0, description="Seconds one document may take to convert; past it the worker is stopped and the document reported.")


class ModelSettings(_Strict):
    base_url: str | None = Field(default=None, description="OpenAI-compatible server URL, e.g. http://127.0.0.1:8765/v1. None: model-free.")
    api_key_env: str = Field(default="OPENAI_API_KEY", description="Environment variable holding the API key.")
    timeout_s: float = Field(default=60, gt=0, description="Seconds per model request.")
    max_retries: int = Field(default=3, ge=0, description="Retries with backoff on 429/5xx/timeouts.")
    vision: str | None = Field(default=None, description="Model that describes figures; None leaves figures undescribed.")
    extractor: str | None = Field(default=None, description="Model that extracts the ledger; None uses the rule-based extractor.")
    planner: str | None = Field(default=None, description="Model that plans answers; None plans by rules.")
    writer: str | None = Field(default=None, description="Model that writes answers; None uses the extractive writer.")
    writer_role: Literal["write", "select"] = Field(
        default="write", description="What the writer model does: 'write' answers in its own words, citing sections (a strong "
        "model); 'select' chooses and orders, by id, the documents' own sentences for each part of the answer, shown verbatim "
        "(a small model that cannot cite: chosen by measuring, see make eval-local-llm).")
    select_batch: int = Field(
        default=6, ge=1, le=50, description="writer_role 'select': units offered in one list (one call); 6 suits a 1.5B model, "
        "which offered 25 chose 2 and offered 18 counted through them (make eval-local-llm); a larger model can take more.")
    select_lists: int = Field(
        default=2, ge=1, le=20, description="writer_role 'select': lists offered per part of the answer, so a part's best "
        "select_batch x select_lists units (model-free ranking) are offered; the rest are shown as the model-free answer has them.")
    checker: str | None = Field(default=None, description="Model that checks claims.")
    judge: str | None = Field(default=None, description="Model that judges evaluation answers.")


class ModelPrice(_Strict):
    input_usd_per_million: float = Field(ge=0, description="US dollars per million prompt (input) tokens.")
    output_usd_per_million: float = Field(ge=0, description="US dollars per million completion (output) tokens.")


class CostSettings(_Strict):
    prices: dict[str, ModelPrice] = Field(
        default_factory=dict, description="Price per model id, e.g. [cost.prices.\"gpt-4o\"] input_usd_per_million = 2.5, output_usd_per_million = 10."
    )
    confirm_above_usd: float = Field(
        default=1.0, ge=0,
        description="A compile with models whose estimate is over this many dollars (or has a model without a price) runs only with --yes.",
    )


class EmbeddingSettings(_Strict):
    provider: Literal["local", "openai"] = Field(default="local", description="'local': all-MiniLM-L6-v2 shipped in a package; 'openai': an embeddings endpoint.")
    model: str = Field(default="all-MiniLM-L6-v2", description="Embedding model name (for 'openai', the endpoint's model id).")
    base_url: str | None = Field(default=None, description="Embeddings endpoint URL for provider 'openai'.")
    threads: int = Field(
        default=1, ge=0, le=256,
        description="Torch threads the local model encodes with (0: torch's default). One thread: a query in ~11 ms; two on a busy 2-core machine: 20-450 ms.",
    )
    backend: Literal["torch", "onnx", "onnx-int8"] = Field(
        default="onnx-int8",
        description="How provider 'local' runs all-MiniLM-L6-v2: 'onnx-int8' (ONNX Runtime, blockwise int8 weights: hybrid nDCG@10 within "
        "0.004 of torch's on dev, dev-formats and northwind, passages/s and query times in eval/results/embed.json), 'onnx' (ONNX Runtime, "
        "float32: torch's vectors) or 'torch'; each has its own model id, so switching re-embeds a shelf on its next build (until then it is "
        "searched with the backend it was built with).",
    )
    cache_dir: Path | None = Field(
        default=None, description="Where the ONNX backends keep the model exported from the packaged weights on first use; None: <build_dir>/.embedders."
    )


class ApiToken(_Strict):
    name: str = Field(description="Who holds the token (recorded in traces and rate limits), e.g. 'support-widget'.")
    token: str | None = Field(default=None, description="The bearer token itself; prefer token_env so it stays out of the file.")
    token_env: str | None = Field(default=None, description="Environment variable holding the bearer token.")
    shelves: list[str] = Field(default_factory=list, description="Shelves (tenants) this token may read; no other shelf is readable with it.")


class ApiSettings(_Strict):
    tokens: list[ApiToken] = Field(default_factory=list, description="API tokens, each granting a set of shelves.")
    allow_anonymous: bool = Field(default=False, description="Let requests without a token read every served shelf (local use only).")
    rate_limit_per_minute: int = Field(default=120, ge=1, description="Requests one token may make per minute; more get HTTP 429.")
    max_request_bytes: int = Field(default=65_536, ge=1024, description="Largest request body accepted; larger gets HTTP 413.")
    max_question_chars: int = Field(default=4000, ge=10, description="Longest question accepted; longer gets HTTP 400.")
    max_history_turns: int = Field(default=10, ge=0, description="Conversation turns a request may carry.")
    cors_origins: list[str] = Field(default_factory=list, description="Origins allowed to call the API from a browser (the ask widget's sites).")
    answer_timeout_s: float = Field(default=120, gt=0, description="Seconds an answer may take; past it the request gets HTTP 504.")
    serve_sites: bool = Field(default=True, description="'shelfwise serve' also serves build/<shelf>/site under /sites/<shelf>/, to tokens granting the shelf (header or the /sites/login cookie).")
    public_sites: list[str] = Field(default_factory=list, description="Shelves whose served site /sites/<shelf>/ anyone may read without a token (the API stays under api.tokens).")
    failed_auth_per_minute: int = Field(default=20, ge=1, description="Failed token checks one client address may make per minute; past it every request from it gets HTTP 429 until the minute is over.")
    max_json_depth: int = Field(default=32, ge=2, le=1000, description="Deepest nesting of arrays and objects a JSON request body may have; deeper gets HTTP 400 before it is parsed.")
    trace_retention_days: float | None = Field(default=30, gt=0, description="Answer traces older than this many days are deleted (checked as new traces are stored); None keeps every trace.")
    trace_db: Path = Field(default=Path("build/traces.sqlite"), description="SQLite file where every answer's trace is stored.")
    trusted_proxies: list[str] = Field(
        default_factory=list,
        description="Addresses or networks (127.0.0.1, 10.0.0.0/8) of reverse proxies whose X-Forwarded-For names the client; "
                    "the limits count the socket's address otherwise. Empty (default): the header is never trusted.",
    )
    inert_markup: list[Literal["ask", "v1"]] = Field(
        default_factory=lambda: ["v1"],
        description="Routes whose answer Markdown shows the documents' markup as text (raw HTML, links, images, attribute lists), "
                    "for clients that render it: 'ask' for /api/ask, 'v1' for /v1/chat/completions.",
    )

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError as exc:
                raise ValueError(f"{entry!r} is not an IP address or network such as 127.0.0.1 or 10.0.0.0/8") from exc
        return value


class AnswerSettings(_Strict):
    reading_budget_chars: int = Field(default=400_000, ge=1000, description="Characters read per answer: the whole scope when it fits, else a selection.")
    hop_share: float = Field(default=0.15, ge=0, le=0.5, description="Share of the reading budget kept for one hop along resolved links.")
    recall_depth: int = Field(default=300, ge=1, le=2000, description="Sections each obligation's search returns as candidates.")
    section_read_chars: int = Field(
        default=1500, ge=200,
        description="When the scope does not fit the budget, a relevant section longer than this and than a quarter of the budget is read as its opening and its most relevant passages with their neighbours (within the larger of the two; in finer pieces, paragraphs to sentences, where a passage does not fit).",
    )
    max_units_per_obligation: int = Field(default=6, ge=1, le=100, description="Sentences, items or rows the extractive writer gives one obligation (a procedure's steps are all kept).")
    max_answer_chars: int = Field(default=4000, ge=500, le=100_000, description="Characters one answer's Markdown takes at most, all of it counted (the quotes with their citation "
                                  "marks and document labels, the lines on what is not covered, the mode line); the least relevant units go first, numbered "
                                  "lists last, and a procedure part's best procedure stays whole with the list continuing its numbering.")
    rank_weights: Path | None = Field(
        default=None,
        description="Weights file of the extractive writer's ranking model (written by 'make fit'); unset: the fitted weights that ship with shelfwise.",
    )
    tuning: AnswerTuning = Field(
        default_factory=AnswerTuning,
        description="Thresholds, budgets and caps of the answering stages; the defaults are the measured ones (eval/results/tuning-history.md).",
    )


class ResearchSettings(_Strict):
    max_steps: int = Field(default=12, ge=1, le=100, description="Tool calls the research agent may make per answer; code stops the loop past it.")
    max_chars: int = Field(
        default=60_000, ge=1000,
        description="Characters of section text research mode may read: the agent's opened sections, or what the model-free expansion adds to the fixed loop's reading.",
    )
    max_seconds: float = Field(default=60, gt=0, description="Seconds the research agent may run; code stops it past them and writes from what it opened.")
    hops: int = Field(default=2, ge=1, le=2, description="Hops the model-free expansion makes along resolved links and shared rare names.")


class SearchSettings(_Strict):
    identifier_max_sections: int = Field(
        default=8, ge=1, le=1000,
        description="An exact identifier in a query (CAL-07, Article 32) puts the sections holding it first when at most this many hold it.",
    )
    rerank_model: str | None = Field(
        default=None, description="Model (on models.base_url) that reranks the fused top sections listwise; None keeps the fused order."
    )
    rerank_depth: int = Field(default=50, ge=2, le=200, description="Fused sections the reranker is shown, each with its best passage.")


class SiteSettings(_Strict):
    ask_endpoint: str | None = Field(
        default=None, description="URL of the answering API the site's ask widget calls (POST {url}/api/ask); None: the widget only searches the site."
    )
    ask_token_env: str | None = Field(
        default=None, description="Environment variable whose value the widget sends as a Bearer token; it is written into every page, so use a read-only token."
    )
    url: str | None = Field(
        default=None, description="Where the built sites are published, with {shelf} for the shelf's name (e.g. https://docs.example.org/{shelf}/): "
        "llms.txt, 'shelfwise mcp' and /v1/chat/completions link sections there. None: llms.txt links relative to the site, the server its own "
        "/sites/<shelf>/, 'shelfwise mcp' the built site's file:// URL."
    )
    incremental: bool = Field(
        default=True, description="Rebuild only the changed pages when the last site exists and nothing global (mkdocs.yml, nav, theme, "
        "widget, versions) changed; False (or 'shelfwise build --full-site') always builds the whole site with a clean mkdocs build."
    )


class Settings(_Strict):
    build_dir: Path = Field(default=Path("build"), description="Where compiled shelves go: <build_dir>/<shelf>/.")
    pdf: PdfSettings = Field(default_factory=PdfSettings, description="PDF reading.")
    compile: CompileSettings = Field(default_factory=CompileSettings, description="Compile limits.")
    models: ModelSettings = Field(default_factory=ModelSettings, description="Model server and a model per role.")
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings, description="Dense search embeddings.")
    site: SiteSettings = Field(default_factory=SiteSettings, description="The static knowledge site and its ask widget.")
    api: ApiSettings = Field(default_factory=ApiSettings, description="The answering endpoint: tokens, limits, CORS, traces.")
    answer: AnswerSettings = Field(default_factory=AnswerSettings, description="Answering: reading budget, recall depth, extractive writer, and the thresholds of its stages ([answer.tuning]).")
    search: SearchSettings = Field(default_factory=SearchSettings, description="Search: exact identifiers, the optional reranker.")
    research: ResearchSettings = Field(default_factory=ResearchSettings, description="Research mode: the agent's budgets of steps, characters and seconds; the expansion's hops.")
    cost: CostSettings = Field(default_factory=CostSettings, description="Model prices and the spend a compile may make without --yes.")


def plain_name_problem(name: str) -> str:
    """Why ``name`` cannot name a folder inside the build folder ('' when it can): a plain name has no separator,
    is not '.' or '..', and holds no NUL or other control character (a shelf's name is a folder under --build-dir)."""
    if not name.strip():
        return "is empty; give a plain name such as 'northwind'"
    if name.startswith(("/", "\\")):
        return f"{name!r} is an absolute path; give a plain name such as 'northwind' (no '/', '\\', '..' or absolute path)"
    if "/" in name or "\\" in name:
        return f"{name!r} holds a path separator; give a plain name such as 'northwind' (no '/', '\\', '..' or absolute path)"
    if name in (".", ".."):
        return f"{name!r} is not a name; give a plain name such as 'northwind'"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return f"{name!r} holds a control character; give a plain name such as 'northwind'"
    return ""


def _relative_path_problem(path: str) -> str:
    """Why ``path`` (a shelf-relative path or glob) could point outside the shelf ('' when it cannot)."""
    if path.startswith(("/", "\\")) or Path(path).is_absolute():
        return f"{path!r} is an absolute path; give a path relative to the shelf folder"
    if ".." in path.replace("\\", "/").split("/"):
        return f"{path!r} climbs out of the shelf with '..'; give a path inside the shelf folder"
    if "\x00" in path:
        return f"{path!r} holds a NUL byte"
    return ""


def _check_relative(value: str) -> str:
    problem = _relative_path_problem(value)
    if problem:
        raise ValueError(problem)
    return value


class DocumentDecl(_Strict):
    path: str = Field(description="File path relative to the shelf folder.")
    id: str | None = Field(default=None, description="Declared document id (letters, digits, '-'); default: from the path.")
    title: str | None = Field(default=None, description="Title shown instead of the one read from the file.")

    _relative = field_validator("path")(_check_relative)


class ShelfOptions(_Strict):
    pdf_window_pages: int | None = Field(default=None, ge=1, description="Overrides pdf.window_pages for this shelf.")
    use_outline: bool | None = Field(default=None, description="Overrides pdf.use_outline for this shelf.")


class ShelfConfig(_Strict):
    name: str | None = Field(default=None, description="Shelf name used in build/<name>/ and URLs; default: the folder name.")
    title: str | None = Field(default=None, description="Shelf title; default: the folder name.")
    description: str = Field(default="", description="One paragraph on what the shelf holds.")
    include: list[str] = Field(default_factory=lambda: ["**/*"], description="Glob patterns (relative to the shelf) of files to compile.")
    exclude: list[str] = Field(default_factory=list, description="Glob patterns of files to leave out.")
    documents: list[DocumentDecl] = Field(default_factory=list, description="Per-document declarations (id, title).")
    options: ShelfOptions = Field(default_factory=ShelfOptions, description="Per-shelf options.")
    examples: list[str] = Field(default_factory=list, max_length=8, description="Example questions the site's ask widget "
                                                                                "offers before the first question (at most 8).")

    @field_validator("name")
    @classmethod
    def _plain_name(cls, value: str | None) -> str | None:
        problem = "" if value is None else plain_name_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("include", "exclude")
    @classmethod
    def _inside(cls, value: list[str]) -> list[str]:
        return [_check_relative(pattern) for pattern in value]


def _problems(exc: ValidationError) -> list[str]:
    problems = []
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"]) or "(top level)"
        if error["type"] == "extra_forbidden":
            problems.append(f"{key}: unknown key; remove it or check its spelling")
        elif error["type"] == "missing":
            problems.append(f"{key}: required; add it")
        elif error["type"] == "value_error":
            problems.append(f"{key}: {error['msg'].removeprefix('Value error, ')}")
        else:
            given = error.get("input")
            problems.append(f"{key}: {error['msg']} (got {given!r})")
    return problems


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(str(path), [f"not valid TOML: {exc}"]) from exc
    except UnicodeDecodeError as exc:
        raise SettingsError(str(path), ["not UTF-8 text; save it as UTF-8"]) from exc


def load_settings(path: Path | None = None, overrides: dict[str, Any] | None = None) -> Settings:
    """Settings from ``path`` (or $SHELFWISE_CONFIG, or ./shelfwise.toml when present), then CLI overrides.

    ``overrides`` holds dotted keys whose value was actually given on the command line.
    """
    if path is None and os.environ.get("SHELFWISE_CONFIG"):
        path = Path(os.environ["SHELFWISE_CONFIG"])
    if path is None and Path("shelfwise.toml").exists():
        path = Path("shelfwise.toml")
    data: dict[str, Any] = _read_toml(path) if path else {}
    for dotted, value in (overrides or {}).items():
        if value is None:
            continue
        node = data
        *parents, leaf = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise SettingsError(str(path or "settings"), _problems(exc)) from exc


def load_shelf_config(shelf_dir: Path) -> ShelfConfig:
    """The shelf's shelf.toml, validated; defaults when the folder has none."""
    path = shelf_dir / "shelf.toml"
    if not path.exists():
        return ShelfConfig()
    try:
        return ShelfConfig.model_validate(_read_toml(path))
    except ValidationError as exc:
        raise SettingsError(str(path), _problems(exc)) from exc


def settings_hash(*parts: Any) -> str:
    """A short hash of the settings that shape an artifact (pydantic models or plain values)."""
    plain = [p.model_dump(mode="json") if isinstance(p, BaseModel) else p for p in parts]
    return hashlib.sha256(json.dumps(plain, sort_keys=True, default=str).encode()).hexdigest()[:12]
