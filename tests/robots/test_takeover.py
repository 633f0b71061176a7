"""Takeover: a robot takes the seat of a player who resigns or is removed for
timeouts, when the game says so; otherwise the seat drops out as before."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
import time_machine

from games.core import timeouts
from games.core.door import submit
from games.core.projection import current_state
from games.kinds.jumbulaya.log_words import game_log
from games.mail_out.emails import message_for
from games.models import Event, Game, Notification, RobotTurn, SeatChange
from games.robots import turns

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


def test_a_robot_takes_the_seat_of_a_player_who_resigns(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(players=3, takeover_level="casual")
    seat = game.turn_seat
    assert seat is not None
    leaver = game.seats.get(index=seat).user
    assert leaver is not None
    done = submit(game.pk, leaver, "resign", game.last_seq, Event.Source.WEB)
    assert done.events == []
    assert not Event.objects.filter(game=game, type="resigned").exists()
    game.refresh_from_db()
    holder = game.seats.get(index=seat).user
    assert holder is not None and holder.robot_level == "casual"
    change = SeatChange.objects.get(game=game)
    assert (change.seat, change.left, change.reason) == (seat, leaver, "resigned")
    log = [entry.words for entry in game_log(game)]
    assert f"{leaver.public_name} resigned; Robot Casual took the seat." in log
    # It was the seat's turn: the robot plays it.
    assert RobotTurn.objects.filter(game=game, seat=seat, seq=game.last_seq).exists()
    assert turns.sweep() == 1
    game.refresh_from_db()
    assert game.turn_seat != seat
    # The next email of a player who stays tells them.
    other = game.seats.get(index=game.turn_seat).user
    note = Notification.objects.filter(game=game, user=other).order_by("-pk").first()
    assert note is not None
    message = message_for(note)
    assert message is not None
    assert "resigned; Robot Casual took the seat." in str(message.body)


def test_a_robot_takes_the_seat_of_a_player_removed_for_timeouts(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=2, move_hours=24, timeout_limit=1, takeover_level="casual")
        late = game.turn_seat
        assert late is not None
        score_before = current_state(game).scores()[late]
        assert game.deadline_at is not None
        clock.move_to(game.deadline_at)
        assert timeouts.sweep_deadlines() == 1  # the timeout; no removal
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    holder = game.seats.get(index=late).user
    assert holder is not None and holder.is_robot
    assert current_state(game).in_game(late)
    assert current_state(game).scores()[late] == score_before
    assert SeatChange.objects.get(game=game).reason == "timeouts"
    assert not Notification.objects.filter(game=game, kind="removed").exists()


def test_without_takeover_the_seat_drops_out(started_game: Callable[..., Game]) -> None:
    game = started_game(players=3)
    seat = game.turn_seat
    assert seat is not None
    submit(game.pk, seat, "resign", game.last_seq, Event.Source.WEB)
    assert Event.objects.filter(game=game, type="resigned").exists()
    assert not SeatChange.objects.exists()
    holder = game.seats.get(index=seat).user
    assert holder is not None and not holder.is_robot
