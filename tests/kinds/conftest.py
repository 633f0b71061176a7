"""The browser fixtures of tests/e2e, for the kinds' browser tests: defined
once here, so the kinds' test modules share one session's browser (and with
tests/e2e, the one chromium of :mod:`tests.e2e.one_chromium`)."""

from tests.e2e.conftest import browser, csp

__all__ = ["browser", "csp"]
