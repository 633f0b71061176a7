"""What ``/healthz`` reports: each part with its figures, and the parts failing.

Cheap by design: ``SELECT 1``, the heartbeats (a row per name), one aggregate
over the unsent emails (the ``sent_at`` index), one over the robot turns
not done (the ``done_at`` index), the operator's alarms (a row per name) and
a Redis ``PING`` with a one-second timeout.  No secrets: counts, ages in
seconds, row ids and reason codes, never an address or an error's text.

The heartbeats (beat, the workers, each periodic task of beat's schedule) and
the ages of the outbox and the robot turns are judged only where beat and
workers are expected (``JUMBULAYA_HEALTH_EXPECT_WORKERS``: by default, when the
broker is not kombu's filesystem transport, i.e. not the embedded default).
Elsewhere they are reported, not judged.

The operator's alarms raised (:mod:`ops.alarms`: our mail server refusing our
password, an ESP saying our domain fails DMARC) make the report ``degraded``,
still a 200: the site serves, and a load balancer must not take it out of
rotation for them.  Each is named under ``degraded`` with its reason code.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, Min
from django.utils import timezone

from games.mail_out import outbox
from games.models import Notification, RobotTurn
from games.robots import turns
from ops import alarms, heartbeats
from ops.models import Heartbeat

Part = dict[str, Any]


def _age(at: datetime | None, now: datetime) -> float | None:
    return None if at is None else round((now - at).total_seconds(), 1)


def _minutes(name: str) -> timedelta:
    return timedelta(minutes=getattr(settings, name))


def check_broker() -> Part:
    """A Redis broker answers ``PING`` within a second; another broker is not
    checked (the embedded default's filesystem transport needs no server)."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return {"ok": True, "checked": False, "transport": url.partition(":")[0]}
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    except Exception as e:
        return {"ok": False, "checked": True, "transport": "redis", "error": type(e).__name__}
    finally:
        client.close()
    return {"ok": True, "checked": True, "transport": "redis"}


def _late_after(schedule: Any) -> timedelta:
    """A periodic task is late when it has not completed for twice its
    interval, or for ``JUMBULAYA_HEALTH_SWEEP_MINUTES``, whichever is longer."""
    interval = schedule if isinstance(schedule, int | float) else 0
    return max(_minutes("JUMBULAYA_HEALTH_SWEEP_MINUTES"), timedelta(seconds=2 * interval))


def _database_parts(now: datetime, judged: bool) -> dict[str, Part]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    beats = dict(Heartbeat.objects.values_list("name", "at"))
    parts: dict[str, Part] = {"database": {"ok": True}}

    started = beats.get(heartbeats.BEAT_STARTED)

    def heartbeat(name: str, late: timedelta, *, since_start: bool = False) -> Part:
        at = beats.get(name)
        # A sweep's clock starts again with beat: after a restart it is not
        # late before it has had the time it may take.
        since = max(filter(None, (at, started if since_start else None)), default=None)
        fresh = since is not None and now - since <= late
        return {
            "ok": fresh or not judged,
            "age_s": _age(at, now),
            "late_after_s": int(late.total_seconds()),
        }

    process_late = _minutes("JUMBULAYA_HEALTH_SWEEP_MINUTES")
    parts["beat"] = heartbeat(heartbeats.BEAT, process_late)
    parts["worker"] = heartbeat(heartbeats.WORKER, process_late)
    schedule: dict[str, dict[str, Any]] = settings.CELERY_BEAT_SCHEDULE
    sweeps = {
        str(entry["task"]): heartbeat(
            str(entry["task"]), _late_after(entry.get("schedule")), since_start=True
        )
        for entry in schedule.values()
    }
    parts["sweeps"] = {"ok": all(s["ok"] for s in sweeps.values()), "tasks": sweeps}

    owed = Notification.objects.filter(sent_at__isnull=True, attempts__lt=outbox.MAX_ATTEMPTS)
    mail = owed.aggregate(n=Count("pk"), oldest_at=Min("created_at"), oldest_id=Min("pk"))
    late = _minutes("JUMBULAYA_HEALTH_OUTBOX_MINUTES")
    oldest = mail["oldest_at"]
    parts["outbox"] = {
        "ok": oldest is None or now - oldest <= late or not judged,
        "owed": mail["n"],
        "oldest_age_s": _age(oldest, now),
        "oldest_id": mail["oldest_id"],
        "late_after_s": int(late.total_seconds()),
    }

    robots = RobotTurn.objects.filter(done_at__isnull=True, attempts__lt=turns.MAX_ATTEMPTS)
    owed_turns = robots.aggregate(n=Count("pk"), oldest_due=Min("due_at"))
    late = _minutes("JUMBULAYA_HEALTH_ROBOT_MINUTES")
    due = owed_turns["oldest_due"]
    parts["robot_turns"] = {
        "ok": due is None or now - due <= late or not judged,
        "owed": owed_turns["n"],
        "oldest_due_s_ago": _age(due, now),
        "late_after_s": int(late.total_seconds()),
    }
    return parts


def report() -> tuple[bool, dict[str, Any]]:
    """``(healthy, body)``: the body names each part, and under ``failing`` the
    parts that are not well.  Never raises: a database that is away is the
    ``database`` part failing (the parts read from it are then unknown)."""
    now = timezone.now()
    judged = settings.JUMBULAYA_HEALTH_EXPECT_WORKERS
    parts: dict[str, Part]
    try:
        parts = _database_parts(now, judged)
    except Exception as e:
        parts = {"database": {"ok": False, "error": type(e).__name__}}
    try:
        parts["broker"] = check_broker()
    except Exception as e:
        parts["broker"] = {"ok": False, "error": type(e).__name__}
    failing = []
    for name, part in parts.items():
        if name == "sweeps":  # each late task by its name
            failing += [f"sweep:{task}" for task, s in part["tasks"].items() if not s["ok"]]
        elif not part["ok"]:
            failing.append(name)
    raised = _alarms(now) if parts["database"]["ok"] else {}
    body = {
        "status": "failing" if failing else "degraded" if raised else "ok",
        "failing": failing,
        "degraded": sorted(raised),
        "workers_expected": judged,
        **parts,
        "alarms": raised,
    }
    return not failing, body


def _alarms(now: datetime) -> dict[str, Part]:
    """The operator's alarms raised, by name: the reason's code, since when,
    the failures counted and the latest's age (never what was said)."""
    try:
        raised = alarms.current(now)
    except Exception:  # the database went away since: the report says so elsewhere
        return {}
    return {
        alarm.name: {
            "reason": alarm.reason,
            "since_s": _age(alarm.raised_at, now),
            "failures": alarm.failures,
            "last_s": _age(alarm.last_at, now),
        }
        for alarm in raised
    }
