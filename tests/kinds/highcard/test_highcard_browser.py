"""In a browser (Playwright drives Debian's chromium): the create page's choice
of game by keyboard, the chosen game's rules shown and sent, the other game's
hidden; then the game of high card created and its page, axe-clean."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.kinds.base import GameKind
from games.models import Game
from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_choosing_a_game_by_keyboard_shows_its_rules_and_creates_it(
    live_server: Any,
    browser: Any,
    highcard: GameKind,
    csp: PolicyWatch,
) -> None:
    base = live_server.url
    User.objects.create_user(username="ann", email="ann@example.com", display_name="Ann")
    page = sign_in(browser, base, "ann@example.com", csp)
    page.goto(f"{base}/games/new/")
    jumbulaya = page.locator('[data-kind-options="jumbulaya"]')
    cards = page.locator('[data-kind-options="highcard"]')
    expect(jumbulaya).to_be_visible()
    expect(cards).to_be_hidden()
    expect(page.locator("[data-show-kind]")).to_be_hidden()  # the script does its work

    page.locator('#create-game input[name=kind][value="jumbulaya"]').focus()
    # Radio buttons: the arrow chooses the next game (the crossword game, Blockers,
    # Tumble-Words, high card).
    page.keyboard.press("ArrowDown")
    expect(page.locator('#create-game input[name=kind][value="crossword"]')).to_be_checked()
    page.keyboard.press("ArrowDown")
    expect(page.locator('#create-game input[name=kind][value="blockers"]')).to_be_checked()
    page.keyboard.press("ArrowDown")
    expect(page.locator('#create-game input[name=kind][value="tumble"]')).to_be_checked()
    page.keyboard.press("ArrowDown")
    expect(page.locator('#create-game input[name=kind][value="highcard"]')).to_be_checked()
    expect(cards).to_be_visible()
    expect(jumbulaya).to_be_hidden()
    expect(page.get_by_label("Cards in each hand")).to_have_value("5")
    # The other preset refills the options left as shown.
    page.locator('[data-kind-options="highcard"] [name=preset]').select_option("quick")
    expect(page.get_by_label("Cards in each hand")).to_have_value("3")
    assert axe_violations(page) == ""

    page.get_by_label("Invite friends by email").fill("bob@example.com")
    page.click("#create-game button.primary")
    page.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get()
    assert game.kind == "highcard" and game.rules == {"preset": "quick"}
    assert "Waiting for players" in page.inner_text("main")
    assert csp.violations == []
