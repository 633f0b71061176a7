"""The API's docs page in a real browser: Swagger UI draws the document from
this site alone, under the site's Content-Security-Policy."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PolicyWatch

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_page_loads_nothing_from_elsewhere(
    live_server: Any, browser: Any, csp: PolicyWatch
) -> None:
    context = csp.watch(browser.new_context())
    page = context.new_page()
    asked: list[str] = []
    failed: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    assert page.goto(f"{live_server.url}/api/v1/docs").ok
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Jumbulaya by mail")
    expect(
        page.locator(".opblock-summary-path", has_text="/api/v1/games/{game_id}/moves")
    ).to_be_visible()
    here = urlsplit(live_server.url).netloc
    assert [u for u in asked if urlsplit(u).netloc not in (here, "")] == []
    assert failed == [] and errors == [] and csp.violations == []
    context.close()
