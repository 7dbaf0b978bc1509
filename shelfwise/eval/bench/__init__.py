"""Benchmarks: each module is run as `python -m shelfwise.eval.bench.<name>` (make bench-<name>) and writes eval/results/<name>.json."""

__all__: list[str] = []
