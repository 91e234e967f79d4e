# `make demo` and `make test` set everything up on a fresh machine (Python 3.11 on PATH as python3).
VENV ?= .venv
PY := $(VENV)/bin/python
SIMKIT := $(VENV)/bin/simkit
DEMO_GAMES ?= 200000

.PHONY: demo test lint-fix bench clean-cache

$(VENV)/.installed: pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

demo: $(VENV)/.installed
	$(SIMKIT) run wheedle --games $(DEMO_GAMES) --seed 7 --out runs/demo --overwrite
	$(SIMKIT) summary runs/demo
	$(SIMKIT) report runs/demo -o runs/demo/report.html
	$(SIMKIT) report runs
	@echo "demo report: $(CURDIR)/runs/demo/report.html"
	@echo "index of every run and analysis in runs/: $(CURDIR)/runs/index.html"

test: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -n auto

# After merging branches: sort imports and drop unused ones, then fix by hand what ruff still lists.
lint-fix: $(VENV)/.installed
	$(VENV)/bin/ruff check --fix .

bench: $(VENV)/.installed
	$(SIMKIT) bench wheedle

# Numba's disk cache is keyed on each kernel's file and every module it imports from (simkit/numba_cache.py),
# so an edit recompiles what it affects by itself; clean-cache only frees the space or forces a full recompile.
clean-cache:
	find simkit strategies tests -name '*.nbi' -delete -o -name '*.nbc' -delete
