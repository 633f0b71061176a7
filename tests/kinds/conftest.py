"""The browser fixtures of tests/e2e, shared by every kind's browser test here:
one Playwright session serves them all (two at once cannot run)."""

from tests.e2e.conftest import browser, csp

__all__ = ["browser", "csp"]
