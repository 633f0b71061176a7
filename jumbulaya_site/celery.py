"""The Celery app.  The broker is a doorbell, not a database: everything a task
acts on is in the database first (the outbox, ``Game.deadline_at``), and beat
sweeps find whatever a lost message missed.

Each time a worker connects to the broker (when it starts, and when the broker
comes back after an outage) it rings the sweeps that someone is waiting on
(:data:`SWEEPS_ON_CONNECT`) at once: the emails owed while the broker was away
and the robots' turns go out then, not at beat's next round, which may come a
minute later (beat reconnects on its own schedule).  And it tries to reach a
broker that is away every few seconds (:class:`PromptConsumer`), so it is back
within seconds of the broker.

Beat says once that the broker is away and once that it is back
(:class:`OutageScheduler`), as every process says it of the database
(:mod:`jumbulaya_site.outage`)."""

from __future__ import annotations

import functools
import logging
import os
import time
from typing import Any

from celery import Celery, bootsteps
from celery.beat import PersistentScheduler
from celery.worker.consumer import Consumer
from kombu.exceptions import OperationalError as BrokerAway

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jumbulaya_site.settings")

log = logging.getLogger(__name__)
#: Celery beat's own logger, for the lines :class:`OutageScheduler` says as Celery does.
beat_log = logging.getLogger("celery.beat")

#: The sweeps a worker rings whenever it (re)connects, by task name (the tasks
#: import Django models, which this module, loaded before Django is set up, may not).
SWEEPS_ON_CONNECT = ("games.tasks.sweep_outbox", "games.tasks.sweep_robot_turns")
#: The longest wait, in seconds, between two tries to reach a broker that is away
#: (kombu's waits grow by 2 s a try up to 30 s: after a minute's outage a worker
#: could come back a quarter of a minute after the broker).
RECONNECT_MAX_S = 4


class PromptConsumer(Consumer):  # type: ignore[misc]  # Celery is untyped
    """Celery's consumer, trying a lost broker again every second at first and
    never more than :data:`RECONNECT_MAX_S` apart (the settings name it as
    ``worker_consumer``)."""

    def ensure_connected(self, conn: Any) -> Any:
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=1, interval_step=1, interval_max=RECONNECT_MAX_S
        )
        return super().ensure_connected(conn)


class SweepOnConnect(bootsteps.StartStopStep):  # type: ignore[misc]  # Celery is untyped
    """A consumer step: started after the worker's task consumer each time the
    consumer (re)starts, that is after every connection to the broker."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        for name in SWEEPS_ON_CONNECT:
            try:
                parent.app.send_task(name)
            except Exception as e:  # the broker left again: beat's sweeps remain
                log.warning("connected, but could not ring %s (%s)", name, e)
                return
        log.info("connected to the broker: rang %s", ", ".join(SWEEPS_ON_CONNECT))


def broker_away(exc: BaseException | None) -> BaseException | None:
    """The broker's connection error behind ``exc`` (kombu raises every one as
    its OperationalError; beat wraps it in a SchedulingError), or None."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, BrokerAway):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


class OutageScheduler(PersistentScheduler):  # type: ignore[misc]  # Celery is untyped
    """Celery beat's scheduler (the settings name it as ``beat_scheduler``),
    saying once that the broker is away and once that it is back, where Celery
    logs a traceback for every task it could not send (17 at the first tick of
    one Redis stop).  What beat did not send is not lost: the sweeps' work
    waits in the database for the next round that is sent."""

    #: When this beat first failed to reach the broker (``time.monotonic()``), or None.
    away_since: float | None = None

    def apply_entry(self, entry: Any, producer: Any = None) -> None:
        """Send ``entry``'s task, as Celery's scheduler does but for the log."""
        beat_log.info("Scheduler: Sending due task %s (%s)", entry.name, entry.task)
        try:
            self.apply_async(entry, producer=producer, advance=False)
        except Exception as e:
            away = broker_away(e)
            if away is None:  # not an outage: as Celery says it
                beat_log.error("Message Error: %s", e, exc_info=True)
            elif self.away_since is None:
                self.away_since = time.monotonic()
                first_line = (str(away).strip().splitlines() or [""])[0][:200]
                log.warning(
                    "The broker is away (%s: %s); beat sends no task until it is back",
                    type(away).__name__,
                    first_line,
                )
            return
        if self.away_since is not None:
            seconds, self.away_since = time.monotonic() - self.away_since, None
            log.warning("The broker is back, after %.0f s away: beat sends again", seconds)


app = Celery("jumbulaya")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(SweepOnConnect)
app.autodiscover_tasks()
