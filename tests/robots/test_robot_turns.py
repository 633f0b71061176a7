"""Robot players in the service: their accounts, their turns owed like emails
and played through the one door, never lost nor played twice, and no email."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine

from accounts.models import User
from games import tasks
from games.core import door, lobby, timeouts
from games.engine.errors import Refusal
from games.engine.jumbulaya import PRESETS, robots
from games.kinds.jumbulaya.robots import JumbulayaRobots
from games.models import Event, Game, Notification, RobotTurn
from games.robots import owed, turns

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


def robot(level: str = "casual") -> User:
    found = owed.robot(level)
    assert found is not None
    return found


def human_vs_robot(make_user: Callable[[str], User], **options: Any) -> tuple[Game, User]:
    ann = make_user("ann")
    game = lobby.create_game(
        ann, seat_count=2, rules=PRESETS["official"], robots=["casual"], **options
    )
    game.refresh_from_db()
    return game, ann


def human_moves(game: Game, ann: User) -> None:
    """Ann passes until it is the robot's turn (she may be first)."""
    game.refresh_from_db()
    if game.turn_seat == 0:
        door.submit(game.pk, ann, "pass", game.last_seq, Event.Source.WEB)
        game.refresh_from_db()


def robot_events(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game, source=Event.Source.ROBOT))


def test_every_level_has_its_robot_account() -> None:
    for level in robots.LEVELS:
        account = robot(level)
        assert account.is_robot and not account.is_active
        assert not account.has_usable_password()
        assert account.email.endswith("@robots.invalid")
        assert account.display_name == f"Robot {level.title()}"


def test_robots_are_seated_at_once_and_the_game_starts(make_user: Callable[[str], User]) -> None:
    game, ann = human_vs_robot(make_user)
    assert game.status == Game.Status.PLAYING
    assert [s.user for s in game.seats.order_by("index")] == [ann, robot()]


def test_a_robot_turn_is_owed_in_the_moves_transaction(make_user: Callable[[str], User]) -> None:
    game, ann = human_vs_robot(make_user)
    human_moves(game, ann)
    rows = list(RobotTurn.objects.filter(game=game))
    assert [(r.seat, r.seq, r.done_at) for r in rows] == [(1, game.last_seq, None)]
    # A move refused writes no row: the row is the move's, or nothing.
    with pytest.raises(Refusal):
        door.submit(game.pk, 1, "10 CAT", game.last_seq, Event.Source.ROBOT)
    assert RobotTurn.objects.filter(game=game).count() == 1


def test_the_task_plays_the_robot_turn_once_even_delivered_twice(
    make_user: Callable[[str], User],
) -> None:
    game, ann = human_vs_robot(make_user)
    human_moves(game, ann)
    row = RobotTurn.objects.get(game=game, seat=1)
    assert tasks.play_robot_turn(row.pk) == "moved"
    assert tasks.play_robot_turn(row.pk) is None
    assert turns.sweep() == 0
    assert len(robot_events(game)) == 1
    row.refresh_from_db()
    assert row.done_at is not None and row.attempts == 1
    game.refresh_from_db()
    assert game.turn_seat == 0


def test_a_stale_row_is_done_without_a_move(make_user: Callable[[str], User]) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game, ann = human_vs_robot(make_user, move_hours=24)
        human_moves(game, ann)
        row = RobotTurn.objects.get(game=game, seat=1)
        # The robot's task is slow: its deadline passes and the sweep times it out.
        game.refresh_from_db()
        assert game.deadline_at is not None
        clock.move_to(game.deadline_at)
        RobotTurn.objects.filter(pk=row.pk).update(due_at=game.deadline_at)
        assert timeouts.time_out_due() == 1
        assert turns.play(row.pk) == "stale"
    assert robot_events(game) == []


