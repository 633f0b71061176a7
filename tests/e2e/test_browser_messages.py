"""Messages, the score chart and the players' pages in a real browser: a
message sent by keyboard alone shows in the log, escaped; axe-core finds
nothing wrong with the game page holding messages and the chart, a player's
page and the leaderboard; no request fails and no policy is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.core import chat
from games.core.door import submit
from games.models import Game, Message
from tests.conftest import CANARY_LINES, CANARY_RACKS
from tests.e2e.conftest import PageWatch, PolicyWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_message_sent_by_keyboard_alone_and_the_pages_axe_clean(
    live_server: Any,
    browser: Any,
    rigged_game: Callable[..., Game],
    csp: PolicyWatch,
    problems: PageWatch,
) -> None:
    game = rigged_game(CANARY_LINES, CANARY_RACKS, players=3, rated=True)
    for seat, move in [(0, "pass"), (1, "1 CATS")]:
        game.refresh_from_db()
        submit(game.pk, seat, move, game.last_seq, "web")
    chat.post_message(game.pk, 1, "Nice <b>board</b>", Message.Source.WEB)
    page = sign_in(browser, live_server.url, "ann@example.com", csp)
    problems.watch(page.context)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # Tab to the message box, type, Tab to its button, Enter.
    page.focus("#notation")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "say-text":
            break
    assert page.evaluate("document.activeElement.id") == "say-text"
    page.keyboard.type("Well played <i>Bob</i>")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Send message"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    log = page.inner_text("section.log")
    assert "Well played <i>Bob</i>" in log and "Nice <b>board</b>" in log
    assert Message.objects.filter(text="Well played <i>Bob</i>").exists()
    assert page.locator("figure[data-chart='scores'] svg polyline").count() == 3
    assert axe_violations(page) == ""
    page.locator("figure[data-chart='scores'] summary").click()
    assert axe_violations(page) == ""
    bob = game.seats.get(index=1).user
    assert bob is not None
    for path in (f"/players/{bob.pk}/", "/leaderboard/jumbulaya/"):
        assert page.goto(f"{live_server.url}{path}").ok
        assert axe_violations(page) == "", path
    # A finished game's player page draws a rating history.
    for seat in (2, 0):
        game.refresh_from_db()
        submit(game.pk, seat, "resign", game.last_seq, "web")
    page.goto(f"{live_server.url}/players/{bob.pk}/")
    assert page.locator("figure[data-chart^='rating-'] svg polyline").count() == 1
    assert axe_violations(page) == ""
    assert csp.violations == [] and problems.problems == []
