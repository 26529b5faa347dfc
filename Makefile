# talesim — every target creates .venv from pyproject.toml if it is missing.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
# what talesim itself needs (make demo); the test extras on top of it (make test, lint, bench)
RUNTIME := $(VENV)/.runtime
STAMP   := $(VENV)/.installed

.PHONY: help demo test test-all lint bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(RUNTIME): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# `make demo` plays the three games side by side (each compiles its own kernel on a cold
# start, so two cores compile two at once; output is shown a game at a time);
# `make demo GAME=paper-tales VARIANT=legends` (or any game and variant of `talesim games`)
# only that one, DEMO_GAMES games (default 100,000).
GAME       ?=
VARIANT    ?=
DEMO_GAMES ?= 100000
DEMO_JOBS  ?= 3
DEMO_RUN    = runs/demo-$(GAME)$(if $(VARIANT),-$(VARIANT))
DEMO_ARGS   = --games $(DEMO_GAMES) --players 4 --policy greedy --seed 2026 --overwrite --summary

demo: $(RUNTIME) ## simulate 100,000 games of each game (4 greedy players), summarise, write the reports
ifeq ($(GAME),)
	$(MAKE) --no-print-directory -j$(DEMO_JOBS) -O demo-fairy-tale demo-paper-tales demo-drako
else
	$(BIN)/talesim simulate $(GAME) $(if $(VARIANT),--variant $(VARIANT)) $(DEMO_ARGS) \
		--out $(DEMO_RUN)
	$(BIN)/talesim report $(DEMO_RUN) --out $(DEMO_RUN)-report
endif

.PHONY: demo-fairy-tale demo-paper-tales demo-drako
demo-fairy-tale: $(RUNTIME)
	$(BIN)/talesim simulate fairy-tale --variant expert $(DEMO_ARGS) --out runs/demo-fairy-tale
	$(BIN)/talesim report runs/demo-fairy-tale --out runs/demo-fairy-tale-report
demo-paper-tales: $(RUNTIME)
	$(BIN)/talesim simulate paper-tales $(DEMO_ARGS) --out runs/demo-paper-tales
	$(BIN)/talesim report runs/demo-paper-tales --out runs/demo-paper-tales-report
demo-drako: $(RUNTIME)
	$(BIN)/talesim simulate drako --variant brief $(DEMO_ARGS) --out runs/demo-drako
	$(BIN)/talesim report runs/demo-drako --out runs/demo-drako-report

# Test workers: the suite is grouped by game kernel (tests/conftest.py), so two workers
# compile two kernels cold at once; more than three cannot help.
WORKERS ?= 2

test: $(STAMP) ## run the whole test suite (slow tests excluded)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(WORKERS) --dist loadgroup --durations=15

test-all: $(STAMP) ## run every test including slow ones
	$(BIN)/python -m pytest -q -m '' -p no:cacheprovider -n $(WORKERS) --dist loadgroup

# mypy reads folders, not the editable install's import hook: it checks the package ``talesim``
# as installed (pyproject.toml's package-dir) through a tree of links in the venv.
TYPECHECK := $(VENV)/typecheck

lint: $(STAMP) ## ruff + mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)/talesim
	ln -s $(CURDIR)/talesim/* $(CURDIR)/simcore $(CURDIR)/cli $(CURDIR)/reports $(TYPECHECK)/talesim/
	cd $(TYPECHECK) && $(CURDIR)/$(BIN)/mypy --config-file $(CURDIR)/pyproject.toml -p talesim

bench: $(STAMP) ## throughput and memory benchmarks
	$(BIN)/python benchmarks/run_all.py

clean: ## remove the venv, caches and runs
	rm -rf $(VENV) runs .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
