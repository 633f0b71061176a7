"""Robot turns owed: written in the transaction of the move that makes them
owed, like the outbox's emails, and rung for after the commit.

A robot seat is owed a turn when it is to move, and, while the kind lets seats
move off their turn (JUMBULAYA calls once they are open), after every move; and
when the kind says it may answer off its turn (``Progress.answerers``: a
challenge of the crossword game's open play).
A game's ``robot_pace`` says when a turn is due: at once, or after a delay a
person might take (then beat's sweep plays it).  The core calls this module;
it never imports the core (``tests/test_import_graph.py``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Sequence
from datetime import timedelta
from functools import partial

from celery import current_app
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.robots import robot_account
from games.core.followers import Moved, SeatTaken
from games.core.projection import kind_of
from games.kinds.base import State
from games.models import Game, RobotTurn, Seat

log = logging.getLogger(__name__)

#: The task that plays a robot turn (``games.tasks.play_robot_turn``), rung by name.
PLAY_TASK = "games.tasks.play_robot_turn"
#: A robot at a human pace answers after a delay between these.
HUMAN_DELAY = (timedelta(minutes=2), timedelta(minutes=30))


def robot(level: str) -> User:
    """The robot account of ``level``, made when the level is first needed
    (:func:`accounts.robots.robot_account`: no migration a level name)."""
    return robot_account(level)


def levels_offered(levels: Iterable[str]) -> list[tuple[str, str]]:
    """``(level, display name)`` for each of ``levels``, in one query once
    their robot accounts are there (those not there yet are made)."""
    wanted = list(levels)
    names = dict(
        User.objects.filter(robot_level__in=wanted).values_list("robot_level", "display_name")
    )
    return [(level, names.get(level) or robot(level).display_name) for level in wanted]


def robot_seats(seats: Sequence[Seat]) -> set[int]:
    """The seats robots hold (the seats' users loaded)."""
    return {s.index for s in seats if s.user is not None and s.user.robot_level}


def due_at(game: Game) -> timedelta:
    """How long after now a robot of ``game`` answers."""
    if game.robot_pace == Game.RobotPace.HUMAN:
        low, high = HUMAN_DELAY
        return timedelta(seconds=random.uniform(low.total_seconds(), high.total_seconds()))
    return timedelta(0)


def after_move(game: Game, seats: Sequence[Seat], state: State) -> list[RobotTurn]:
    """Owe the robot turns ``state`` calls for (inside the move's transaction):
    the robot to move, every robot that may answer off its turn, and every
    robot still in the game while calls are open."""
    robots = robot_seats(seats)
    if not robots:
        return []
    kind = kind_of(game)
    at = kind.progress(state)
    if at.over:
        return []
    owed = (set(at.to_move) | set(at.answerers)) & robots
    if kind.window is not None and kind.window.is_open(state):
        owed |= {seat for seat in robots if kind.in_game(state, seat)}
    return owe(game, sorted(owed), at.seq)


def on_move(moved: Moved) -> None:
    """The robots' turns a move (or the deal) owes (a follower)."""
    after_move(moved.game, moved.seats, moved.state)


def on_seat_taken(taken: SeatTaken) -> None:
    """The turns owed to a robot that took a seat over (a follower)."""
    after_move(taken.game, taken.seats, taken.state)


def owe(game: Game, seats: Iterable[int], seq: int) -> list[RobotTurn]:
    """Rows for ``seats`` to answer the game at ``seq``, rung for after the
    commit when they are due at once (a seat owed one at ``seq`` already is
    left as it is)."""
    now = timezone.now()
    had = set(RobotTurn.objects.filter(game=game, seq=seq).values_list("seat", flat=True))
    rows = [
        RobotTurn(game=game, seat=seat, seq=seq, due_at=now + due_at(game))
        for seat in seats
        if seat not in had  # a takeover after a move owes its robot's turn again
    ]
    created = RobotTurn.objects.bulk_create(rows)
    for row in created:
        if row.due_at <= now:
            transaction.on_commit(partial(ring, row.pk))
    return created


def ring(row_id: int) -> None:
    """Ask a worker to play row ``row_id``.  A broker that is down changes
    nothing: the row waits for beat's sweep."""
    try:
        current_app.send_task(PLAY_TASK, (row_id,))
    except Exception as e:  # the broker is a doorbell
        log.warning("could not reach the broker (%s); robot turn %s waits for the sweep", e, row_id)
