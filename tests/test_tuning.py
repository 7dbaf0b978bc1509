"""[answer.tuning]: the answer's thresholds are settings read from the settings file, checked by key, and the answering
pipeline uses them (a compiled shelf answers differently when one is changed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar.testing import TestClient

from answer_shelves import HashEmbedder, compile_shelf
from shelfwise.api.answer import answer_question, build_pipeline
from shelfwise.api.schemas import AskRequest
from shelfwise.api.server.app import create_app
from shelfwise.api.shelves import close_shelves, open_shelves
from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.settings import Settings, load_settings
from shelfwise.compiler.tuning import DEFAULT_TUNING, AnswerTuning

_BACKUPS = [
    "Backups of the order database are taken every night at two o'clock.",
    "Each nightly backup of the order database is copied to the vault in the second data centre.",
    "Backups of the order database are kept for thirty-five days before they are deleted.",
    "A backup of the order database is verified by a test restore once a week.",
    "The operator on duty checks the backup report of the order database every morning.",
    "A failed backup of the order database is retried within one hour.",
    "Two failed backups of the order database in a row are escalated to the database team.",
    "Backups of the order database are encrypted with the key held by the security office.",
]


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    root = tmp_path_factory.mktemp("tuning")
    folder = root / "shelves" / "ops"
    folder.mkdir(parents=True)
    (folder / "backup-policy.md").write_text("# Backup Policy\n\n## Order database backups\n\n" + " ".join(_BACKUPS) + "\n",
                                             encoding="utf-8")
    shelves = open_shelves({"ops": compile_shelf(folder, root / "build")}, HashEmbedder())
    yield shelves
    close_shelves(shelves)


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "shelfwise.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _answer(shelves, settings: Settings):
    request = AskRequest(question="How are backups of the order database handled?", shelf="ops")
    return answer_question(build_pipeline(settings, None), request, shelves, token="test", traces=None)


def test_the_settings_file_sets_a_tuning_value_and_leaves_the_others_at_their_defaults(tmp_path):
    settings = load_settings(_config(tmp_path, "[answer]\nmax_answer_chars = 3000\n[answer.tuning]\nwritten_share = 0.2\n"))
    assert settings.answer.tuning.written_share == 0.2
    assert settings.answer.tuning.model_copy(update={"written_share": DEFAULT_TUNING.written_share}) == AnswerTuning()
    assert Settings().answer.tuning == DEFAULT_TUNING


def test_a_smaller_written_share_quotes_fewer_sentences_on_a_compiled_shelf(shelf, tmp_path):
    default = _answer(shelf, load_settings(_config(tmp_path, "[answer]\nmax_answer_chars = 4000\n")))
    tuned = _answer(shelf, load_settings(_config(tmp_path, "[answer]\nmax_answer_chars = 4000\n[answer.tuning]\nwritten_share = 0.05\n")))
    quoted = [s.text for s in default.sentences]
    assert len(quoted) == len(_BACKUPS)  # the whole section fits 85% of 4,000 characters
    kept = [s.text for s in tuned.sentences]
    # 5% of 4,000 = 200 characters: the best sentence, and what may follow it past the budget (overrun 1.3)
    assert 1 <= len(kept) < len(quoted) and sum(len(t) for t in kept) <= 200 * DEFAULT_TUNING.overrun + max(map(len, kept))
    assert set(kept) <= set(quoted)


def test_an_out_of_range_tuning_value_is_reported_by_its_key(tmp_path):
    path = _config(tmp_path, "[answer.tuning]\nwrite_floor = 1.5\nsemantic_top = -1\nflor = 0.4\n")
    with pytest.raises(SettingsError) as caught:
        load_settings(path)
    assert caught.value.problems == [
        "answer.tuning.write_floor: Input should be less than or equal to 1 (got 1.5)",
        "answer.tuning.semantic_top: Input should be greater than or equal to 0 (got -1)",
        "answer.tuning.flor: unknown key; remove it or check its spelling",
    ]
    assert str(path) in str(caught.value)


def test_a_request_cannot_carry_tuning_values(shelf):
    """Tuning is the server's settings, not the request's: a request naming it is refused with 400, not a 500."""
    app = create_app(Settings.model_validate({"api": {"allow_anonymous": True}}), chat=None, embedder=HashEmbedder(), stores=shelf)
    with TestClient(app) as client:
        response = client.post("/api/ask", json={"question": "How are backups handled?", "shelf": "ops",
                                                 "answer": {"tuning": {"written_share": 0.05}}})
    assert response.status_code == 400
    assert "answer" in response.text and "Traceback" not in response.text
