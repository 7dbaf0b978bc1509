"""The answering side of shelfwise: a Litestar app over compiled shelves, and the answering pipeline.

``create_app`` builds the HTTP app; ``answer_question`` runs plan → recall → read →
write → check → gate → complete in-process (``shelfwise ask``).
"""

from shelfwise.api.answer import Pipeline, answer_question, build_pipeline, chat_models
from shelfwise.api.server.app import create_app
from shelfwise.api.shelves import OpenShelf, open_shelf, open_shelves

__all__ = ["Pipeline", "OpenShelf", "answer_question", "build_pipeline", "chat_models", "create_app", "open_shelf", "open_shelves"]
