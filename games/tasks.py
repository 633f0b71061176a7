"""Celery tasks: thin glue around the outbox, the deadline sweep, the claim
windows, the digests, the robots' turns, the seats' hints and the analyses of
finished games.
Beat runs the sweeps (settings).  The outbox nudges :func:`send_notifications`
by its name (``outbox.SEND_TASK``).

Each task's name is given, not taken from this module's path: messages already
in the broker, beat's schedule and the outbox name them, so moving this module
must not rename them (``tests/worker/test_task_names.py``).

Each task of beat's schedule runs through :func:`ops.heartbeats.swept`: when it
completes, its heartbeat (read by ``/healthz``) and its log line are written.

While the database is away a task returns without raising (the sweeps' next round, a
minute later, does what it missed) and the log says so once per process, then once
that it is back (:mod:`jumbulaya_site.outage`), instead of a traceback a task."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from celery import shared_task

from games.coach import analysis, hints
from games.core import timeouts, windows
from games.mail_out import digests, outbox
from games.robots import turns
from jumbulaya_site import outage
from ops.heartbeats import swept

R = TypeVar("R")


def quiet_while_away(empty: Any) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A task that returns ``empty`` while the database is away, instead of raising."""

    def decorate(task: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(task)
        def run(*args: Any, **kwargs: Any) -> R:
            try:
                result = task(*args, **kwargs)
            except Exception as e:
                if not outage.found_away(f"task {task.__name__}", e):
                    raise
                return empty  # type: ignore[no-any-return]
            outage.back(f"task {task.__name__}")
            return result

        return run

    return decorate


@shared_task(name="games.tasks.send_notifications")
@quiet_while_away(0)
def send_notifications(ids: list[int]) -> int:
    return outbox.send_in_order(ids)


@shared_task(name="games.tasks.sweep_outbox")
@quiet_while_away(0)
def sweep_outbox() -> int:
    return swept("games.tasks.sweep_outbox", outbox.sweep)


@shared_task(name="games.tasks.sweep_deadlines")
@quiet_while_away(0)
def sweep_deadlines() -> int:
    return swept("games.tasks.sweep_deadlines", timeouts.sweep_deadlines)


@shared_task(name="games.tasks.sweep_claim_windows")
@quiet_while_away(0)
def sweep_claim_windows() -> int:
    return swept("games.tasks.sweep_claim_windows", windows.close_windows)


@shared_task(name="games.tasks.send_digests")
@quiet_while_away(0)
def send_digests() -> int:
    return swept("games.tasks.send_digests", digests.send_due)


@shared_task(name="games.tasks.play_robot_turn")
@quiet_while_away(None)
def play_robot_turn(row_id: int) -> str | None:
    return turns.play(row_id)


@shared_task(name="games.tasks.sweep_robot_turns")
@quiet_while_away(0)
def sweep_robot_turns() -> int:
    return swept("games.tasks.sweep_robot_turns", turns.sweep)


@shared_task(name="games.tasks.prepare_hints")
@quiet_while_away(False)
def prepare_hints(game_id: int, seat: int, seq: int) -> bool:
    return hints.prepare(game_id, seat, seq)


@shared_task(name="games.tasks.sweep_hints")
@quiet_while_away(0)
def sweep_hints() -> int:
    return swept("games.tasks.sweep_hints", hints.sweep)


@shared_task(name="games.tasks.analyse_game")
@quiet_while_away(False)
def analyse_game(game_id: int) -> bool:
    return analysis.analyse_game(game_id)


@shared_task(name="games.tasks.sweep_analyses")
@quiet_while_away(0)
def sweep_analyses() -> int:
    return swept("games.tasks.sweep_analyses", analysis.sweep)
