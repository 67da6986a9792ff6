# One command for the main job (`make demo`), one for the tests (`make test`); each sets itself up.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: install demo site test lint chromium bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[all,dev,scale]'
	touch $@

install: $(BIN)/.installed

# Debian's Chromium for the browser test (installed when missing and we may; else that test skips).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "chromium could not be installed: the browser test will skip"; \
	  else echo "no /usr/bin/chromium and not root: the browser test will skip"; fi; \
	fi

demo: install
	$(BIN)/layoutrag demo

# the sample corpus as a static site (search in the browser, works from file://): open site/index.html
SITE ?= site
site: install
	$(BIN)/layoutrag demo --no-serve
	$(BIN)/layoutrag export-site --out $(SITE)

test: install chromium
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy
	$(BIN)/pytest

SHARED ?= ../shared

# speed and serving on generated / replicated data; ingest speed and search quality need $(SHARED)
# (the 1M-chunk speed row takes ~10 minutes: `benchmarks/search_speed.py --sizes 1000000`)
BENCH_TXC ?= /tmp/layoutrag-bench-txc

bench: install
	$(BIN)/python benchmarks/serve_load.py
	for f in benchmarks/data/spec_query_reading*.jsonl; do $(BIN)/python benchmarks/spec_query_reading.py $$f; done
	$(BIN)/pytest -q tests/test_http_conformance.py   # bounded schemathesis run against a live server: 0 failures
	@if [ -d $(SHARED)/datasheets ]; then \
		$(BIN)/python benchmarks/search_speed.py --shared $(SHARED) --sizes 10000,100000 && \
		$(BIN)/python benchmarks/ingest.py $(SHARED)/datasheets --docs 4 && \
		$(BIN)/python benchmarks/search_quality.py --shared $(SHARED) && \
		rm -rf $(BENCH_TXC) && $(BIN)/layoutrag import-chunks $(SHARED)/eval/txc/chunks.jsonl --data $(BENCH_TXC) && \
		$(BIN)/python benchmarks/spec_txc.py $(BENCH_TXC) --facts benchmarks/data/spec_facts_txc.tsv; \
	else echo "$(SHARED) not found: skipping the benchmarks over the real datasheets"; fi

clean:
	rm -rf $(VENV) layoutrag-data