def test_the_broker_down_the_sweep_plays_the_robot_turn_once(
    make_user: Callable[[str], User],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, ann = human_vs_robot(make_user)

    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(owed.current_app, "send_task", down)
    with django_capture_on_commit_callbacks(execute=True):
        human_moves(game, ann)
    row = RobotTurn.objects.get(game=game, seat=1)
    assert row.done_at is None
    assert tasks.sweep_robot_turns() == 1
    assert tasks.sweep_robot_turns() == 0
    assert len(robot_events(game)) == 1


def test_a_turn_a_dead_worker_claimed_is_played_by_the_sweep_within_two_minutes(
    make_user: Callable[[str], User],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A worker killed while it plays leaves its claim: the sweep a minute later
    takes it over (beat sweeps every minute), never a live claim."""
    monkeypatch.setattr(owed.current_app, "send_task", lambda *a, **k: None)  # nudge lost
    with time_machine.travel(T0, tick=False) as clock:
        game, ann = human_vs_robot(make_user)
        with django_capture_on_commit_callbacks(execute=True):
            human_moves(game, ann)
        RobotTurn.objects.filter(game=game, seat=1).update(taken_at=T0, attempts=1)
        clock.shift(30)
        assert turns.sweep() == 0  # the claim may still be a live worker's
        clock.shift(31)
        assert turns.sweep() == 1
    assert len(robot_events(game)) == 1


def test_a_refused_answer_is_logged_without_tiles_and_the_robot_passes(
    make_user: Callable[[str], User],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game, ann = human_vs_robot(make_user)
    human_moves(game, ann)
    monkeypatch.setattr(JumbulayaRobots, "play", lambda *args: "1 QUIXOTRY")
    with caplog.at_level(logging.WARNING):
        assert turns.sweep() == 1
    assert [e.type for e in robot_events(game)] == ["passed"]
    assert "QUIXOTRY" not in caplog.text and "refused" in caplog.text


def test_a_human_pace_robot_answers_later(make_user: Callable[[str], User]) -> None:
    with time_machine.travel(T0, tick=False):
        game, ann = human_vs_robot(make_user, robot_pace=Game.RobotPace.HUMAN)
        human_moves(game, ann)
        row = RobotTurn.objects.get(game=game, seat=1)
        low, high = owed.HUMAN_DELAY
        assert T0 + low <= row.due_at <= T0 + high
        assert turns.sweep() == 0  # not due yet
    with time_machine.travel(row.due_at, tick=False):
        assert turns.sweep() == 1
    assert len(robot_events(game)) == 1


@pytest.mark.slow
def test_a_robot_versus_robot_game_is_played_to_the_end_by_the_tasks() -> None:
    # The expert's account plays whatever the engine's strongest level is until
    # the engine has an expert of its own.
    game = lobby.create_game(
        robot("expert"), seat_count=2, rules=PRESETS["official"], robots=["casual"]
    )
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        assert tasks.sweep_robot_turns() >= 1, "a robot turn was lost"
    assert game.status == Game.Status.OVER
    assert not RobotTurn.objects.filter(game=game, done_at__isnull=True).exists()
    made = RobotTurn.objects.filter(game=game, outcome__in=["moved", "passed"])
    followed = [Event.objects.get(game=game, seq=row.seq + 1) for row in made]
    # Each robot turn made the next event: its move, or, for a JUMBULAYA called on its
    # own turn and verified, the claim window's judgment (written by the system).
    assert all(e.source == Event.Source.ROBOT or e.type == "jumbulaya_verified" for e in followed)
    assert len(robot_events(game)) == sum(e.source == Event.Source.ROBOT for e in followed)
    assert not Notification.objects.filter(user__robot_level__gt="").exists()


def test_robots_get_no_email(make_user: Callable[[str], User]) -> None:
    game, ann = human_vs_robot(make_user)
    human_moves(game, ann)
    turns.sweep()
    assert Notification.objects.filter(game=game, user=ann).exists()
    assert not Notification.objects.filter(game=game, user=robot()).exists()
