"""The conversion worker's memory verdict: a document is said to have reached compile.convert_memory_mb only when the
worker's address space rose to near the limit while converting it. The worker is reused across documents and its
VmPeak is a lifetime peak, so an earlier large document (docling on a DOCX takes about 1.3 GB of address space) must not
make a later, unrelated failure read as "out of memory", lose its traceback and stop the worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from shelfwise.compiler.errors import ConversionError
from shelfwise.compiler.ingest.convert import ReadOptions
from shelfwise.compiler.ingest.convert.worker import ConvertWorker, reached_limit


def test_only_a_peak_reached_during_the_document_is_its_memory_limit():
    assert reached_limit(1000, 1900, 2048)  # this document took the worker from 1 GB to within a tenth of 2 GB
    assert not reached_limit(1900, 1900, 2048)  # an earlier document's peak: this one added nothing
    assert not reached_limit(100, 300, 2048)  # rose, but nowhere near the limit
    assert not reached_limit(1000, 1900, None)  # no limit set


def test_a_reused_workers_failure_keeps_its_own_reason_and_traceback(tmp_path: Path):
    kept = tmp_path / "kept.md"
    kept.write_text("# Kept\n\nStill here.\n", encoding="utf-8")
    worker = ConvertWorker(2048, 600)
    try:
        assert worker.convert(kept, ReadOptions()).title
        first = worker._process.pid
        with pytest.raises(ConversionError) as failed:
            worker.convert(tmp_path / "gone.md", ReadOptions())
        assert str(failed.value).startswith("reader error FileNotFoundError: ") and "convert_memory_mb" not in str(failed.value)
        assert failed.value.traceback.startswith("Traceback (most recent call last):")
        assert worker.convert(kept, ReadOptions()).title and worker._process.pid == first  # the same worker goes on
    finally:
        worker.close()
