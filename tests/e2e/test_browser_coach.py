"""Hints and the analysis page in a real browser: axe-clean, no CSP refusal,
hints that appear by themselves once the task has stored them, and a hint
reached by keyboard, or chosen in any kind, fills the move field in place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.coach import hints
from games.models import Game
from tests.analysis.conftest import play_out
from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in
from tests.hints.test_hints_in_words import a_game_with_hints

pytestmark = pytest.mark.django_db(transaction=True)


def test_hints_open_by_keyboard_and_fill_the_move_field(
    live_server: Any, browser: Any, board_game: Callable[..., Game], csp: PolicyWatch
) -> None:
    game = board_game(hints=True)
    page = sign_in(browser, live_server.url, "ann@example.com", csp)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "being prepared" in page.inner_text("#hints")
    assert axe_violations(page) == ""
    assert hints.prepare(game.pk, 0, game.last_seq)  # the task, off the request
    page.wait_for_selector("#hints summary", timeout=10_000)  # the notice's poll brings them
    page.focus("#hints summary")
    page.keyboard.press("Enter")
    assert axe_violations(page) == ""
    first = page.locator("#hints button.suggestion").first
    first.focus()
    page.keyboard.press("Enter")
    assert page.input_value("#notation") == "1 S-T-R-A-N-G-E"


def test_the_analysis_page_is_axe_clean(
    live_server: Any, browser: Any, board_game: Callable[..., Game], csp: PolicyWatch
) -> None:
    game = play_out(board_game(claim_window=False))
    page = sign_in(browser, live_server.url, "ann@example.com", csp)
    assert page.goto(f"{live_server.url}/games/{game.pk}/analysis/").ok
    assert "Turn by turn" in page.inner_text("main")
    assert axe_violations(page) == ""


@pytest.mark.parametrize("kind", hints.hinted_kinds())
def test_a_hint_fills_the_compose_box_in_place_in_every_kind(
    live_server: Any,
    browser: Any,
    make_user: Callable[[str], User],
    csp: PolicyWatch,
    kind: str,
) -> None:
    """Choosing a hint puts its move in the move field of the same page (a
    Tumble-Words crossword as rows in its box), where it is previewed and can
    be sent: the page is not swapped for a bare preview."""
    game = a_game_with_hints(make_user, kind)
    seat = game.turn_seat
    assert seat is not None and hints.prepare(game.pk, seat, game.last_seq)
    user = game.seats.get(index=seat).user
    assert user is not None
    page = sign_in(browser, live_server.url, user.email, csp)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    page.click("#hints summary")
    button = page.locator("#hints button.suggestion").first
    fill = button.get_attribute("data-suggest")
    assert fill and not fill.startswith("submit ")
    with page.expect_response(lambda r: "/preview/" in r.url):  # the field's own preview
        button.click()
    assert page.input_value("#notation") == fill
    expect(page.locator("#notation")).to_be_focused()
    expect(page.locator("#preview")).not_to_contain_text("cannot be")
    expect(page.locator("#move-form button.primary")).to_be_visible()  # Send move, Hand in
    assert page.url == url and page.locator("#live #hints").count() == 1
    assert axe_violations(page) == ""
    assert csp.violations == []
