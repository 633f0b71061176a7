"""/healthz: each part reported, 200 when every part is well (``degraded``, still
200, while an alarm of ours is raised), else 503 with the failing ones named;
the heartbeats it reads, written by beat, the workers and each sweep of beat's
schedule."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.signals import beat_init, before_task_publish
from django.conf import settings as django_settings
from django.db import OperationalError
from django.test import Client
from django.utils import timezone

from games import tasks
from games.mail_out import outbox
from games.models import Game, Notification, RobotTurn
from ops import alarms, health, heartbeats
from ops.models import Heartbeat
from tests.test_deploy import PRODUCTION, settings_in

pytestmark = pytest.mark.django_db

SCHEDULED = sorted({e["task"] for e in django_settings.CELERY_BEAT_SCHEDULE.values()})


@pytest.fixture
def production(settings: Any) -> Any:
    """Beat and workers expected; a broker that needs no server (each broker test sets its own)."""
    settings.JUMBULAYA_HEALTH_EXPECT_WORKERS = True
    settings.CELERY_BROKER_URL = "filesystem://localhost/"
    return settings


def all_fresh(age: timedelta = timedelta(seconds=5)) -> None:
    for name in [heartbeats.BEAT, heartbeats.WORKER, *SCHEDULED]:
        heartbeats.record(name, timezone.now() - age)


def healthz() -> tuple[int, dict[str, Any]]:
    response = Client(raise_request_exception=False).get("/healthz")
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


def test_every_part_well_is_200_with_each_part_in_the_body(production: Any) -> None:
    all_fresh()
    status, body = healthz()
    assert status == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    for part in ("database", "broker", "beat", "worker", "sweeps", "outbox", "robot_turns"):
        assert body[part]["ok"] is True, part
    assert sorted(body["sweeps"]["tasks"]) == SCHEDULED
    assert body["outbox"] == {
        "ok": True,
        "owed": 0,
        "oldest_age_s": None,
        "oldest_id": None,
        "late_after_s": 600,
    }
    assert body["robot_turns"]["owed"] == 0


def test_a_late_sweep_is_named(production: Any) -> None:
    all_fresh()
    heartbeats.record("games.tasks.sweep_outbox", timezone.now() - timedelta(minutes=6))
    # The analyses run every 10 minutes: late only after twice that.
    heartbeats.record("games.tasks.sweep_analyses", timezone.now() - timedelta(minutes=15))
    status, body = healthz()
    assert status == 503
    assert body["failing"] == ["sweep:games.tasks.sweep_outbox"]
    assert body["sweeps"]["tasks"]["games.tasks.sweep_outbox"]["age_s"] >= 360


def test_after_beat_starts_a_sweep_is_not_late_before_it_has_had_its_time(
    production: Any,
) -> None:
    """A restart after a long stop: every sweep's last run is old, but beat has
    just started, so none is late yet; one still not run past its time is."""
    all_fresh(age=timedelta(hours=3))
    heartbeats.record(heartbeats.BEAT)
    heartbeats.record(heartbeats.WORKER)
    heartbeats.record(heartbeats.BEAT_STARTED, timezone.now() - timedelta(minutes=2))
    status, body = healthz()
    assert status == 200, body
    heartbeats.record(heartbeats.BEAT_STARTED, timezone.now() - timedelta(minutes=6))
    heartbeats.record("games.tasks.sweep_outbox")  # ran since the start; the others not
    status, body = healthz()
    assert status == 503
    assert "sweep:games.tasks.sweep_outbox" not in body["failing"]
    assert "sweep:games.tasks.sweep_deadlines" in body["failing"]
    assert "sweep:games.tasks.sweep_analyses" not in body["failing"]  # 20 minutes to run


def test_beat_records_when_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heartbeats, "_in_beat", False)
    beat_init.send(sender=None)
    assert Heartbeat.objects.filter(name=heartbeats.BEAT_STARTED).exists()


def test_without_beat_or_workers_every_heartbeat_fails(production: Any) -> None:
    status, body = healthz()
    assert status == 503
    assert body["failing"] == ["beat", "worker", *[f"sweep:{t}" for t in body["sweeps"]["tasks"]]]
    assert body["beat"]["age_s"] is None


def test_the_embedded_default_reports_the_heartbeats_without_judging_them(settings: Any) -> None:
    """No beat need run in the embedded default (the filesystem broker): healthy
    is the database answering; the rest is there to read."""
    settings.JUMBULAYA_HEALTH_EXPECT_WORKERS = False
    settings.CELERY_BROKER_URL = "filesystem://localhost/"
    status, body = healthz()
    assert status == 200 and body["workers_expected"] is False
    assert body["broker"] == {"ok": True, "checked": False, "transport": "filesystem"}


@pytest.mark.slow
def test_workers_are_expected_by_default_where_the_broker_is_not_the_embedded_one(
    tmp_path: Path,
) -> None:
    names = ["JUMBULAYA_HEALTH_EXPECT_WORKERS"]
    assert settings_in(tmp_path, PRODUCTION, names) == {names[0]: False}
    redis = PRODUCTION | {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert settings_in(tmp_path, redis, names) == {names[0]: True}
    chosen = redis | {"JUMBULAYA_HEALTH_EXPECT_WORKERS": "0"}
    assert settings_in(tmp_path, chosen, names) == {names[0]: False}


def test_an_old_owed_email_fails_the_outbox_and_names_its_row_only(
    production: Any, started_game: Callable[..., Game]
) -> None:
    game = started_game()
    all_fresh()
    Notification.objects.all().update(sent_at=timezone.now())
    old = Notification.objects.create(
        kind=Notification.Kind.YOUR_TURN,
        email="secret.player@example.com",
        game=game,
        attempts=3,
        last_error="SMTPRecipientsRefused: secret.player@example.com",
    )
    Notification.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    # A row given up is not owed any more: it does not count.
    gone = Notification.objects.create(kind="your_turn", game=game, attempts=outbox.MAX_ATTEMPTS)
    Notification.objects.filter(pk=gone.pk).update(created_at=timezone.now() - timedelta(days=9))
    status, body = healthz()
    assert status == 503 and body["failing"] == ["outbox"]
    assert body["outbox"]["owed"] == 1 and body["outbox"]["oldest_id"] == old.pk
    assert body["outbox"]["oldest_age_s"] >= 660
    assert "@" not in str(body) and "SMTP" not in str(body)  # no address, no error text
    Notification.objects.filter(pk=old.pk).update(created_at=timezone.now())
    assert healthz()[0] == 200


def test_a_robot_turn_overdue_fails_robot_turns(
    production: Any, started_game: Callable[..., Game]
) -> None:
    game = started_game()
    all_fresh()
    Notification.objects.all().update(sent_at=timezone.now())
    RobotTurn.objects.create(game=game, seat=1, seq=1, due_at=timezone.now() + timedelta(hours=1))
    assert healthz()[0] == 200  # owed, not yet due (a human pace)
    RobotTurn.objects.create(
        game=game, seat=0, seq=1, due_at=timezone.now() - timedelta(minutes=11)
    )
    status, body = healthz()
    assert status == 503 and body["failing"] == ["robot_turns"]
    assert body["robot_turns"]["owed"] == 2 and body["robot_turns"]["oldest_due_s_ago"] >= 660


def test_a_database_away_is_503_database_never_an_error(
    production: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Away:
        def cursor(self) -> None:
            raise OperationalError("connection refused")

    monkeypatch.setattr(health, "connection", Away())
    status, body = healthz()
    assert status == 503
    assert body["failing"] == ["database"]
    assert body["database"] == {"ok": False, "error": "OperationalError"}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_redis_broker_that_does_not_answer_fails_broker(production: Any) -> None:
    all_fresh()
    production.CELERY_BROKER_URL = f"redis://127.0.0.1:{_closed_port()}/0"
    status, body = healthz()
    assert status == 503 and body["failing"] == ["broker"]
    assert body["broker"]["checked"] is True


def test_a_redis_broker_that_answers_is_well(production: Any) -> None:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    all_fresh()
    production.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    status, body = healthz()
    assert status == 200, body
    assert body["broker"] == {"ok": True, "checked": True, "transport": "redis"}


def test_healthz_is_a_few_queries(
    production: Any, django_assert_max_num_queries: Any, started_game: Callable[..., Game]
) -> None:
    started_game()
    with django_assert_max_num_queries(5):
        health.report()


def test_an_alarm_of_ours_is_degraded_still_200_and_named_without_what_was_said(
    production: Any,
) -> None:
    all_fresh()
    alarms.sound("mail_send", "smtp_auth", "535 5.7.8 secret-ish text", explained="x")
    alarms.sound("mail_esp", "postmark_dmarc", "DMARC", explained="y", lapse_after=timedelta(0))
    status, body = healthz()
    assert status == 200, body
    assert (body["status"], body["failing"], body["degraded"]) == ("degraded", [], ["mail_send"])
    assert body["alarms"]["mail_send"]["reason"] == "smtp_auth"
    assert body["alarms"]["mail_send"]["failures"] == 1
    assert "secret-ish" not in json.dumps(body)  # a lapsed alarm and what was said: not shown
    alarms.clear("mail_send")
    assert healthz()[1]["status"] == "ok"


def test_a_heartbeat_is_one_row_upserted() -> None:
    heartbeats.record("x", timezone.now() - timedelta(hours=1))
    heartbeats.record("x")
    row = Heartbeat.objects.get()
    assert row.name == "x" and timezone.now() - row.at < timedelta(seconds=5)


@pytest.mark.parametrize("task", SCHEDULED)
def test_each_task_of_beats_schedule_records_its_heartbeat(task: str) -> None:
    run = getattr(tasks, task.removeprefix("games.tasks."))
    assert run() == 0
    assert Heartbeat.objects.filter(name=task).exists()


def test_a_task_a_worker_runs_records_the_workers_heartbeat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(heartbeats, "_last_written", {})
    tasks.send_notifications.apply(args=([],))
    assert Heartbeat.objects.filter(name=heartbeats.WORKER).exists()
    assert not Heartbeat.objects.filter(name=heartbeats.BEAT).exists()


def test_beat_records_its_heartbeat_when_it_publishes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heartbeats, "_last_written", {})
    before_task_publish.send(sender="games.tasks.sweep_outbox")  # the web's nudges: no heartbeat
    assert not Heartbeat.objects.exists()
    monkeypatch.setattr(heartbeats, "_in_beat", False)
    beat_init.send(sender=None)
    before_task_publish.send(sender="games.tasks.sweep_outbox")
    assert Heartbeat.objects.filter(name=heartbeats.BEAT).exists()
