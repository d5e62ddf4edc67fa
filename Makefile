# Build skeleton for casino. Every target that needs tools depends on `venv`, which creates
# .venv and installs the project with every extra (`.[all,test]`: the command line, the
# terminal and web games, the arena's plot, the test tools) at the exact versions pinned in
# constraints.txt.

SHELL := /bin/bash
.DEFAULT_GOAL := test

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTHON_CANDIDATES := python3.13 python3.12 python3.11 python3

# Directories linted by ruff and type-checked by mypy --strict (the settings are in
# pyproject.toml), whole: only those that exist, since git does not keep empty folders.
CODE_PATHS := $(wildcard src tests benchmarks research examples)

# The tests run in parallel processes (pytest-xdist), one per core and one more, since
# many tests wait on a server, a browser or a deadline while the others compute (measured
# on 2 cores: 3 processes finish a few seconds sooner than 2). PYTEST_JOBS=0 runs them all
# in one process. A test file stays in one process, so the servers and browsers a module
# starts once are started once.
PYTEST_JOBS ?= $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1); echo $$((n + 1)))
PYTEST_PARALLEL := -n $(PYTEST_JOBS) --dist loadfile

# The compiled core's C sources (setup.py builds casino.engine._core from every .c there).
CORE_SOURCES := $(wildcard src/ccore/*.c src/ccore/*.h)

# Python keeps compiled modules (and pytest its rewritten test modules) in __pycache__.
# Some environments turn that off (PYTHONDONTWRITEBYTECODE); then every test worker and
# every command a test starts compiles the package and the tests anew, about 7 s of CPU
# per worker for the tests alone. The targets here turn the cache back on.
unexport PYTHONDONTWRITEBYTECODE

# Locally `make test` skips tests marked slow; CI (CI=true) runs everything.
ifeq ($(CI),true)
PYTEST_MARK :=
else
PYTEST_MARK := -m "not slow"
endif

# Run pytest with the given arguments. Exit code 5 ("no tests collected") is accepted only
# when the suite has literally no test at all (a plain collection finds nothing); if tests
# exist and a marker deselected them all, or anything else went wrong, the exit code stands.
define run_pytest
	@set +e; $(BIN)/pytest $(1); rc=$$?; \
	if [ $$rc -eq 5 ]; then \
		$(BIN)/pytest -q --collect-only -p no:cacheprovider >/dev/null 2>&1; crc=$$?; \
		if [ $$crc -eq 5 ]; then echo "make: no tests exist yet; pytest exit 5 accepted"; rc=0; fi; \
	fi; \
	exit $$rc
endef

.PHONY: venv core test test-slow test-postgres test-pure run lint typecheck browser bench clean \
	distclean

venv: $(STAMP)

$(BIN)/python:
	@py=""; \
	for c in $(PYTHON_CANDIDATES); do \
		if "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then \
			py="$$c"; break; \
		fi; \
	done; \
	if [ -z "$$py" ]; then \
		echo "error: Python >= 3.11 not found (tried: $(PYTHON_CANDIDATES))" >&2; exit 1; \
	fi; \
	echo "creating $(VENV) with $$py ($$("$$py" -c 'import sys; print(sys.version.split()[0])'))"; \
	rm -rf $(VENV); \
	"$$py" -m venv $(VENV)

# The editable install also builds the compiled core, casino.engine._core, in place
# (src/casino/engine/_core.*.so) from src/ccore/, so a change there reinstalls; without a
# working C compiler it installs all the same and the engine is pure Python. setuptools,
# which builds it, is pinned in the venv (for make core) and in the build environment.
$(STAMP): $(BIN)/python pyproject.toml setup.py constraints.txt $(CORE_SOURCES)
	$(BIN)/python -m pip install --quiet --upgrade pip setuptools -c constraints.txt
	$(BIN)/python -m pip install --quiet -e '.[all,test]' -c constraints.txt \
		--build-constraint constraints.txt
	@touch $@

# Rebuild only the compiled core in place after a change to src/ccore/: quicker than the
# reinstall make venv would do (which it spares: the install is then up to date). Fails,
# with the compiler's words, when the core does not build.
core:
	@if [ ! -f $(STAMP) ] || [ -n "$$(find pyproject.toml setup.py constraints.txt -newer $(STAMP))" ]; \
		then $(MAKE) --no-print-directory venv; fi
	rm -f src/casino/engine/_core.*.so build/lib.*/casino/engine/_core.*.so
	$(BIN)/python setup.py --quiet build_ext --inplace
	@CASINO_CORE=on $(BIN)/python -c 'from casino.engine import core; import sys; \
		print("make: engine:", core.engine_name()); sys.exit(core.module() is None)'
	@touch $(STAMP)

# Dead code: vulture over the linted folders, the tests included (a name only the tests use
# is kept: the tests are its callers). --min-confidence 60 because vulture rates every unused
# function, method, class, attribute and variable at 60%, and only unused arguments (100%)
# and imports (90%, which ruff already finds) higher: any higher setting would miss every
# dead function. At 60 its noise is the names a framework calls or reads by name (textual
# handlers, OpenSpiel and Alembic hooks, autouse fixtures...): vulture_allowlist.py names
# them, and functions registered by a decorator (FastAPI routes and handlers, typer
# commands) are skipped by --ignore-decorators.
DEAD_CODE_ALLOWLIST := vulture_allowlist.py
DEAD_CODE_DECORATORS := @app.*,@router.*,@command

# ruff, then the layout's import contract (pyproject.toml [tool.importlinter]: the engine
# imports nothing else of the project and nothing third-party, nothing imports a front end,
# the engine's three import circles cannot grow),
# then the dead-code check, then the docstring-coverage floor of src/casino's public names
# (interrogate; its settings and the floor are in pyproject.toml [tool.interrogate]).
lint: venv
	$(BIN)/ruff check $(CODE_PATHS)
	$(BIN)/lint-imports
	$(BIN)/vulture $(CODE_PATHS) $(DEAD_CODE_ALLOWLIST) --min-confidence 60 \
		--ignore-decorators '$(DEAD_CODE_DECORATORS)'
	$(BIN)/interrogate --config pyproject.toml src/casino
	$(BIN)/python tests/i18n_catalogs.py check

typecheck: venv
	$(BIN)/mypy $(CODE_PATHS)

# The browser tests drive Debian's chromium; install it when it is missing (as root, or
# through password-less sudo). Without either, the browser tests skip locally (never in CI).
browser:
	@if ! command -v chromium >/dev/null 2>&1; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=""; \
		elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
		else echo "make: chromium is missing and cannot be installed without root;" \
			"the browser tests will be skipped"; exit 0; fi; \
		echo "make: installing Debian's chromium for the browser tests"; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi

test: lint typecheck browser
	$(call run_pytest,-q $(PYTEST_PARALLEL) $(PYTEST_MARK))
ifeq ($(CI),true)
	@$(MAKE) --no-print-directory test-postgres
	@$(MAKE) --no-print-directory test-pure
endif

# The web server's tests once more against a real PostgreSQL server, which .ci/postgres
# installs and starts when missing (root or password-less sudo). CI runs it in make test.
test-postgres: venv
	@url=$$(.ci/postgres) && echo "make: web tests against $$url" && \
		CASINO_TEST_POSTGRES=$$url $(BIN)/pytest -q -p no:cacheprovider $(PYTEST_PARALLEL) \
		tests/test_web_api.py tests/test_web_ws.py tests/test_web_tools.py \
		tests/test_web_seats.py tests/test_web_fairplay.py tests/test_web_guard.py \
		tests/test_web_moved_on.py tests/test_web_fanout.py tests/test_web_cluster.py \
		tests/test_web_serve_workers.py tests/test_web_accounts.py \
		tests/test_web_accounts_limits.py tests/test_web_accounts_games.py \
		tests/test_web_allowances.py tests/test_web_pairing.py tests/test_web_chat.py \
		tests/test_web_clocks.py tests/test_web_clocks_cluster.py tests/test_web_clocks_audit.py \
		tests/test_web_daily.py tests/test_i18n_account_language.py

# The engine's, the bots' and the teaching tools' tests once more with the compiled core
# switched off (CASINO_CORE=off), so the pure-Python engine, the reference, stays tested
# as it is played where no compiler is. CI runs it in make test.
PURE_TESTS := $(wildcard tests/test_rules_*.py tests/test_legality.py tests/test_perft.py \
	tests/test_match.py tests/test_reference.py tests/test_partition.py tests/test_fuzz.py \
	tests/test_notation.py tests/test_bots_*.py tests/test_solver.py tests/test_hint.py \
	tests/test_review.py tests/test_one_judge.py tests/test_helper.py tests/test_lesson.py \
	tests/test_yardstick.py tests/test_core.py)

test-pure: venv
	@echo "make: engine, bot and teaching tests with CASINO_CORE=off"
	CASINO_CORE=off $(BIN)/pytest -q -p no:cacheprovider $(PYTEST_PARALLEL) -m "not slow" \
		$(PURE_TESTS)

test-slow: venv
	$(call run_pytest,-q $(PYTEST_PARALLEL) -m slow)

run: venv
	$(BIN)/casino serve

bench: venv
	$(BIN)/python benchmarks/bench_engine.py

# The results page, docs/results.md, generated from the arena's journals in
# research/journals/ (tests/test_results_page.py checks that it is this output), and the
# levels' published strengths fitted from the same journals, shipped in the package
# (src/casino/measure/level_strengths.json; tests/test_level_strengths.py checks it).
.PHONY: results
results: venv
	$(BIN)/python -m research.results research/journals/*.jsonl > docs/results.md.new
	mv docs/results.md.new docs/results.md
	$(BIN)/python -m research.level_ratings research/journals/*.jsonl \
		> src/casino/measure/level_strengths.json.new
	mv src/casino/measure/level_strengths.json.new src/casino/measure/level_strengths.json

clean:
	rm -rf build dist .mypy_cache .ruff_cache .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name '*.egg-info' \) -type d -print \
		| xargs rm -rf

distclean: clean
	rm -rf $(VENV)

# The translations (docs/translation.md): extract every message marked in the code, the
# templates and the scripts into src/casino/locale/casino.pot, bring the Finnish and
# Swedish catalogs (.po) up to it, and compile them (.mo, committed, so that an install
# needs neither Babel nor a compiler). Reproducible: no dates, no line numbers, sorted.
# `make i18n-check` (part of make lint) fails when a catalog is incomplete or stale.
LOCALE := src/casino/locale
I18N_LANGS := fi sv
.PHONY: i18n i18n-check
i18n: venv
	$(BIN)/python tests/i18n_catalogs.py update

i18n-check: venv
	$(BIN)/python tests/i18n_catalogs.py check
