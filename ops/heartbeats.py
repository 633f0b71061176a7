"""Heartbeats: the rows ``/healthz`` reads to tell whether beat, the workers and
each periodic sweep are running (:class:`ops.models.Heartbeat`).

- Each task of beat's schedule records its task name when it completes
  (:func:`swept`, which also logs the sweep's structured line).
- A worker records ``worker`` when it finishes any task (Celery's
  ``task_postrun``), at most every :data:`THROTTLE` per process.
- Beat records ``beat`` when it publishes a task (``before_task_publish`` in
  the beat process, known by ``beat_init``), at most every :data:`THROTTLE`,
  and ``beat_started`` when it starts: a sweep is not late before beat has
  been up for as long as the sweep may take (``/healthz`` after a restart).

A heartbeat that cannot be written (the database is away) is skipped with a
warning: it never stops a task or beat.  Beat and a worker outlive a database
restart, which leaves their connection broken: no request cycle closes it for
them, so each heartbeat is written as a request would be, the connection
dropped before and after when it is broken (:func:`_write`), and the next
write after a restart connects afresh.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from celery.signals import beat_init, before_task_publish, task_postrun
from django.db import connections
from django.utils import timezone

from ops import logs

log = logging.getLogger(__name__)

#: The names of the process heartbeats.
BEAT = "beat"
WORKER = "worker"
BEAT_STARTED = "beat_started"
#: How often one process writes the same heartbeat at most.
THROTTLE = timedelta(seconds=30)

_last_written: dict[str, float] = {}
_in_beat = False


def record(name: str, at: datetime | None = None) -> None:
    """Upsert heartbeat ``name`` (one statement, on SQLite and PostgreSQL alike)."""
    from ops.models import Heartbeat

    Heartbeat.objects.bulk_create(
        [Heartbeat(name=name, at=at or timezone.now())],
        update_conflicts=True,
        unique_fields=["name"],
        update_fields=["at"],
    )


def _drop_broken_connections() -> None:
    """What Django's request cycle does at each request's start and end
    (``close_old_connections``), for a process that serves no requests: a
    connection that a database restart broke (or that is past its age) is
    closed, so that the next query connects afresh.  Never inside a
    transaction (a test's, or the caller's of an eager task), which closing
    would break."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close_if_unusable_or_obsolete()


def _write(name: str) -> None:
    """:func:`record` ``name`` between two :func:`_drop_broken_connections`: the
    write that finds the connection broken fails, the one after reconnects."""
    _drop_broken_connections()
    try:
        record(name)
    finally:
        _drop_broken_connections()


def _record_throttled(name: str) -> None:
    now = time.monotonic()
    last = _last_written.get(name)
    if last is not None and now - last < THROTTLE.total_seconds():
        return
    try:
        _write(name)
    except Exception as e:  # a heartbeat never stops the work it reports on
        log.warning("could not record the %s heartbeat (%s)", name, type(e).__name__)
        return
    _last_written[name] = now


def swept(task: str, sweep: Callable[[], int]) -> int:
    """Run a periodic task's ``sweep``; once it has completed, record heartbeat
    ``task`` and log one ``sweep`` line with its count and duration."""
    started = time.monotonic()
    count = sweep()
    ms = round((time.monotonic() - started) * 1000)
    try:
        record(task)
    except Exception as e:
        log.warning("could not record the %s heartbeat (%s)", task, type(e).__name__)
    logs.event("sweep", task=task, count=count, ms=ms)
    return count


def _on_task_postrun(**_: Any) -> None:
    _record_throttled(WORKER)


def _on_beat_init(**_: Any) -> None:
    global _in_beat
    _in_beat = True
    try:
        _write(BEAT_STARTED)
    except Exception as e:  # beat starts all the same; /healthz judges sweeps by their rows
        log.warning("could not record the %s heartbeat (%s)", BEAT_STARTED, type(e).__name__)


def _on_publish(**_: Any) -> None:
    if _in_beat:
        _record_throttled(BEAT)


def connect_signals() -> None:
    """Connect the worker's and beat's heartbeats (from the app's ``ready``; the
    web process never runs a task under a worker, nor beat)."""
    task_postrun.connect(_on_task_postrun, weak=False, dispatch_uid="ops.heartbeats.worker")
    beat_init.connect(_on_beat_init, weak=False, dispatch_uid="ops.heartbeats.beat_init")
    before_task_publish.connect(_on_publish, weak=False, dispatch_uid="ops.heartbeats.beat")
