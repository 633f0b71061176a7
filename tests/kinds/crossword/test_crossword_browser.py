"""In a browser (Playwright drives Debian's chromium): a crossword word placed
on the board by keyboard alone and sent, the preview showing its score on the
way; axe-core finds no violation on the game page; no script breaks the
Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.engine.crossword.state import state_from_json
from games.models import Game
from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def tab_to(page: Any, selector: str, most: int = 80) -> None:
    """Press Tab until the element ``selector`` names has the focus."""
    for _ in range(most):
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_word_placed_by_keyboard_alone_is_previewed_and_sent(
    live_server: Any,
    browser: Any,
    csp: PolicyWatch,
    xw_game: Callable[..., Game],
) -> None:
    game = xw_game(["JESUSAT", "DOGCATE"])
    base = live_server.url
    page = sign_in(browser, base, "ann@example.com", csp)
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("[data-xw-composer]")).to_be_visible()  # the script did its work
    assert axe_violations(page) == ""

    # The board takes the focus once, on the centre square; arrows move it.
    tab_to(page, 'td[data-square="8H"]')
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # the first square: 8H, across
    page.keyboard.type("JESUS")
    expect(page.locator("#notation")).to_have_value("8H JESUS")
    expect(page.locator("[data-xw-status]")).to_have_text("From 8H across: J E S U S")
    expect(page.locator("#preview")).to_contain_text("Play 8H JESUS: 41 points.")
    page.keyboard.press("Backspace")
    expect(page.locator("#notation")).to_have_value("8H JESU")
    page.keyboard.type("S")

    tab_to(page, "[data-xw-send]")
    with page.expect_response(lambda r: r.request.method == "POST" and "/move/" in r.url):
        page.keyboard.press("Enter")
    expect(page.locator("#live")).to_contain_text("Ann played 8H JESUS for 41 points")
    game.refresh_from_db()
    assert game.state is not None
    assert state_from_json(game.state).points == (41, 0)
    assert axe_violations(page) == ""
    assert csp.violations == []
