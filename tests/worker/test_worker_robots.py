"""A human-versus-robot game through a real Celery worker: each move of Ann's
owes the robot's turn, the nudge after the commit reaches the worker, and the
worker plays it through the one door, once.  Runs on the database the suite
uses (PostgreSQL in CI: DATABASE_URL)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from celery.worker import WorkController

from accounts.models import User
from games.core import door, lobby
from games.models import Event, Game, RobotTurn

pytestmark = pytest.mark.django_db(transaction=True)


def the_robot(level: str = "casual") -> User:
    """The robot account (a transactional test's flush may have removed the
    one the migration made)."""
    robot, _ = User.objects.get_or_create(
        username=f"robot-{level}",
        defaults={
            "email": f"robot-{level}@robots.invalid",
            "display_name": f"Robot {level.title()}",
            "robot_level": level,
            "is_active": False,
        },
    )
    return robot


@pytest.mark.slow
def test_a_human_plays_a_robot_through_a_real_worker(
    make_user: Callable[[str], User], kit: Any, live_worker: WorkController
) -> None:
    robot = the_robot()
    ann = make_user("ann")
    game = lobby.play_against_robot(ann, "casual")
    for _round in range(3):
        game.refresh_from_db()
        if game.turn_seat == 1:  # the robot moves first, or answers Ann
            seq = game.last_seq
            kit.wait_for(
                lambda seq=seq: Game.objects.get(pk=game.pk).last_seq > seq,
                "the worker to play the robot's turn",
            )
            game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        assert game.turn_seat == 0
        door.submit(game.pk, ann, "pass", game.last_seq, Event.Source.WEB)
    kit.wait_for(
        lambda: not RobotTurn.objects.filter(game=game, done_at__isnull=True).exists(),
        "every robot turn to be played",
    )
    rows = list(RobotTurn.objects.filter(game=game))
    assert rows and all(r.attempts == 1 for r in rows)
    moved = [r for r in rows if r.outcome in ("moved", "passed")]
    robot_events = Event.objects.filter(game=game, source=Event.Source.ROBOT)
    assert len(moved) == robot_events.count() >= 3
    assert game.seats.get(index=1).user == robot
