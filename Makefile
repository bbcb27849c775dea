# Set-up is part of each target, so a fresh machine needs one command per job.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/carcam: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

.PHONY: setup demo test lint bench
setup: $(BIN)/carcam

demo: setup
	$(BIN)/carcam read sample_images/base-midgame/photo.jpg --score

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto

bench: setup
	$(BIN)/carcam bench all
