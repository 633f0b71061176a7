"""The way in (issue 29, point 10), in a real browser at a phone's width: the
home page presents every game with its How to play page, and each of those
pages (its drawn example HTML and CSS only) is axe-clean, within the
Content-Security-Policy and no wider than the screen; reached by keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games import kinds
from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_keyboard import tab_to

pytestmark = pytest.mark.django_db(transaction=True)


def fits(page: Any) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"{page.url} is {wide} px wide"


def test_from_the_home_page_to_each_games_page(
    live_server: Any, browser: Any, csp: PolicyWatch
) -> None:
    context = csp.watch(browser.new_context(viewport={"width": 390, "height": 844}))
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    for kind in kinds.all():
        expect(page.locator(".four-games")).to_contain_text(kind.label)
    assert axe_violations(page) == ""
    fits(page)
    for kind in kinds.all():
        page.goto(f"{live_server.url}/")
        tab_to(page, f".four-games a[href='/how-to-play/{kind.name}/']")
        page.keyboard.press("Enter")
        page.wait_for_url(f"**/how-to-play/{kind.name}/")
        expect(page.locator("h1")).to_have_text(f"How to play {kind.label}")
        expect(page.locator("figure.htp-figure").first).to_be_visible()
        assert axe_violations(page) == ""
        fits(page)
    page.goto(f"{live_server.url}/how-to-play/")
    assert axe_violations(page) == ""
    fits(page)
    assert csp.violations == []
