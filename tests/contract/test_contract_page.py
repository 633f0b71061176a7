"""The game page of every kind: a player sees their own hand and the move
form and makes a move; a spectator sees the game and no hand; a player who
left sees the game read-only (to a robot when the kind has robots)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games import kinds
from games.core import door
from games.kinds.base import GameKind
from games.models import Event, Game
from tests import leaks

from .play import a_move, move_form, seat_user, signed_in, text, to_move

pytestmark = pytest.mark.django_db


def test_a_player_sees_their_hand_previews_and_moves(contract_game: Callable[..., Game]) -> None:
    game = contract_game()
    seat = to_move(game)
    client = signed_in(seat_user(game, seat))
    base = f"/games/{game.pk}/"
    page = text(client.get(base))
    assert 'id="move-form"' in page
    assert leaks.shows_own_hand(game, client, seat)
    move = a_move(game, seat)
    preview = client.post(f"{base}preview/", {"notation": move})
    assert preview.status_code == 200
    made = client.post(f"{base}move/", move_form(game, move, f"page-{seat}"))
    assert made.status_code == 302, text(made)
    assert game.events.count() == 2
    assert game.events.order_by("seq").last().source == Event.Source.WEB  # type: ignore[union-attr]


def test_a_spectator_sees_the_game_and_no_hand(
    contract_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = contract_game(is_public=True)
    page = text(signed_in(make_user("eve")).get(f"/games/{game.pk}/"))
    assert "You are watching this game." in page
    assert 'id="move-form"' not in page
    assert not leaks.HAND.findall(page)
    assert not leaks.leaks(page, leaks.hands(game))


def test_a_player_who_left_sees_the_game_read_only(
    kind: GameKind, contract_game: Callable[..., Game]
) -> None:
    rungs = kinds.robot_levels(kind)
    players = max(3, kind.min_players) if kind.max_players >= 3 else kind.min_players
    game = contract_game(players=players, takeover_level=rungs[0] if rungs else "")
    leaver = seat_user(game, 1)
    door.submit(game.pk, 1, "resign", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    page = text(signed_in(leaver).get(f"/games/{game.pk}/"))
    assert 'id="move-form"' not in page
    others = {s: hand for s, hand in leaks.hands(game).items() if s != 1}
    assert not leaks.leaks(page, others)
    if rungs:  # a robot took the seat, and the page says so
        holder = seat_user(game, 1)
        assert holder.robot_level == rungs[0]
        assert "left-game" in page and holder.public_name in page
    else:
        assert "You resigned from this game." in page
