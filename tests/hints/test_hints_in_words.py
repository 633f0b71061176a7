"""Every kind's hints on the game page are shown as the game shows moves, not
in the notation behind them (JUMBULAYA's ``STRANGE on line 1``, Blockers'
``the 7 at C7``, a Tumble-Words crossword drawn as the board draws one; the
crossword game's plays as its log writes them, ``8H FACTS``), and using one
puts in the move field what the player would type there: a move the page's
preview takes, for the seat's own position."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games import kinds
from games.coach import hints
from games.core.lobby import create_game, join_game
from games.models import Game

pytestmark = pytest.mark.django_db

#: How each kind's hint reads on the page (the button's text).
IN_WORDS = {
    "jumbulaya": r"[A-Z]+ on line [1-9]",
    "crossword": r"(?:1[0-5]|[1-9])[A-O] \S+|[A-O](?:1[0-5]|[1-9]) \S+",
    "blockers": r"the (?:letter [A-Z]|symbol S\d|\d|wild) at [A-Z]\d+",
    "tumble": r"Use this crossword",
}


def a_game_with_hints(make_user: Callable[[str], User], kind: str) -> Game:
    game_kind = kinds.get(kind)
    users = [make_user(n) for n in ("ann", "bob", "cy")[: max(2, game_kind.min_players)]]
    game = create_game(
        users[0],
        kind=kind,
        seat_count=len(users),
        rules=next(iter(game_kind.presets.values())),
        invite_emails=[u.email for u in users[1:]],
        hints=True,
    )
    for user in users[1:]:
        join_game(game.pk, user)
    game.refresh_from_db()
    return game


@pytest.mark.slow
@pytest.mark.parametrize("kind", hints.hinted_kinds())
def test_hints_read_as_moves_and_fill_the_move_field(
    make_user: Callable[[str], User], kind: str
) -> None:
    game = a_game_with_hints(make_user, kind)
    seat = game.turn_seat
    assert seat is not None
    assert hints.prepare(game.pk, seat, game.last_seq)
    now = hints.hints_now(game, seat)  # what the page shows (a search in time may vary)
    assert now is not None and now.hints, "a fresh deal has a move to suggest"
    stored = now.hints
    user = game.seats.get(index=seat).user
    assert user is not None
    client = Client()
    client.force_login(user)
    page = html.unescape(client.get(f"/games/{game.pk}/").content.decode())
    shown = page[page.index('id="hints"') : page.index('id="preview"')]
    buttons = re.findall(r'data-suggest="([^"]*)">([^<]*)</button>', shown)
    assert len(buttons) == len(stored)
    for (fill, words), hint in zip(buttons, stored, strict=True):
        assert re.fullmatch(IN_WORDS[kind], words), words
        if kind != "crossword":  # its log writes plays in the notation
            assert words != hint.notation
        previewed = client.post(f"/games/{game.pk}/preview/", {"notation": fill})
        preview = html.unescape(previewed.content.decode())
        assert previewed.status_code == 200 and "cannot be" not in preview, preview
        assert str(hint.points) in preview
    if kind == "tumble":  # the crossword itself, drawn
        said = re.sub(r"<[^>]+>", " ", shown)
        assert '<table class="tw-grid">' in shown
        assert stored[0].notation.partition(" ")[2] not in said and "submit " not in said
