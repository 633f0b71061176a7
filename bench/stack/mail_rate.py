"""``python -m bench mailrate [--emails N] [--processes 1,2,3,4] [--runs R]``: emails
per second through the production path as a Celery worker's processes go from 1 to 4.

The stack's own PostgreSQL cluster and redis-server (:mod:`bench.stack.topology`),
deploy's worker command with ``--concurrency=N``, and the SMTP sink standing in for
the ESP.  ``N`` "your turn" emails are owed, one to each player of ``N`` started
two-player games (so no player's emails wait for one another's), each rendered,
claimed, sent over SMTP and marked sent by the worker as in production.  For each
process count the rows are made owed again, the worker is started and waits
until it is ready, the rows are rung in the broker's batches as moves ring them,
and the clock runs until the last one arrived at the sink and is marked sent.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.inbound import Credentials

from .sink import SinkServer
from .topology import Topology, celery_worker

EMAILS = 600
PROCESSES = (1, 2, 3, 4)
RUNS = 2
#: The longest a run may take before it is reported unfinished.
RUN_LIMIT_S = 300.0


def _owe(count: int) -> list[int]:
    """``count`` two-player games started through the services; the ids of the
    "your turn" emails their first moves owe (the other emails marked sent, as
    the stack would have sent them long ago)."""
    from django.db.models import F
    from django.utils import timezone

    from accounts.models import User
    from games.core import lobby
    from games.engine.jumbulaya import PRESETS
    from games.models import Notification

    for i in tqdm(range(count), desc="games started", file=sys.stderr):
        a, b = (
            User.objects.create_user(
                username=f"rate{i}x{k}", email=f"rate{i}x{k}@players.test", display_name=f"R{i} {k}"
            )
            for k in range(2)
        )
        game = lobby.create_game(
            a, seat_count=2, rules=PRESETS["official"], move_hours=72, invite_emails=[b.email]
        )
        lobby.join_game(game.pk, b)
    ids = list(
        Notification.objects.filter(
            kind=Notification.Kind.YOUR_TURN, event_seq=F("game__last_seq")
        ).values_list("pk", flat=True)
    )
    Notification.objects.exclude(pk__in=ids).update(sent_at=timezone.now())
    return ids


def _make_owed_again(ids: list[int]) -> None:
    from games.models import Notification

    Notification.objects.filter(pk__in=ids).update(
        sent_at=None, taken_at=None, attempts=0, retry_at=None, last_error=""
    )


def _sent(ids: list[int]) -> int:
    from games.models import Notification

    return Notification.objects.filter(pk__in=ids, sent_at__isnull=False).count()


def _ring(ids: list[int], broker: str) -> None:
    """What a move's commit does, for every row: the send task, by name, in the
    outbox's batches (a Celery app of its own: this process's publishes to the
    in-memory broker while the games are made)."""
    from celery import Celery

    os.environ["CELERY_BROKER_URL"] = broker  # Celery prefers it to the app's own

    from games.mail_out.outbox import NUDGE_BATCH, SEND_TASK

    app = Celery("mailrate", broker=broker)
    with app.producer_or_acquire() as producer:
        for start in range(0, len(ids), NUDGE_BATCH):
            batch = ids[start : start + NUDGE_BATCH]
            app.send_task(SEND_TASK, (batch,), producer=producer)


def _wait_ready(worker_log: Path, offset: int, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with worker_log.open("rb") as f:
            f.seek(offset)
            if b" ready." in f.read():
                return True
        time.sleep(0.1)
    return False


def one_run(
    topology: Topology, sink: SinkServer, ids: list[int], processes: int, n: int
) -> dict[str, Any]:
    """The owed rows sent by one worker of ``processes`` processes."""
    _make_owed_again(ids)
    worker = celery_worker(topology.env, 10 + n, topology.root, concurrency=processes)
    offset = worker.log_path.stat().st_size if worker.log_path.exists() else 0
    worker.start()
    try:
        if not _wait_ready(worker.log_path, offset):
            return {"processes": processes, "error": "the worker did not get ready"}
        wanted = set(ids)
        before = len(sink.sink.snapshot())
        t0 = time.monotonic()
        _ring(ids, topology.redis.url)
        arrived: set[int] = set()
        while time.monotonic() - t0 < RUN_LIMIT_S:
            mails = sink.sink.snapshot()[before:]
            arrived = {m.row for m in mails if m.row in wanted}
            if len(arrived) == len(wanted) and _sent(ids) == len(ids):
                break
            time.sleep(0.05)
        wall = time.monotonic() - t0
        return {
            "processes": processes,
            "emails": len(ids),
            "arrived": len(arrived),
            "wall_s": round(wall, 2),
            "emails_per_s": round(len(arrived) / wall, 1),
        }
    finally:
        worker.stop(grace=10)


def main(args: list[str]) -> int:
    emails = int(args[args.index("--emails") + 1]) if "--emails" in args else EMAILS
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else RUNS
    counts = (
        tuple(int(n) for n in args[args.index("--processes") + 1].split(","))
        if "--processes" in args
        else PROCESSES
    )
    from .run import environment

    root = Path(tempfile.mkdtemp(prefix="jumbulaya-mailrate-"))
    os.chmod(root, 0o755)
    sink = SinkServer()
    sink.start()
    topology = Topology(root, environment(root, sink.port, Credentials.fresh()))
    began = time.monotonic()
    out: dict[str, Any] = {"emails": emails, "runs_each": runs, "cpus": os.cpu_count()}
    try:
        topology.postgres.start()
        topology.redis.start()
        done = topology.manage("migrate", "--noinput", "-v", "0")
        if done.returncode != 0:
            raise RuntimeError(f"migrate failed:\n{done.stderr[-2000:]}")
        os.environ.update(topology.env | {"CELERY_BROKER_URL": "memory://localhost/"})
        import django

        django.setup()
        logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's every command
        ids = _owe(emails)
        results = []
        for n, processes in enumerate(
            tqdm([p for p in counts for _ in range(runs)], desc="runs", file=sys.stderr)
        ):
            results.append(one_run(topology, sink, ids, processes, n))
        out["runs"] = results
        out["emails_per_s_by_processes"] = {
            p: {
                "median": statistics.median(r["emails_per_s"] for r in mine),
                "min": min(r["emails_per_s"] for r in mine),
                "max": max(r["emails_per_s"] for r in mine),
            }
            for p in counts
            if (mine := [r for r in results if r["processes"] == p and "emails_per_s" in r])
        }
        out["ok"] = all(r.get("arrived") == r.get("emails") for r in results)
    finally:
        topology.redis.stop()
        topology.postgres.stop()
        topology.postgres.kill()
        sink.stop()
        if os.environ.get("JUMBULAYA_STACK_KEEP") == "1":
            out["logs"] = str(root)
        else:
            shutil.rmtree(root, ignore_errors=True)
        out["runtime_s"] = round(time.monotonic() - began, 1)
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0 if out.get("ok") else 1
