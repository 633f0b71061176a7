"""The API's docs page in a real browser: Swagger UI draws the document from
this site alone, under the site's Content-Security-Policy."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

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


def test_tokens_and_the_bot_mark_on_the_profile_page_in_a_browser(
    live_server: Any, browser: Any, make_user: Any, csp: PolicyWatch
) -> None:
    """Made, shown once, listed, revoked; the bot mark saved: by keyboard-usable forms
    that axe finds nothing wrong with."""
    make_user("ann")
    page = sign_in(browser, live_server.url, "ann@example.com", csp)
    page.goto(f"{live_server.url}/account/profile/")
    page.fill("#id_token_name", "my bot")
    page.click("button[value=token]")
    token = page.locator("[data-new-token]")
    expect(token).to_contain_text("jmb_")
    assert axe_violations(page) == ""
    page.click("button[value=revoke]")
    expect(page.locator(".messages")).to_contain_text("The token is revoked")
    page.check("input[name=is_bot]")
    page.click("button[value=bot]")
    expect(page.locator(".messages")).to_contain_text("Ann (bot)")
    assert axe_violations(page) == ""
    assert csp.violations == []
