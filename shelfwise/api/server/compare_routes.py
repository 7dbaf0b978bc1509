"""POST /api/compare: what changed between two documents of a shelf, or every pair of versions in it (model-free).

The route authorises like every shelf route (the ``authenticate`` guard, then
``Principal.require`` for the shelf) and calls one function of
shelfwise/compiler/compare. Unknown document ids answer 404, a document given twice or a
request that names neither a pair nor a batch answers 400.
"""

from __future__ import annotations

from litestar import Request, post
from litestar.params import JSONBody
from pydantic import BaseModel, ConfigDict, Field

from shelfwise.api.errors import BadRequest, NotFound
from shelfwise.api.server.hygiene import check_json_depth, error_responses
from shelfwise.api.server.routes import TOKEN_REQUIRED, _check_served, authenticate
from shelfwise.api.answer.compare.compare_resolve import shelf_views
from shelfwise.compiler.compare import Comparison, CompareError, UnknownDocument, compare_batch, compare_pair

__all__ = ["CompareRequest", "compare", "COMPARE_ROUTES"]


class CompareRequest(BaseModel):
    """POST /api/compare: a shelf and two document ids (older first), or ``batch: true`` for every pair."""

    model_config = ConfigDict(extra="forbid")

    shelf: str = Field(min_length=1, description="The shelf holding the documents.")
    doc_a: str | None = Field(default=None, description="The older document's id.")
    doc_b: str | None = Field(default=None, description="The newer document's id.")
    batch: bool = Field(default=False, description="Compare every pair of versions matched by identity instead of one pair.")


@post("/api/compare", status_code=200, guards=[authenticate], sync_to_thread=True, before_request=check_json_depth, security=TOKEN_REQUIRED,
      summary="What changed between two documents, or every pair of versions", responses=error_responses(400, 401, 403, 404, 413, 429))
def compare(request: Request, data: JSONBody[CompareRequest]) -> Comparison:
    request.state.principal.require([data.shelf])
    _check_served(request, [data.shelf])
    given = [d for d in (data.doc_a, data.doc_b) if d]
    if data.batch and given:
        raise BadRequest("give either 'doc_a' and 'doc_b' or 'batch': true, not both")
    if not data.batch and len(given) != 2:
        raise BadRequest("give 'doc_a' and 'doc_b' (two document ids, the older first), or 'batch': true for every pair of versions")
    with request.app.state.shelves.use([data.shelf]) as served:
        shelf = served[data.shelf]
        views = shelf_views(shelf)
        if data.batch:
            links = [(link.kind, link.src_doc, link.dst_doc) for link in shelf.links if link.kind in ("supersedes", "same_series")]
            return compare_batch(views, links)
        try:
            return compare_pair(views, data.doc_a, data.doc_b)
        except UnknownDocument as exc:
            raise NotFound(f"{exc} (shelf '{data.shelf}')") from exc
        except CompareError as exc:
            raise BadRequest(str(exc)) from exc


COMPARE_ROUTES = [compare]
