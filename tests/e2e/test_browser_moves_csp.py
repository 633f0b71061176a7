"""A move sent from the game page of every kind breaks nothing of the
Content-Security-Policy (issue 29, point 14): the page is swapped by htmx,
whose settling copied an old element's style attribute onto its new twin with
setAttribute, which the policy's style-src refuses; the browser gives a text
box a style attribute when the player resizes it by its corner, so each move
sent after that logged "Applying inline style violates ... Content Security
Policy"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games import kinds
from games.core.projection import current_state, game_lexicon, kind_of
from games.models import Game
from tests.e2e.conftest import PolicyWatch
from tests.e2e.test_browser_game import post, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def a_move(game: Game, seat: int) -> str:
    """A legal move of ``seat`` that plays something (not a pass nor a resignation)
    when there is one, in the kind's notation."""
    kind = kind_of(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    moves = kind.legal_moves(current_state(game), seat, lexicon)
    playing = [m for m in moves if kind.verb_of(m) not in {"pass", "resign", "exchange"}]
    return (playing or moves)[0]


def as_typed(kind: str, move: str) -> str:
    """What a player types in the compose box: a Tumble-Words crossword as rows."""
    return move.removeprefix("submit ").replace("/", "\n") if kind == "tumble" else move


def resize(page: Any, selector: str) -> None:
    """Drag a text box's corner, as a player does to see more of it."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] - 3, box["y"] + box["height"] - 3)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 3, box["y"] + box["height"] + 60, steps=5)
    page.mouse.up()
    assert "height" in (page.get_attribute(selector, "style") or ""), "the box was not resized"


@pytest.mark.parametrize("kind", [k.name for k in kinds.all()])
def test_a_move_sent_after_resizing_a_box_logs_no_policy_violation(
    live_server: Any,
    browser: Any,
    started_game: Callable[..., Game],
    csp: PolicyWatch,
    kind: str,
) -> None:
    shape = kinds.get(kind)
    rules = next(iter(shape.presets.values()))
    game = started_game(players=max(2, shape.min_players), kind=kind, rules=rules)
    seat = shape.progress(current_state(game)).to_move[0]
    user = game.seats.get(index=seat).user
    assert user is not None
    page = sign_in(browser, live_server.url, user.email, csp)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    resize(page, "#say-text")
    if page.locator("textarea#notation").count():
        resize(page, "textarea#notation")
    page.fill("#notation", as_typed(kind, a_move(game, seat)))
    post(page, "#move-form button.primary")
    expect(page.locator("#live")).not_to_have_attribute("data-seq", str(game.last_seq))
    game.refresh_from_db()
    assert game.last_seq > 1, "the move was not made"
    assert csp.violations == []
