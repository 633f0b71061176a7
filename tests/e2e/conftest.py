"""A real browser (Debian's chromium, driven by Playwright) against a live server
served as deploy/ serves the site: through ASGI, by uvicorn (here in a thread of the
test process, on the test database), so a page's live stream streams."""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.test.utils import modify_settings

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


class AsgiServer:
    """uvicorn serving the site (and its static files) in a thread of this process."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        app = ASGIStaticFilesHandler(get_asgi_application())
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        # What pytest-django's own live server offers its autouse helper, which turns
        # it on around each test that uses a live server.
        self._live_server_modified_settings = modify_settings(
            ALLOWED_HOSTS={"append": ["127.0.0.1", "localhost"]}
        )

    def __enter__(self) -> AsgiServer:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.server.force_exit = True  # open streams do not hold the test up
        self.thread.join(10)


@pytest.fixture
def live_server(transactional_db: None) -> Iterator[AsgiServer]:
    """The browser tests' server: pytest-django's is WSGI, under which a page's
    live stream would be read to its end before a byte was sent."""
    with AsgiServer() as server:
        yield server


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
