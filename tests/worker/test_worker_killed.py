"""A real worker process killed (SIGKILL) while it sends an email it has
taken: the row stays taken, and once its lease has run out (no heartbeat
renews it) the sweep sends it, once.  With ``JUMBULAYA_MEASURE_KILL=1``, the
whole thing in real time with a real beat and a restarted worker, which says
how long the email waited (docs/performance.md's figure)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from games.core import door
from games.mail_out import outbox
from games.models import Event, Game, Notification

REPO = Path(__file__).resolve().parents[2]


def database_url() -> str:
    """The test database, as a URL the worker process's settings read."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_while_sending_leaves_the_row_to_the_sweep(
    started_game: Callable[..., Game], kit: Any, tmp_path: Path
) -> None:
    game = started_game()
    outbox.sweep()  # the start's emails, sent here
    mail.outbox.clear()
    stalled = tmp_path / "stalled"
    queue = tmp_path / "var" / "celery" / "queue"  # where the worker's settings put it
    queue.mkdir(parents=True)
    options = {"data_folder_in": str(queue), "data_folder_out": str(queue)}
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DATABASE_URL": database_url(),
        "JUMBULAYA_VAR_DIR": str(tmp_path / "var"),
        "CELERY_BROKER_URL": "filesystem://localhost/",
        "REDIS_URL": "",
        "EMAIL_BACKEND": "tests.worker.stalling_backend.EmailBackend",
        "JUMBULAYA_STALL_FILE": str(stalled),
        "PYTHONPATH": str(REPO),
    }
    with kit.use_broker("filesystem://localhost/", broker_transport_options=options):
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "jumbulaya_site", "worker", "--pool=solo",
             "--without-heartbeat", "--without-gossip", "--without-mingle", "-l", "WARNING"],
            cwd=REPO, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            door.submit(game.pk, game.turn_seat, "pass", 1, Event.Source.WEB)
            (row,) = Notification.objects.filter(sent_at__isnull=True)
            kit.wait_for(stalled.exists, "the worker to take the row and start sending", 60)
            worker.send_signal(signal.SIGKILL)
            worker.wait(10)
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait(10)
    row.refresh_from_db()
    assert row.taken_at is not None and row.sent_at is None and row.attempts == 1
    assert outbox.sweep() == 0  # freshly taken: the worker might still be sending
    with time_machine.travel(timezone.now() + outbox.TAKE_LEASE + timedelta(seconds=5)):
        assert outbox.sweep() == 1
        assert outbox.sweep() == 0
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2
    assert kit.sent_per_row() == {row.pk: 1}


def worker_env(tmp_path: Path, backend: str, **extra: str) -> dict[str, str]:
    """The environment of a worker or beat process on the test database and a
    filesystem broker under ``tmp_path``."""
    return os.environ | {
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DATABASE_URL": database_url(),
        "JUMBULAYA_VAR_DIR": str(tmp_path / "var"),
        "CELERY_BROKER_URL": "filesystem://localhost/",
        "REDIS_URL": "",
        "EMAIL_BACKEND": backend,
        "PYTHONPATH": str(REPO),
        **extra,
    }


def celery(env: dict[str, str], *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "jumbulaya_site", *args, "-l", "WARNING"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(10)


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("JUMBULAYA_MEASURE_KILL") != "1",
    reason="real time (about 2 minutes): set JUMBULAYA_MEASURE_KILL=1",
)
@pytest.mark.django_db(transaction=True)
def test_measure_how_long_an_email_waits_after_its_worker_is_killed_mid_send(
    started_game: Callable[..., Game], kit: Any, tmp_path: Path
) -> None:
    """Beat runs throughout; the worker is SIGKILLed while it sends the row it
    took and started again at once (as systemd's ``Restart=always`` does).
    The email goes once, less than two minutes after it was owed."""
    game = started_game()
    outbox.sweep()
    mail.outbox.clear()
    stalled, sent = tmp_path / "stalled", tmp_path / "sent"
    queue = tmp_path / "var" / "celery" / "queue"
    queue.mkdir(parents=True)
    options = {"data_folder_in": str(queue), "data_folder_out": str(queue)}
    flags = ("--pool=solo", "--without-heartbeat", "--without-gossip", "--without-mingle")
    stalling = worker_env(
        tmp_path, "tests.worker.stalling_backend.EmailBackend", JUMBULAYA_STALL_FILE=str(stalled)
    )
    recording = worker_env(
        tmp_path, "tests.worker.recording_backend.EmailBackend", JUMBULAYA_SENT_FILE=str(sent)
    )
    processes = [celery(stalling, "beat", "-s", str(tmp_path / "beat-schedule"))]
    try:
        with kit.use_broker("filesystem://localhost/", broker_transport_options=options):
            processes.append(celery(stalling, "worker", *flags))
            # The move at a random moment of beat's 30 s period: runs sample its phases.
            time.sleep(random.uniform(0, 30))
            door.submit(game.pk, game.turn_seat, "pass", 1, Event.Source.WEB)
            (row,) = Notification.objects.filter(sent_at__isnull=True)
            kit.wait_for(stalled.exists, "the worker to take the row and start sending", 60)
            processes[-1].send_signal(signal.SIGKILL)
            processes[-1].wait(10)
            killed = time.monotonic()
            processes.append(celery(recording, "worker", *flags))  # restarted
            kit.wait_for(
                lambda: Notification.objects.filter(pk=row.pk, sent_at__isnull=False).exists(),
                "the restarted worker to send the row",
                180,
            )
            after_kill = time.monotonic() - killed
    finally:
        for process in processes:
            stop(process)
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2
    waited = (row.sent_at - row.created_at).total_seconds()
    ids = sent.read_text().split()
    print(
        f"\n[worker killed mid-send] the email was owed {waited:.1f} s before it went "
        f"({after_kill:.1f} s after the kill); sent {len(ids)} time(s)"
    )
    assert len(ids) == 1 and f".{row.pk}." in ids[0]
    assert waited < 120
