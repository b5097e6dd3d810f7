# The README's two commands: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint chromium bench train clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# The table itself needs only the run-time packages (no browser driver, no linter).
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/scorer serve

# Debian's chromium for the browser tests (Playwright's own download does not work here).
chromium:
	@command -v /usr/bin/chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && apt-get install -y -q chromium; \
	  else sudo apt-get update -q && sudo apt-get install -y -q chromium; fi; }

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(TEST_STAMP) chromium lint
	$(BIN)/python -m pytest -q

bench: $(TEST_STAMP)
	for b in benchmarks/*.py; do $(BIN)/python $$b || exit 1; done

train: $(RUN_STAMP)
	$(BIN)/pip install -q torch==2.13.0 onnx
	$(BIN)/python -m vision_models.train

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
