"""Beat and the worker outlive their data stores going away under them: beat
writes its heartbeat again once PostgreSQL has restarted (it wrote none, until
it was restarted itself, after the stack run's PostgreSQL restart), says once
that Redis is away and once that it is back (it logged a traceback per task it
could not send), and a worker stops soon after SIGTERM whether its broker
answers or not.

Each test runs real processes (celery beat, deploy/'s worker) on a PostgreSQL
cluster and a redis-server of their own (:mod:`bench.stack.topology`).  Beat
runs the settings' scheduler and heartbeats with a schedule of three tasks a
second and its heartbeat written at most every second, so that the test waits
seconds where the real schedule would take minutes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from bench.stack.topology import PG_BIN, REPO, Postgres, Proc, Redis, deploy_command

pytestmark = [
    pytest.mark.slow,
    pytest.mark.services,
    pytest.mark.skipif(
        os.geteuid() != 0 or shutil.which("runuser") is None,
        reason="these tests run PostgreSQL as the postgres user (needs root and runuser)",
    ),
    pytest.mark.skipif(
        not (PG_BIN / "initdb").exists() or shutil.which("redis-server") is None,
        reason="PostgreSQL 15's binaries and redis-server are needed",
    ),
]

#: Generous bounds: each is a hang detector, not a measure (things take seconds).
START_S = 90.0
STOP_S = 30.0

#: celery beat with the settings' scheduler, its schedule three tasks a second
#: and its heartbeat throttled to a second.
FAST_BEAT = """
import sys
from datetime import timedelta

from jumbulaya_site.celery import app
from ops import heartbeats

heartbeats.THROTTLE = timedelta(seconds=1)
app.conf.beat_schedule = {
    f"sweep-{n}": {"task": "games.tasks.sweep_outbox", "schedule": 1.0} for n in range(3)
}
app.start(["beat", "--loglevel=INFO", "--schedule", sys.argv[1]])
"""


@dataclass
class Stores:
    """A PostgreSQL cluster and a redis-server of the tests' own, migrated, and
    the environment the processes run in."""

    root: Path
    postgres: Postgres
    redis: Redis
    env: dict[str, str]

    def process(self, name: str, argv: list[str]) -> Proc:
        return Proc(name, argv, self.env, self.root)

    def heartbeat(self, name: str) -> datetime | None:
        with psycopg.connect(self.postgres.url, connect_timeout=5) as conn:
            row = conn.execute("SELECT at FROM ops_heartbeat WHERE name = %s", [name]).fetchone()
        return row[0] if row else None


@pytest.fixture(scope="module")
def stores() -> Iterator[Stores]:
    # Not under pytest's own temporary directory, which the postgres user cannot enter.
    root = Path(tempfile.mkdtemp(prefix="jumbulaya-outlives-"))
    root.chmod(0o755)
    postgres, redis = Postgres(root), Redis(root)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "JUMBULAYA_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "DJANGO_SECRET_KEY": "test-only-secret-key-" + "x" * 40,
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "JUMBULAYA_VAR_DIR": str(root / "var"),
        "JUMBULAYA_MAILBOX": "0",
        "DATABASE_URL": postgres.url,
        "REDIS_URL": redis.url,
        "CELERY_BROKER_URL": "",
    }
    try:
        postgres.start()
        redis.start()
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        yield Stores(root, postgres, redis, env)
    finally:
        redis.stop()
        postgres.stop()
        postgres.kill()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def running(stores: Stores) -> Iterator[Callable[[str, list[str]], Proc]]:
    """Starts processes that are stopped (SIGTERM, then SIGKILL) after the
    test, with both stores up again for the next."""
    started: list[Proc] = []

    def start(name: str, argv: list[str]) -> Proc:
        proc = stores.process(name, argv)
        proc.start()
        started.append(proc)
        return proc

    try:
        yield start
    finally:
        for proc in started:
            proc.stop(grace=STOP_S)
        if not stores.redis.proc.alive():
            stores.redis.start()


def wait_for(what: str, done: Callable[[], object], proc: Proc, timeout: float = START_S) -> None:
    end = time.monotonic() + timeout
    while not done():
        assert proc.alive(), f"{proc.name} exited waiting for {what}:\n{proc.log_tail()}"
        assert time.monotonic() < end, f"no {what} in {timeout:.0f} s:\n{proc.log_tail()}"
        time.sleep(0.5)


def logged(proc: Proc) -> str:
    return proc.log_path.read_text(errors="replace")


def test_beat_records_its_heartbeat_again_after_postgres_restarts(
    stores: Stores, running: Callable[[str, list[str]], Proc]
) -> None:
    beat = running("beat-pg", [sys.executable, "-c", FAST_BEAT, str(stores.root / "pg-sched")])
    wait_for("beat heartbeat", lambda: stores.heartbeat("beat"), beat)
    stores.postgres.stop()
    time.sleep(3)  # beat publishes on: its heartbeats find no database
    stores.postgres.start()
    restarted = datetime.now(UTC)

    def written_since() -> bool:
        at = stores.heartbeat("beat")
        return at is not None and at > restarted

    wait_for("beat heartbeat after the restart", written_since, beat, timeout=60)
    assert "could not record the beat heartbeat" in logged(beat)  # the outage was seen


def test_beat_says_once_that_the_broker_is_away_and_once_that_it_is_back(
    stores: Stores, running: Callable[[str, list[str]], Proc]
) -> None:
    beat = running("beat-redis", [sys.executable, "-c", FAST_BEAT, str(stores.root / "r-sched")])
    wait_for("task sent", lambda: "Sending due task" in logged(beat), beat)
    stores.redis.stop()
    wait_for("the outage noticed", lambda: logged(beat).count("The broker is away") == 1, beat, 30)
    time.sleep(3)  # nine more tasks due
    stores.redis.start()
    wait_for("broker back", lambda: "The broker is back" in logged(beat), beat, 30)
    log = logged(beat)
    assert log.count("Sending due task") > 12, log[-3000:]
    assert log.count("The broker is away") == 1 and log.count("The broker is back") == 1
    assert "Traceback" not in log and "Message Error" not in log, log[-3000:]
    away = next(line for line in log.splitlines() if "The broker is away" in line)
    assert "WARNING" in away and "Connection refused" in away


def worker_argv() -> list[str]:
    return [*deploy_command("worker"), "--concurrency=1", "-n", "stop@%h"]


@pytest.mark.parametrize("broker", ["up", "away"])
def test_a_worker_stops_soon_after_sigterm(
    stores: Stores, running: Callable[[str, list[str]], Proc], broker: str
) -> None:
    """SIGTERM to the worker's main process alone, as the unit sends it
    (``KillMode=mixed``): a warm shutdown, over well before the unit's
    ``TimeoutStopSec`` would have it killed."""
    worker = running(f"worker-{broker}", worker_argv())
    wait_for("worker ready", lambda: " ready." in logged(worker), worker)
    if broker == "away":
        stores.redis.stop()
        wait_for("lost broker", lambda: "Cannot connect to redis" in logged(worker), worker, 30)
    assert worker.proc is not None
    os.kill(worker.pid, signal.SIGTERM)
    try:
        code = worker.proc.wait(STOP_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the worker still ran {STOP_S:.0f} s after SIGTERM:\n{worker.log_tail()}")
    assert code == 0, worker.log_tail()
    assert "Warm shutdown" in logged(worker)
