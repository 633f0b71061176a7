"""Hints and the analysis page in a real browser: axe-clean, no CSP refusal,
hints that appear by themselves once the task has stored them, and a hint
reached by keyboard fills the move field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.coach import hints
from games.models import Game
from tests.analysis.conftest import play_out
from tests.e2e.conftest import PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

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
