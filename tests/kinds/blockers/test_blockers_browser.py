"""In a browser (Playwright drives Debian's chromium): a move of Blockers made
by keyboard alone with the move widget (a rack tile, then a square reached
with the arrow keys), previewed and sent; the game page axe-clean and within
the site's Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

from .conftest import pile

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_by_keyboard_alone_on_an_axe_clean_page(
    live_server: Any,
    browser: Any,
    rigged_blockers: Callable[..., Game],
    csp: PolicyWatch,
) -> None:
    game = rigged_blockers([pile("1", "2", "3", "4", "5"), pile("A", "B", "C", "D", "E"),
                            pile("6", "7", "8", "9", "F")])  # fmt: skip
    base = live_server.url
    page = sign_in(browser, base, "ann@example.com", csp)
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("[data-bk-help]")).to_be_visible()  # the script is at work
    assert axe_violations(page) == ""

    page.locator('[data-pick-tile="1"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-pick-tile="1"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-pick-square="E5"]')).to_be_focused()
    for key in ["ArrowLeft"] * 4 + ["ArrowUp"] * 4:
        page.keyboard.press(key)
    expect(page.locator('[data-pick-square="A1"]')).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator("#notation")).to_have_value("1 at A1")
    expect(page.locator("#preview")).to_contain_text("Place the 1 on the empty square A1.")
    page.locator("#notation").focus()
    page.keyboard.press("Tab")  # to Preview, then to Send move
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Send move")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".log-list")).to_contain_text("placed the 1 at A1.")
    game.refresh_from_db()
    assert game.last_seq == 2 and game.turn_seat == 1
    assert axe_violations(page) == ""
    assert csp.violations == []
