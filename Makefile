# shelfwise — `make demo` sets everything up and runs the demo; `make test` runs the test suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SYSTEM_STAMP := build/.system-deps
DEMO_SHELF := shelves/northwind
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export NO_MKDOCS_2_WARNING := 1
# A local demo value (not a secret): the demo site's widget sends it to the demo endpoint.
DEMO_TOKEN ?= demo-local-token
export SHELFWISE_DEMO_TOKEN := $(DEMO_TOKEN)

.PHONY: install system-deps demo test docs fit fit-tuning fit-premise fit-pdf-headings bench bench-structure bench-pdf bench-tables bench-compile bench-links bench-search bench-embed bench-site bench-api bench-openai bench-adversarial bench-reliability bench-research bench-scale eval-local-llm clean help

help:
	@echo "make demo   - set up, compile the demo shelf ($(DEMO_SHELF)), build its site, serve site and endpoint on 127.0.0.1"
	@echo "make test   - run the test suite (installs first; it builds the docs too)"
	@echo "make docs   - build the documentation site (docs/, mkdocs --strict) into build/docs"
	@echo "make bench  - run the benchmarks (results in eval/results/)"
	@echo "make fit    - refit the writer's and the search's weights (leave-one-set-out); make fit-tuning: the writer's thresholds; make fit-premise: the premise check's threshold; make fit-pdf-headings: the PDF heading check"

# The CPU build of torch first (FACTS.md), then everything else under constraints.txt so docling cannot
# replace it with a CUDA build.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip wheel
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -c constraints.txt -e '.[test]'
	touch $@

# Debian's Chromium, for the site and widget tests in a headless browser (playwright drives it), and axe-core.
$(SYSTEM_STAMP):
	@mkdir -p build
	@if ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	  else echo "missing Debian package: run 'sudo apt-get install chromium'"; exit 1; fi; \
	fi
	@# axe-core from the npm registry, for the accessibility test (tests/test_widget_demo.py); never committed
	@if command -v npm >/dev/null; then npm install --prefix build/node --no-audit --no-fund --silent axe-core@4.14.1 >/dev/null; \
	else echo "missing npm: the axe-core accessibility test will be skipped (apt-get install npm)"; fi
	touch $@

system-deps: $(SYSTEM_STAMP)

install: $(STAMP) $(SYSTEM_STAMP)

DEMO_PORT ?= 8000
demo: install
	$(VENV)/bin/shelfwise build $(DEMO_SHELF) --site --config shelves/demo.toml
	@echo
	$(VENV)/bin/shelfwise serve northwind --config shelves/demo.toml --port $(DEMO_PORT)

test: install
	$(PY) -m pytest -q

# The documentation site (docs/, mkdocs.yml): strict, offline, into build/docs (never committed); tests/test_docs.py
# builds it too, so make test fails on a broken link or a generated table that lost its results.
docs: install
	$(VENV)/bin/mkdocs build --strict -f mkdocs.yml -d build/docs

bench: bench-structure bench-pdf bench-compile bench-links bench-search bench-site bench-api bench-adversarial

bench-structure: install
	$(PY) -m shelfwise.eval.bench.structure

bench-pdf: install
	$(PY) -m shelfwise.eval.bench.pdf

bench-tables: install
	$(PY) -m shelfwise.eval.bench.tables

bench-compile: install
	$(PY) -m shelfwise.eval.bench.compile

bench-links: install
	$(PY) -m shelfwise.eval.bench.links

bench-search: install
	$(PY) -m shelfwise.eval.bench.search

# Every local embedding backend side by side: passages/s, query latency, retrieval (shelves compiled under BENCH_EMBED_BUILD).
BENCH_EMBED_BUILD ?= build
bench-embed: install
	$(PY) -m shelfwise.eval.bench.embed --build-dir $(BENCH_EMBED_BUILD)

bench-site: install
	$(PY) -m shelfwise.eval.bench.site

bench-api: install
	$(PY) -m shelfwise.eval.bench.api

bench-openai: install
	$(PY) -m shelfwise.eval.bench.openai_api

bench-scale: install
	$(PY) -m shelfwise.eval.bench.scale

bench-adversarial: install
	$(PY) -m shelfwise.eval.bench.adversarial

bench-compare: install
	$(PY) -m shelfwise.eval.bench.compare
bench-reliability: install
	$(PY) -m shelfwise.eval.bench.reliability
bench-research: install
	$(PY) -m shelfwise.eval.bench.research

# The extractive writer's ranking weights and the search's route weights, fitted on every labelled question set with
# leave-one-set-out runs (the shelves compiled under FIT_BUILD_DIR: ../shared/corpora's and shelves/northwind).
FIT_BUILD_DIR ?= build
fit: install
	$(PY) -m shelfwise.eval.fit --build-dir $(FIT_BUILD_DIR) --keep-if-worse $(ARGS)
	$(PY) -m shelfwise.eval.fit_search --build-dir $(FIT_BUILD_DIR)

# The extractive writer's thresholds and budgets (answer.tuning), moved either way and judged by the answers written
# again, leave one set out: eval/results/fit-tuning.json.
fit-tuning: install
	$(PY) -m shelfwise.eval.fit_tuning --build-dir $(FIT_BUILD_DIR) $(ARGS)

# The false-premise check's threshold (answer.tuning.premise_share), swept on every premise set, leave one set out:
# eval/results/fit-premise.json.
fit-premise: install
	$(PY) -m shelfwise.eval.fit_premise --build-dir $(FIT_BUILD_DIR) $(ARGS)

# The PDF reader's heading cues and check, fitted leave-one-document-out on public PDFs with outlines (the heading
# benchmark's documents, some from Debian's gnuplot-doc, gutenprint-doc and python-reportlab-doc), then the
# precision corrected by the hand judgements of eval/questions/pdf-heading-audit.yaml.
fit-pdf-headings: install
	$(PY) -m shelfwise.eval.fit_pdf_headings $(ARGS)
	$(PY) -m shelfwise.eval.pdf_heading_audit score

# A real local model (llama.cpp + Qwen2.5-Coder 1.5B from registry packages): slow, not part of make test.
eval-local-llm: install
	$(PY) -m shelfwise.eval.local_llm $(ARGS)

clean:
	rm -rf build
