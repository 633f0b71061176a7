"""Every kind's hints (every kind has robots to find them): stored for the
seat to move when its game has hints on, shown on that seat's page and no
waiting seat's, said in the kind's words for a ``hint`` reply; none stored
when the game has them off."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.coach import hints
from games.core.projection import current_state
from games.kinds.base import GameKind
from games.mail_in.hint_answers import hints_text
from games.models import Game
from tests import leaks

from .play import seat_user, signed_in, text, to_move

pytestmark = pytest.mark.django_db


def test_hints_are_stored_for_the_seat_to_move_and_shown_on_its_page(
    kind: GameKind, contract_game: Callable[..., Game]
) -> None:
    assert kind.robots is not None, f"{kind.label} has no robots"
    game = contract_game(hints=True)
    seat = to_move(game)
    assert leaks.prepare_hints(game) >= 1
    found = hints.find(game, seat)
    assert found, "a hint for a seat to move"
    client = signed_in(seat_user(game, seat))
    poll = client.get(f"/games/{game.pk}/hints/?seen={game.last_seq}", HTTP_HX_REQUEST="true")
    assert poll.status_code in (200, 204, 286)
    answer = hints_text(game, seat)
    assert len(answer.splitlines()) >= 2, answer
    page = text(client.get(f"/games/{game.pk}/"))
    assert page.count('class="suggestion"') == len(found)
    movers = kind.progress(current_state(game)).to_move
    for waiting in [s for s in range(game.seat_count) if s not in movers]:
        other = text(signed_in(seat_user(game, waiting)).get(f"/games/{game.pk}/"))
        assert 'class="suggestion"' not in other  # hints are the mover's alone


def test_without_hints_none_are_stored(contract_game: Callable[..., Game]) -> None:
    game = contract_game(hints=False)
    assert leaks.prepare_hints(game) == 0
