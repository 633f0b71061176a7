"""One click to a game against a robot, in a real browser and by keyboard
alone: from the home page (a visitor is asked to sign in first), from the
dashboard, and from the new-game page with its levels explained per game.
axe-core checks each page, and none is wider than a 390-px screen."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game
from tests.e2e.conftest import PageWatch
from tests.e2e.test_browser_game import sign_in
from tests.e2e.test_browser_keyboard import clean, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


def fits(page: Any) -> None:
    """The page scrolls no way but down."""
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"{page.url} is {wide} px wide"


def test_one_click_to_a_robot_game_by_keyboard(
    live_server: Any,
    browser: Any,
    make_user: Callable[[str], User],
    problems: PageWatch,
) -> None:
    base = live_server.url
    make_user("ann")

    # A visitor: the home page offers every game; a button asks them to sign in first.
    visitor = problems.watch(browser.new_context(viewport={"width": 390, "height": 844}))
    home = visitor.new_page()
    home.goto(f"{base}/")
    clean(home)
    fits(home)
    tab_to(home, ".play-now form:has(input[value='tumble']) button")
    home.keyboard.press("Enter")
    home.wait_for_url(re.compile(r"/account/sign-in/"))
    assert unquote(home.url).endswith("next=/games/new/?robot=tumble")
    assert not Game.objects.exists()

    # Signed in: one keypress on the dashboard starts a game of Blockers.
    page = sign_in(browser, base, "ann@example.com", problems)  # type: ignore[arg-type]
    clean(page)
    fits(page)
    tab_to(page, ".play-now form:has(input[value='blockers']) button")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert (game.kind, game.status) == ("blockers", Game.Status.PLAYING)
    expect(page.locator("main")).to_contain_text("Robot Casual")

    # The new-game page: what each level means in each game, and a game chosen by keyboard.
    page.goto(f"{base}/games/new/")
    tab_to(page, "#play-robot summary")
    page.keyboard.press("Enter")
    expect(page.locator("#play-robot details")).to_have_attribute("open", "")
    expect(page.locator("#play-robot details")).to_contain_text("Tumble-Words has no Club robot.")
    clean(page)
    # (The rest of the new-game page is issue 29's point 12: the robot form fits.)
    box = page.locator("#play-robot").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    page.goto(f"{base}/games/new/?robot=tumble")
    tab_to(page, "#play-robot button.primary")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    made = Game.objects.exclude(pk=game.pk).get()
    assert made.kind == "tumble"
    seated = made.seats.get(index=1).user
    assert seated is not None and seated.public_name == "Robot Casual"
    assert problems.problems == []


def test_a_player_resigns_to_a_robot_and_keeps_the_game_by_keyboard(
    live_server: Any,
    browser: Any,
    started_game: Callable[..., Game],
    problems: PageWatch,
) -> None:
    base = live_server.url
    game = started_game(players=2, takeover_level="casual")
    page = sign_in(browser, base, "bob@example.com", problems)  # type: ignore[arg-type]
    page.goto(f"{base}/games/{game.pk}/")
    tab_to(page, "button[data-move='resign']")
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-title")).to_have_text("Resign from this game?")
    expect(page.locator(".confirm-note")).to_contain_text("Robot Casual will take your seat")
    expect(page.locator("#confirm")).not_to_contain_text("This ends the game")
    clean(page)
    tab_to(page, "#confirm button.danger")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.keyboard.press("Enter")
    left = "You resigned from this game, and Robot Casual took your seat"
    expect(page.locator("#live")).to_contain_text(left)
    page.reload()
    expect(page.locator("main")).to_contain_text(left)
    expect(page.locator("main")).to_contain_text("Bob resigned; Robot Casual took the seat.")
    assert page.locator("#move-form").count() == 0
    clean(page)
    fits(page)
    page.goto(f"{base}/dashboard/")
    expect(page.locator("#finished")).to_contain_text(
        "You resigned, and Robot Casual took your seat"
    )
    clean(page)
    assert problems.problems == []
