"""The faults, each at its moment of the run, with the seconds each outage lasted,
and what the processes' logs said during each (tracebacks, error lines)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .topology import Proc, Topology

#: Seconds after a fault ends that still count as its aftermath, in the logs and
#: the answers.
AFTERMATH_S = 10.0


@dataclass
class Window:
    """One fault, from when it began to when it was undone (wall-clock seconds), and
    each process log's size at its start and ``AFTERMATH_S`` after its end."""

    fault: str
    start: float
    end: float = 0.0
    logs_before: dict[str, int] = field(default_factory=dict)
    logs_after: dict[str, int] = field(default_factory=dict)


@dataclass
class Plan:
    """When (seconds into the play) each fault comes, and how long outages last."""

    worker_kill_at: float = 20.0
    web_kill_at: float = 35.0
    redis_at: float = 50.0
    redis_down_s: float = 60.0
    postgres_at: float = 130.0
    postgres_down_s: float = 15.0
    two_beats_at: float = 150.0
    two_beats_s: float = 120.0


@dataclass
class Faults:
    """A thread that brings each fault of a :class:`Plan` and notes what it did."""

    topology: Topology
    plan: Plan
    log: list[dict[str, object]] = field(default_factory=list)
    postgres_down: list[tuple[float, float]] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def note(self, what: str, **facts: object) -> None:
        self.log.append({"fault": what, "at": round(time.time(), 1), **facts})

    def _log_sizes(self) -> dict[str, int]:
        sizes = {}
        for proc in self.topology.processes():
            try:
                sizes[proc.name] = proc.log_path.stat().st_size
            except OSError:
                sizes[proc.name] = 0
        return sizes

    def begin(self, fault: str) -> Window:
        window = Window(fault, time.time(), logs_before=self._log_sizes())
        self.windows.append(window)
        return window

    def end(self, window: Window) -> None:
        """The fault is undone: its logs are measured once its aftermath is over."""
        window.end = time.time()
        timer = threading.Timer(AFTERMATH_S, lambda: window.logs_after.update(self._log_sizes()))
        timer.daemon = True
        timer.start()

    def _sleep_until(self, began: float, at: float) -> bool:
        while not self.stop.is_set() and time.monotonic() - began < at:
            time.sleep(0.2)
        return not self.stop.is_set()

    def kill_worker(self) -> None:
        """SIGKILL a Celery worker (its pool too) while it sends, start it again."""
        worker = self.topology.workers[0]
        busy = self._wait_busy(worker)
        window = self.begin("celery worker SIGKILL" + (" while sending" if busy else ""))
        worker.held = True
        worker.kill(signal.SIGKILL)
        worker.proc.wait(10) if worker.proc is not None else None
        self.note("celery worker SIGKILL", worker=worker.name, sending=busy)
        time.sleep(2)
        worker.start()
        worker.held = False
        self.end(window)
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
                    taken_at__isnull=False, sent_at__isnull=True
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
            window = self.begin("gunicorn worker SIGKILL")
            with contextlib.suppress(ProcessLookupError):
                os.kill(victim, signal.SIGKILL)
            self.end(window)
            self.note("gunicorn worker SIGKILL", pid=victim)

    def redis_outage(self) -> None:
        window = self.begin(f"redis stopped {self.plan.redis_down_s:.0f} s")
        self.topology.redis.stop()
        self.note("redis stopped", seconds=self.plan.redis_down_s)
        self.stop.wait(self.plan.redis_down_s)
        self.topology.redis.start()
        self.end(window)
        self.note("redis started again")

    def postgres_restart(self) -> None:
        window = self.begin(f"postgres stopped {self.plan.postgres_down_s:.0f} s")
        t0 = window.start
        self.topology.postgres.stop()
        self.note("postgres stopped")
        time.sleep(self.plan.postgres_down_s)
        self.topology.postgres.start()
        self.end(window)
        self.postgres_down.append((t0, window.end))
        self.note("postgres started again", seconds=round(window.end - t0, 1))

    def two_beats(self) -> None:
        beat = self.topology.extra_beat
        window = self.begin(f"two beats for {self.plan.two_beats_s:.0f} s")
        beat.start()
        self.note("second beat started", seconds=self.plan.two_beats_s)
        self.stop.wait(self.plan.two_beats_s)
        beat.stop()
        self.end(window)
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
