"""The faults, each at its moment of the run, with the seconds each outage lasted."""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .topology import Proc, Topology


@dataclass
class Plan:
    """When (seconds into the play) each fault comes, and how long outages last."""

    worker_kill_at: float = 20.0
    web_kill_at: float = 35.0
    redis_at: float = 50.0
    redis_down_s: float = 60.0
    postgres_at: float = 130.0
    postgres_down_s: float = 5.0
    two_beats_at: float = 150.0
    two_beats_s: float = 120.0


@dataclass
class Faults:
    """A thread that brings each fault of a :class:`Plan` and notes what it did."""

    topology: Topology
    plan: Plan
    log: list[dict[str, object]] = field(default_factory=list)
    postgres_down: list[tuple[float, float]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def note(self, what: str, **facts: object) -> None:
        self.log.append({"fault": what, "at": round(time.time(), 1), **facts})

    def _sleep_until(self, began: float, at: float) -> bool:
        while not self.stop.is_set() and time.monotonic() - began < at:
            time.sleep(0.2)
        return not self.stop.is_set()

    def kill_worker(self) -> None:
        """SIGKILL a Celery worker (its pool too) while it sends, start it again."""
        worker = self.topology.workers[0]
        busy = self._wait_busy(worker)
        worker.kill(signal.SIGKILL)
        worker.proc.wait(10) if worker.proc is not None else None
        self.note("celery worker SIGKILL", worker=worker.name, sending=busy)
        time.sleep(2)
        worker.start()
        self.note("celery worker started again", worker=worker.name)

    def _wait_busy(self, worker: Proc, timeout: float = 15.0) -> bool:
        """Wait (bounded) until an outbox row is claimed and not yet sent (a send
        in progress; which worker holds it is not known), or the worker's log
        names the send task."""
        from games.models import Notification

        end = time.monotonic() + timeout
        size = worker.log_path.stat().st_size if worker.log_path.exists() else 0
        while time.monotonic() < end:
            with worker.log_path.open("rb") as f:
                f.seek(size)
                if b"send_notifications" in f.read():
                    return True
            try:
                if Notification.objects.filter(
                    claimed_at__isnull=False, sent_at__isnull=True
                ).exists():
                    return True
            except Exception:  # the database may be away: the log alone then
                pass
            time.sleep(0.02)
        return False

    def kill_web_worker(self) -> None:
        """SIGKILL one gunicorn worker (the master starts another)."""
        children = self.topology.web.children()
        if children:
            victim = random.choice(children)
            try:
                import os

                os.kill(victim, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.note("gunicorn worker SIGKILL", pid=victim)

    def redis_outage(self) -> None:
        self.topology.redis.stop()
        self.note("redis stopped", seconds=self.plan.redis_down_s)
        self.stop.wait(self.plan.redis_down_s)
        self.topology.redis.start()
        self.note("redis started again")

    def postgres_restart(self) -> None:
        t0 = time.time()
        self.topology.postgres.stop()
        self.note("postgres stopped")
        time.sleep(self.plan.postgres_down_s)
        self.topology.postgres.start()
        self.postgres_down.append((t0, time.time()))
        self.note("postgres started again", seconds=round(time.time() - t0, 1))

    def two_beats(self) -> None:
        beat = self.topology.extra_beat
        beat.start()
        self.note("second beat started", seconds=self.plan.two_beats_s)
        self.stop.wait(self.plan.two_beats_s)
        beat.stop()
        self.note("second beat stopped")

    def run(self) -> None:
        began = time.monotonic()
        steps: list[tuple[float, Callable[[], None]]] = sorted(
            [
                (self.plan.worker_kill_at, self.kill_worker),
                (self.plan.web_kill_at, self.kill_web_worker),
                (self.plan.redis_at, self.redis_outage),
                (self.plan.postgres_at, self.postgres_restart),
                (self.plan.two_beats_at, self.two_beats),
            ],
            key=lambda step: step[0],
        )
        for at, step in steps:
            if not self._sleep_until(began, at):
                return
            try:
                step()
            except Exception as e:  # a fault that failed is reported, the run goes on
                self.note("fault failed", step=step.__name__, error=f"{type(e).__name__}: {e}")
