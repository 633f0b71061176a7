"""Every way a rated game can end rates it, once, in the transaction that ends
it: a move (tests/ratings/test_ratings.py), a seat removed after too many
timeouts, a robot that took over a resigned seat ending the game, a claim
window closing with a JUMBULAYA, a JUMBULAYA sealed before a move that would
have ended the game, and a projection rewritten from the log
(``manage.py rebuild_games``).  Each of these goes through the one door
(``services.submit``) but the last, which rates the game itself."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import time_machine
from django.core.management import call_command
from django.db.models import Count
from django.utils import timezone

from games.core import timeouts, windows
from games.core.door import submit
from games.models import Event, Game, SeatChange
from ratings.models import Rating, RatingChange
from ratings.rating import rate_game
from tests.conftest import CLAIM_THE_BOARD

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
ANN, BOB = 0, 1


def ranks(game: Game) -> dict[int, tuple[int, str]]:
    """Seat: (place, the rated player's name)."""
    return {
        r.seat: (r.rank, r.user.display_name)
        for r in RatingChange.objects.filter(game=game).select_related("user")
    }


def rated_once(game: Game) -> None:
    """The game's changes were written once, one per seat, and processing the
    ending again (the step, the command) writes nothing more."""
    counts = RatingChange.objects.filter(game=game).values("seat").annotate(n=Count("pk"))
    assert sorted((c["seat"], c["n"]) for c in counts) == [(i, 1) for i in range(game.seat_count)]
    games_before = sorted(Rating.objects.values_list("user_id", "games"))
    assert rate_game(game) is False
    call_command("rate_games")
    assert sorted(Rating.objects.values_list("user_id", "games")) == games_before


def play_in_turn(game: Game, moves: list[str]) -> None:
    for move in moves:
        game.refresh_from_db()
        assert game.turn_seat is not None
        submit(game.pk, game.turn_seat, move, game.last_seq, Event.Source.WEB)


def test_a_seat_removed_after_too_many_timeouts_ends_and_rates_the_game(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=2, move_hours=24, timeout_limit=1, rated=True)
        late = game.turn_seat
        assert late is not None
        assert game.deadline_at is not None
        clock.move_to(game.deadline_at)
        assert timeouts.sweep_deadlines() == 2  # the timeout and the removal
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "resigned"
    assert ranks(game)[late][0] == 2 and ranks(game)[1 - late][0] == 1
    rated_once(game)


def test_a_robot_that_took_over_a_resigned_seat_ends_the_game_and_the_leaver_is_rated(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(players=2, takeover_level="casual", rated=True)
    submit(game.pk, BOB, "resign", game.last_seq, Event.Source.WEB)  # a robot takes the seat
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and SeatChange.objects.filter(game=game).exists()
    assert not RatingChange.objects.exists()
    robot = game.seats.get(index=BOB).user
    assert robot is not None and robot.is_robot
    # The robot resigns in its turn (a robot's resignation is not taken over).
    submit(game.pk, BOB, "resign", game.last_seq, Event.Source.ROBOT)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert ranks(game) == {ANN: (1, "Ann"), BOB: (2, "Bob")}  # Bob, who left: not the robot
    assert not Rating.objects.filter(user=robot).exists()
    rated_once(game)


def opened_window(board_game: Callable[..., Game]) -> Game:
    game = board_game(rated=True)
    play_in_turn(game, CLAIM_THE_BOARD)
    game.refresh_from_db()
    assert game.window_closes_at is not None and game.turn_seat == BOB
    return game


def test_a_claim_window_closing_with_a_jumbulaya_rates_the_game(
    board_game: Callable[..., Game],
) -> None:
    game = opened_window(board_game)
    submit(game.pk, BOB, "pass", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    submit(game.pk, BOB, "jumbulaya SPRINTS", game.last_seq, Event.Source.WEB)  # sealed: off turn
    assert not RatingChange.objects.exists()
    Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now() - timedelta(seconds=1))
    assert windows.close_windows() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    assert ranks(game)[BOB][0] == 1
    rated_once(game)


def test_a_resignation_with_a_sealed_jumbulaya_pending_rates_the_game_once(
    board_game: Callable[..., Game],
) -> None:
    game = opened_window(board_game)
    submit(game.pk, ANN, "jumbulaya SPRINTS", game.last_seq, Event.Source.WEB)  # sealed
    # Bob resigns, which ends the game: a resignation is always made, and Ann's
    # call is never judged.
    done = submit(game.pk, BOB, "resign", game.last_seq, Event.Source.WEB)
    assert not done.overtaken
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "resigned"
    assert ranks(game) == {ANN: (1, "Ann"), BOB: (2, "Bob")}
    rated_once(game)


def test_a_projection_rewritten_from_the_log_rates_the_game_it_finds_over(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(players=2, rated=True)
    submit(game.pk, ANN, "resign", game.last_seq, Event.Source.WEB)
    # A projection left behind by an ending written outside the one door: the
    # log says over, the row says playing, and nothing was rated.
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING, finished_at=None)
    call_command("rebuild_games")
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert ranks(game) == {ANN: (2, "Ann"), BOB: (1, "Bob")}
    rated_once(game)
    call_command("rebuild_games")  # nothing differs now: nothing more is rated
    rated_once(game)


def test_a_rewrite_of_a_casual_game_rates_nothing(started_game: Callable[..., Game]) -> None:
    game = started_game(players=2)
    submit(game.pk, ANN, "resign", game.last_seq, Event.Source.WEB)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)
    call_command("rebuild_games")
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and not RatingChange.objects.exists()
