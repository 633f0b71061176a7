"""The leak scan (tests/leaks.py) over a game of Blockers: no page or email
for one viewer shows another seat's rack, nor any pile.

Tiles repeat across colours (every colour has a 7) and lie face up on the
board and among the captured tiles, so a single face in markup proves
nothing: the scan runs without ``unique`` (as for JUMBULAYA's tiles), and
this kind's own check is that only the viewer's own rack is marked
``data-tile``: a page holds exactly its own rack's tiles so marked, a
spectator's none.  Piles are never shown but as counts: the scan also looks
for each pile's next tiles as a run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from accounts.models import User
from games.core import door, projection
from games.mail_out import outbox
from games.models import Event, Game
from tests import leaks
from tests.contract.play import signed_in, viewers_of


def test_no_page_or_email_shows_another_seat_s_rack_or_a_pile(
    blockers_game: Callable[..., Game], make_user: Callable[[str], User], mailoutbox: list[Any]
) -> None:
    game = blockers_game(players=4, is_public=True, hints=True)
    for _ in range(6):  # a round and a half: tiles placed are public, racks are not
        game.refresh_from_db()
        seat = game.turn_seat
        assert seat is not None
        move = leaks.legal_moves(game, seat)[0]
        door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    outbox.sweep()
    viewers = viewers_of(game, make_user("eve"))
    hidden = leaks.hands(game)
    assert all(len(rack) == 5 for rack in hidden.values())
    assert leaks.shows_own_hand(game, signed_in(viewers[0]), 0)
    assert leaks.prepare_hints(game) == 1  # the seat to move's, shown on its page alone
    read = leaks.scan(game, viewers, moves=("9 at A1", "not a move"))
    assert read > 5 * 10 and len(mailoutbox) >= 4

    state = projection.current_state(game)
    piles = {s: tuple(state.piles[s][:4]) for s in range(4)}
    for seat, user in viewers.items():
        own = len(hidden[seat]) if seat is not None else 0
        for what, text in leaks.pages(game, signed_in(user), seat):
            for s, front in piles.items():
                runs = [sep.join(front) for sep in leaks.SEPARATORS]
                assert not any(run in text for run in runs), f"{what} for {seat}: pile {s}"
            if what.startswith("page"):
                marked = re.findall(r'data-tile="[^"]*"', text)
                assert len(marked) == own, f"{what} for seat {seat}: tiles marked {marked}"
