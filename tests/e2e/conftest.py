"""A real browser (Debian's chromium, driven by Playwright) against a live server."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.one_chromium import RUNNING

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
    if RUNNING:
        yield RUNNING[0]
        return
    path = chromium_path()
    if path is None:
        if os.environ.get("JUMBULAYA_REQUIRE_SERVICES") == "1":
            pytest.fail("chromium is not installed; .ci/run installs Debian's chromium")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        RUNNING.append(browser)
        yield browser
        RUNNING.clear()
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


class PageWatch:
    """Everything a browser context reports going wrong: console errors (a 404 for an
    icon, a script error, a refused policy) and requests that failed or were answered
    with an error status.  An answer a page expects (``expect(422)``: a refused move
    shown by htmx) is left out: it is the page working."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.expected: set[int] = set()

    def watch(self, context: Any) -> Any:
        context.on("console", self._console)
        context.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        context.on("requestfailed", self._failed)
        context.on("response", self._response)
        return context

    def expect(self, *statuses: int) -> None:
        """Statuses the next requests may get as the page's own answer."""
        self.expected = set(statuses)

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        text = str(message.text)
        status = re.search(r"status of (\d{3})", text)
        if status and int(status.group(1)) in self.expected:
            return
        self.problems.append(f"console: {message.location.get('url')}: {text}")

    def _failed(self, request: Any) -> None:
        failure = request.failure or ""
        if "ERR_ABORTED" in failure:
            return  # cut short by the next navigation (an answer with an error status is not)
        self.problems.append(f"failed: {request.method} {request.url}: {failure}")

    def _response(self, response: Any) -> None:
        if response.status >= 400 and response.status not in self.expected:
            self.problems.append(f"{response.status}: {response.request.method} {response.url}")


@pytest.fixture
def problems() -> PageWatch:
    """``problems.watch(browser.new_context())``; at the end, ``problems.problems == []``."""
    return PageWatch()


def axe_violations(page: Any) -> str:
    """What axe-core finds wrong with the page as it is now ("" when nothing)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    if results.violations_count == 0:
        return ""
    return f"{page.url}\n{results.generate_report()}"
