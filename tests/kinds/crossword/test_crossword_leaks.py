"""The leak scan (tests/leaks.py) over a crossword game: no page or email for
one viewer (a seat or a spectator) shows another seat's rack, after a play, an
exchange and a pass, with the previews of a few moves and a refused one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from accounts.models import User
from games.core import door
from games.mail_out import outbox
from games.models import Event, Game
from tests import leaks
from tests.contract.play import signed_in, viewers_of


def test_no_page_or_email_shows_another_seat_s_rack(
    xw_game: Callable[..., Game], make_user: Callable[[str], User], mailoutbox: list[Any]
) -> None:
    game = xw_game(["JESUSAT", "DOGCATE", "RAINBOW"], is_public=True, hints=True)
    for seat, move in ((0, "8H JESUS"), (1, "exchange DOG"), (2, "pass")):
        game.refresh_from_db()
        door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    outbox.sweep()
    viewers = viewers_of(game, make_user("eve"))
    hidden = leaks.hands(game)
    assert all(len(rack) == 7 for rack in hidden.values())
    assert leaks.shows_own_hand(game, signed_in(viewers[0]), 0)
    assert leaks.prepare_hints(game) == 1  # the seat to move's, shown on its page alone
    read = leaks.scan(game, viewers, moves=("8A QQQ",))
    # Three "started" and Ann's "your turn" (her first turn's was not sent: by the time
    # it went a newer one of this game was owed her, which says it).
    assert read > 4 * 5 and len(mailoutbox) >= 4
    # The scan finds a rack where one is shown.
    bob = " ".join(hidden[1])
    assert leaks.leaks(f"<p>{bob}</p>", {1: hidden[1]}) == ["seat 1's hand as text"]
    assert leaks.leaks('<p data-rack="1">', {1: hidden[1]}) == ["seat 1's hand in markup"]
