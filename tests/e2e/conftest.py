"""A real browser (Debian's chromium, driven by Playwright) against a live server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

# Playwright's sync API runs an event loop in this thread; the test still talks to
# the database only from plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return os.environ.get("JUMBULAYA_CHROMIUM") or shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        if os.environ.get("JUMBULAYA_REQUIRE_SERVICES") == "1":
            pytest.fail("chromium is not installed; .ci/run installs Debian's chromium")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PolicyWatch:
    """What the browser says about the Content-Security-Policy in the contexts it
    watches: chromium logs every violation (on a page or in a frame) to the console as
    "... violates the following Content Security Policy directive ..."."""

    def __init__(self) -> None:
        self.violations: list[str] = []

    def watch(self, context: Any) -> Any:
        context.on("console", self._console)
        return context

    def _console(self, message: Any) -> None:
        if "content security policy" in message.text.lower():
            self.violations.append(f"{message.location.get('url')}: {message.text}")


@pytest.fixture
def csp() -> PolicyWatch:
    """``csp.watch(browser.new_context())``; at the end, ``csp.violations == []``."""
    return PolicyWatch()
