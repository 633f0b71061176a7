"""The Celery tasks' names are pinned: messages already in a broker, beat's
schedule and the outbox's nudge (``outbox.SEND_TASK``) name them, so moving
a module must never rename a task."""

from __future__ import annotations

from celery import Task
from django.conf import settings

from games import tasks
from games.coach import analysis, hints
from games.mail_out import outbox
from games.robots import owed
from jumbulaya_site.celery import SWEEPS_ON_CONNECT, app

NAMES = {
    "games.tasks.send_notifications",
    "games.tasks.sweep_outbox",
    "games.tasks.sweep_deadlines",
    "games.tasks.sweep_claim_windows",
    "games.tasks.send_digests",
    "games.tasks.play_robot_turn",
    "games.tasks.sweep_robot_turns",
    "games.tasks.prepare_hints",
    "games.tasks.sweep_hints",
    "games.tasks.analyse_game",
    "games.tasks.sweep_analyses",
}


def test_the_tasks_have_their_names() -> None:
    assert {task.name for task in vars(tasks).values() if isinstance(task, Task)} == NAMES
    assert set(app.tasks) >= NAMES


def test_what_names_a_task_names_one_that_exists() -> None:
    assert outbox.SEND_TASK in NAMES
    assert set(SWEEPS_ON_CONNECT) <= NAMES
    assert owed.PLAY_TASK in NAMES
    assert analysis.ANALYSE_TASK in NAMES
    assert hints.PREPARE_TASK in NAMES
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= NAMES
