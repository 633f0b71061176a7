# Jumbulaya by mail: developer entry points. Everything runs through .venv/bin/...;
# no activated virtualenv is needed.

SHELL := /bin/bash

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: venv .venv run demo test test-fast lint fmt bench stack-test clean

venv .venv: $(STAMP)

# Re-installs whenever pyproject.toml changes.
$(STAMP): pyproject.toml
	@set -e; \
	if [ ! -x $(PY) ]; then \
		python=$$(tools/find-python) || exit 1; \
		echo "Creating $(VENV) with $$python"; \
		"$$python" -m venv $(VENV); \
	fi
	$(PY) -m pip install -e '.[dev]'
	@touch $@

# Links printed and mailed by a local run point at the local server.
run: export JUMBULAYA_SITE_URL ?= http://$(HOST):$(PORT)
run: $(STAMP)
	DJANGO_DEBUG=1 $(PY) manage.py migrate --noinput
	@# Builds the default word list's index the first time (a few seconds), then reuses it.
	DJANGO_DEBUG=1 $(PY) manage.py wordlist list
	DJANGO_DEBUG=1 $(PY) manage.py demo
	@# Web, Celery worker and beat together; Ctrl-C stops them all.
	DJANGO_DEBUG=1 RUN_HOST=$(HOST) RUN_PORT=$(PORT) $(VENV)/bin/honcho -f Procfile.dev start

# Fresh sign-in links for the demo players (each link works once).
demo: export JUMBULAYA_SITE_URL ?= http://$(HOST):$(PORT)
demo: $(STAMP)
	@DJANGO_DEBUG=1 $(PY) manage.py migrate --noinput >/dev/null
	@DJANGO_DEBUG=1 $(PY) manage.py demo

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy games accounts api ratings devmail ops jumbulaya_site bench

# The whole suite: on every core (pytest-xdist: each worker has a test database and
# cache-key prefix of its own), then the browser tests in a run of their own, since
# Playwright leaves an event loop behind that later async tests cannot share
# (tests/conftest.py). A run that finds no browser test (exit 5) is no failure.
TEST_WORKERS ?= auto

test: $(STAMP)
	$(MAKE) lint
	status=0; \
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadgroup -m "not browser" $(PYTEST_ARGS) || status=1; \
	$(VENV)/bin/pytest -m browser $(PYTEST_ARGS) || [ $$? -eq 5 ] || status=1; \
	exit $$status

# The fast tier, for a developer's every change: all but the tests marked slow, on
# SQLite and without Redis (whatever the environment says), on every core.
test-fast: $(STAMP)
	DATABASE_URL= REDIS_URL= $(VENV)/bin/pytest -n $(TEST_WORKERS) -m "not slow" $(PYTEST_ARGS)

fmt: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	@$(PY) -m bench

# The documentation site (mkdocs-material) from docs/ into var/site/, failing on any warning.
.PHONY: docs
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# The production stack (own PostgreSQL and Redis, gunicorn, two workers, beat, an SMTP
# sink) playing 200 games to the end under faults; needs root (PostgreSQL runs as the
# postgres user). The CI variant: tests/stack/test_stack_short.py (python -m bench stack --ci).
stack-test: $(STAMP)
	$(PY) -m bench stack

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles
	find . -name __pycache__ -type d -prune -not -path './.venv/*' -exec rm -rf {} +
