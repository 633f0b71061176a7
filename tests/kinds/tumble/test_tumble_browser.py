"""In a browser (Playwright drives Debian's chromium): a round of
Tumble-Words played by keyboard alone (the crossword typed as rows, its
preview read, handed in), then revealed; every page axe-clean and within the
site's Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.core import door
from games.models import Event, Game
from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

from .conftest import ANN_CROSSWORD, ANN_POINTS, BOB_POINTS

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_round_by_keyboard_alone_on_axe_clean_pages(
    live_server: Any, browser: Any, tumble_game: Callable[..., Game], csp: PolicyWatch
) -> None:
    game = tumble_game()
    base = live_server.url
    page = sign_in(browser, base, "ann@example.com", csp)
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator(".tw-roll").first).to_contain_text("red")
    assert axe_violations(page) == ""

    page.locator("#notation").focus()
    for i, row in enumerate(ANN_CROSSWORD):
        if i:
            page.keyboard.press("Enter")
        page.keyboard.type(row)
    expect(page.locator("#preview")).to_contain_text(f"This crossword scores {ANN_POINTS} points.")
    expect(page.locator("#preview")).to_contain_text("CAPED (across, one colour): 10 points")
    page.keyboard.press("Tab")  # to Preview, then to Hand in
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Hand in")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".tw-sealed")).to_contain_text(
        f"You have handed in a crossword scoring {ANN_POINTS}"
    )
    assert axe_violations(page) == ""

    game.refresh_from_db()
    door.submit(game.pk, 1, "submit HERB", game.last_seq, Event.Source.WEB)
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator(".tw-history")).to_contain_text(f"Bob: {BOB_POINTS} points")
    expect(page.locator("h2#board-title")).to_have_text("Round 2")
    assert axe_violations(page) == ""
    assert csp.violations == []
