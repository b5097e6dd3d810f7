# The README's two commands: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint chromium pi-stack screenshots bench train renders tables cyrillic-tables test-render3d clean

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

test: $(TEST_STAMP) chromium lint pi-stack
	$(BIN)/python -m pytest -q

# The Pi's own stack: Raspberry Pi OS ships OpenCV 4.6 and numpy 1.26 (apt). A venv of
# just those two reads the test photos with the tree's reader, and the readings must be
# the main venv's (tests/pi_stack.py).
PI_VENV := .venv-pi
PI_STAMP := $(PI_VENV)/.installed
$(PI_STAMP):
	$(PYTHON) -m venv $(PI_VENV)
	$(PI_VENV)/bin/pip install -q "opencv-python-headless==4.6.0.66" "numpy<2"
	touch $@

pi-stack: $(PI_STAMP) $(TEST_STAMP)
	PYTHONPATH=. $(PI_VENV)/bin/python tests/pi_stack.py read $(PI_VENV)/readings-pi.json
	PYTHONPATH=. $(BIN)/python tests/pi_stack.py read $(PI_VENV)/readings-main.json
	$(BIN)/python tests/pi_stack.py compare $(PI_VENV)/readings-main.json $(PI_VENV)/readings-pi.json

# The README's pictures (docs/screenshots), taken by the browser tests; `make test` leaves them be.
screenshots: $(TEST_STAMP) chromium
	SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -q -m browser

bench: $(TEST_STAMP)
	for b in benchmarks/*.py; do $(BIN)/python $$b || exit 1; done

# The finder and the general face network saw no 3D renders (`--render3d 0`, also where a cache exists):
# runs that did are in vision_models/render3d.md, "Training on it".
train: $(RUN_STAMP)
	$(BIN)/pip install -q torch==2.13.0 onnx matplotlib
	$(BIN)/python -m vision_models.train --only finder faces --render3d 0
	# the poker dice's own face network also learns from the first 400 3D renders of the
	# renderer's first look (`make renders`; render3d.md, "The cache")
	$(BIN)/python -m vision_models.train --only faces --faces-kind cards --render3d 400 \
	  --render3d-version 1
	# a second one on twice the renders, read beside it (faces-cards.md, "Two poker-dice networks")
	$(BIN)/python -m vision_models.train --only faces --faces-kind cards --second --render3d 800 \
	  --render3d-version 1
	# the court network, its courts also from the first 806 3D renders
	$(BIN)/python -m vision_models.train --only courts --render3d 806 --render3d-version 1
	# the finder a game of pip dice looks again with where a die is unsure: the general one
	# fine-tuned on the 3D renders too, blended halfway back (vision_models/finder-pips.md)
	$(BIN)/python -m vision_models.train --only finder --finder-kind pips --warm vision_models \
	  --finder-keep vision_models --render3d 400 --render3d-version 1 --finder-steps 3000 \
	  --warm-lr 1e-3 --finder-render3d-weight 0.6 --finder-blend 0.5
	# poker dice printing 9 10 В Д К Т: both poker-dice networks fine-tuned on ranks set in
	# fonts, half of them Cyrillic, and on 40 3D tables of them (`make cyrillic-tables`), kept
	# to their own readings elsewhere (faces-cards.md)
	for second in "" --second; do $(BIN)/python -m vision_models.train --only faces \
	  --faces-kind cards $$second --ranks cyrillic --typeset --rendered 3000 --render3d 280 \
	  --render3d-tables 100 139 --render3d-version 1 --warm vision_models \
	  --faces-keep vision_models --faces-steps 4000 || exit 1; done
	# the crops those dice start from, described by the networks above; how sure they may be,
	# also from two 3D tables of Cyrillic dice (`make cyrillic-tables` renders them)
	$(BIN)/python -m vision_models.train.ranks

# Blender's bpy pins numpy<2 (and so OpenCV 4.11): the renderer gets a venv of its own.
RENDER_VENV := .venv-render3d
$(RENDER_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(RENDER_VENV)
	$(RENDER_VENV)/bin/pip install -q --upgrade pip
	$(RENDER_VENV)/bin/pip install -q -e '.[render3d]' 'pytest>=8'
	touch $@

# Physically based training photos into ~/.cache/dice-scorer/render3d/ (stop any time;
# the same command carries on where it stopped). 640 px at 8 samples (denoised) on two
# threads, niced: 350-450 photos an hour here. First the 806 of the renderer's first look
# (v1/) that `make train` needs, then its current look (v4/: translucent dice see-through).
renders: $(RENDER_VENV)/.installed
	nice -n 19 $(RENDER_VENV)/bin/python -m vision_models.render3d --version 1 --train 806 \
	  --test 80 --threads 2 --max-side 640 --samples 8
	nice -n 19 $(RENDER_VENV)/bin/python -m vision_models.render3d --train 5000 --test 500 \
	  --threads 2 --max-side 640 --samples 8

# The rendered tables that issue 24's figures are measured on (`benchmarks/taught_tables.py`,
# docs/teaching.md), resumable: one held-out make each, 60 throws under one camera, of the
# renderer's first look: pip dice 0-10, poker dice 0, 1, 3-21. 1920 photos, three to five hours
# on two cores (420-720 an hour here). Cycles' photos differ a little from machine to machine,
# and so do their figures (a table re-rendered once read 84.85 against 85.28 %, docs/teaching.md).
TABLE_RENDER := nice -n 19 $(RENDER_VENV)/bin/python -m vision_models.render3d --version 1 \
  --train 0 --test 60 --threads 2 --max-side 640 --samples 8
tables: $(RENDER_VENV)/.installed
	for n in $$(seq 0 10); do $(TABLE_RENDER) --table $$n --kind pips || exit 1; done
	for n in 0 1 $$(seq 3 21); do $(TABLE_RENDER) --table $$n --kind cards || exit 1; done

# 3D tables of poker dice printing 9 10 В Д К Т (resumable): 40 of train families, 8 photos
# each, that their networks learn from, and two of 60 photos that the Cyrillic prior's
# sureness is fitted on (vision_models/ranks-cyrillic.md); 440 photos, about an hour on two cores.
cyrillic-tables: $(RENDER_VENV)/.installed
	for n in $$(seq 100 139); do nice -n 19 $(RENDER_VENV)/bin/python -m vision_models.render3d \
	  --version 1 --table $$n --kind cards --cyrillic --train 8 --test 0 --threads 2 \
	  --max-side 640 --samples 8 || exit 1; done
	for n in 0 1; do nice -n 19 $(RENDER_VENV)/bin/python -m vision_models.render3d --version 1 \
	  --table $$n --kind cards --cyrillic --train 0 --test 60 --threads 2 --max-side 640 \
	  --samples 8 || exit 1; done

# The renderer's tests with real Blender renders (skipped in the main venv, which has no bpy).
test-render3d: $(RENDER_VENV)/.installed
	$(RENDER_VENV)/bin/python -m pytest -q -p no:cacheprovider tests/test_render3d_blender.py tests/test_render3d_labels.py \
	  tests/test_render3d_reader.py

clean:
	rm -rf $(VENV) $(PI_VENV) $(RENDER_VENV) .pytest_cache .ruff_cache
