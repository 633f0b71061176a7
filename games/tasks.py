"""Celery tasks: thin glue around the outbox, the deadline sweep, the claim
windows, the digests, the robots' turns and the analyses of finished games.
Beat runs the sweeps (settings).  The outbox nudges :func:`send_notifications`
by its name (``outbox.SEND_TASK``).

Each task's name is given, not taken from this module's path: messages already
in the broker, beat's schedule and the outbox name them, so moving this module
must not rename them (``tests/worker/test_task_names.py``).

Each task of beat's schedule runs through :func:`ops.heartbeats.swept`: when it
completes, its heartbeat (read by ``/healthz``) and its log line are written."""

from __future__ import annotations

from celery import shared_task

from games.coach import analysis
from games.core import services
from games.mail_out import digests, outbox
from games.robots import turns
from ops.heartbeats import swept


@shared_task(name="games.tasks.send_notifications")
def send_notifications(ids: list[int]) -> int:
    return outbox.send_in_order(ids)


@shared_task(name="games.tasks.sweep_outbox")
def sweep_outbox() -> int:
    return swept("games.tasks.sweep_outbox", outbox.sweep)


@shared_task(name="games.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    return swept("games.tasks.sweep_deadlines", services.sweep_deadlines)


@shared_task(name="games.tasks.sweep_claim_windows")
def sweep_claim_windows() -> int:
    return swept("games.tasks.sweep_claim_windows", services.close_claim_windows)


@shared_task(name="games.tasks.send_digests")
def send_digests() -> int:
    return swept("games.tasks.send_digests", digests.send_due)


@shared_task(name="games.tasks.play_robot_turn")
def play_robot_turn(row_id: int) -> str | None:
    return turns.play(row_id)


@shared_task(name="games.tasks.sweep_robot_turns")
def sweep_robot_turns() -> int:
    return swept("games.tasks.sweep_robot_turns", turns.sweep)


@shared_task(name="games.tasks.analyse_game")
def analyse_game(game_id: int) -> bool:
    return analysis.analyse_game(game_id)


@shared_task(name="games.tasks.sweep_analyses")
def sweep_analyses() -> int:
    return swept("games.tasks.sweep_analyses", analysis.sweep)
