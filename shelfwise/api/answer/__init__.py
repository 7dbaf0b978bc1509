"""The answering pipeline, one place per stage of the design (shared/DESIGN.md), in the order the driver runs them.

``driver`` alone knows the order: plan → recall → read → write → check → show (complete, render), with compare and
research as answering modes beside them. ``records`` holds the answer's records (``Unit``, ``Draft``, the ``Writer``
seam); ``claims`` splits a written answer into them. The driver's public names are re-exported here.
"""

from shelfwise.api.answer.driver import Pipeline, answer_question, build_pipeline, chat_models, document_scope

__all__ = ["Pipeline", "answer_question", "build_pipeline", "chat_models", "document_scope"]
