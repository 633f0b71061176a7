"""The core's "seats that may move" hook (:class:`games.kinds.base.Progress`):
one seat on turn for the kinds that move in turns, several at once for a kind
that says so, and when a state opens a new turn (a deadline, "your turn")."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from games.kinds.base import Progress
from games.models import Game, Seat, movers_mask, moving_seats


def test_a_kind_that_moves_in_turns_has_its_turn_alone_to_move() -> None:
    assert Progress(5, 2, False, None).to_move == (2,)
    assert Progress(5, None, False, None).to_move == ()
    assert Progress(9, 1, True, "out").to_move == ()


def test_a_kind_may_name_several_seats_at_once() -> None:
    assert Progress(3, 0, False, None, movers=(0, 1), round=1).to_move == (0, 1)
    assert Progress(3, 0, True, "target", movers=(0, 1), round=1).to_move == ()


def test_one_seat_after_another_opens_a_turn_and_the_same_seat_again_does_not() -> None:
    before = Progress(4, 0, False, None)
    assert Progress(5, 1, False, None).opens_turn(before)
    assert not Progress(5, 0, False, None).opens_turn(before)
    assert Progress(1, 0, False, None).opens_turn(None)
    assert not Progress(6, None, True, "out").opens_turn(before)


def test_a_seat_of_a_simultaneous_turn_moving_opens_none() -> None:
    both = Progress(2, 0, False, None, movers=(0, 1), round=1)
    one_left = Progress(3, 1, False, None, movers=(1,), round=1)
    assert not one_left.opens_turn(both)


def test_a_new_round_opens_a_turn_for_every_seat_even_those_already_to_move() -> None:
    one_left = Progress(3, 1, False, None, movers=(1,), round=1)
    next_round = Progress(6, 0, False, None, movers=(0, 1), round=2)
    assert next_round.opens_turn(one_left)
    both = Progress(2, 0, False, None, movers=(0, 1), round=1)
    assert next_round.opens_turn(both)  # a deadline closed round 1 with nothing submitted


# --- the projection: the seats that may move, as the database has them ---------


def test_a_game_in_turns_marks_no_other_movers(started_game: Callable[..., Game]) -> None:
    game = started_game()
    assert game.other_movers == 0
    assert game.turn_seat is not None
    assert game.may_move(game.turn_seat)
    assert not game.may_move(1 - game.turn_seat)
    moving = moving_seats(Seat.objects.filter(game=game)).values_list("index", flat=True)
    assert list(moving) == [game.turn_seat]


def test_other_movers_may_move_on_the_dashboard_and_the_next_game_link(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    assert game.turn_seat is not None
    other = 1 - game.turn_seat
    Game.objects.filter(pk=game.pk).update(other_movers=movers_mask((0, 1), game.turn_seat))
    game.refresh_from_db()
    assert game.may_move(other)
    moving = moving_seats(Seat.objects.filter(game=game)).values_list("index", flat=True)
    assert sorted(moving) == [0, 1]
    user = game.seats.get(index=other).user
    assert user is not None
    client.force_login(user)
    assert "Your turn" in client.get(reverse("games:dashboard")).content.decode()
    response = client.get(reverse("games:next_game"))
    assert response["Location"] == reverse("games:game", args=[game.pk])


def test_the_mask_holds_the_movers_besides_the_seat_on_turn() -> None:
    assert movers_mask((2,), 2) == 0
    assert movers_mask((0, 1), 0) == 0b10
    assert movers_mask((1, 3), 1) == 0b1000
