"""The notification benchmark: the deadline sweep over a large table of active
games, and how fast the outbox renders and hands over emails.

In this process (no server), on a fresh PostgreSQL database of its own
(:data:`NOTIFY_DB`), migrated and dropped afterwards the way :mod:`bench.service`
does it, with its helpers (``python -m bench`` runs this part in a child
process: Django is set up once per process, on one database):

* ``deadline_sweep``: :data:`ACTIVE_GAMES` active games, of which
  :data:`OVERDUE_GAMES` are real games (created and started through
  :mod:`games.core.door`) whose deadline has passed; the others are written with
  ``bulk_create`` (a game row sharing one real cached state, two seats, its
  start event) with deadlines a day or more away, so they owe neither a
  timeout nor a warning.  The sweep is run until every overdue game is
  auto-passed (it takes at most ``deadlines.SWEEP_BATCH`` games a run, as beat
  would every minute); then a sweep with nothing due is timed.
* ``emails_per_second``: :data:`EMAILS` your-turn emails (the ones the timeouts
  owe) rendered and handed to Django's in-memory mail backend one by one by
  :func:`games.mail_out.outbox.send`, claim and bookkeeping included.

Moves nudge the in-memory broker (no worker): the figures are the database
and the rendering, not a broker.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from .databases import BenchDatabase, admin_url, shown, unavailable
from .service import _migrate, _server_env, _setup_django
from .stats import note, summary

#: A database of its own: ``bench service`` may be running at the same time
#: (its database is dropped and recreated by every run).
NOTIFY_DB = "jumbulaya_bench_notify"

ACTIVE_GAMES = 100_000
OVERDUE_GAMES = 1_000
#: Players of the games (each plays many games).
PLAYERS = 200
BULK_BATCH = 5_000
IDLE_SWEEPS = 20
EMAILS = 500
BROKER = "memory://localhost/"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"

#: Goals of the notify figures.
GOALS: dict[str, str] = {
    "notify_deadline_sweep": f"all {OVERDUE_GAMES:,} overdue games of {ACTIVE_GAMES:,} active "
    "auto-passed in ≤ 10 s",
    "notify_idle_sweep": "a sweep with nothing due: median ≤ 5 ms",
    "notify_correct": "each overdue game timed out once, no other game touched, every email sent",
}


def goals(notify: dict[str, Any]) -> dict[str, bool]:
    """Which notify goals are met (none when the figures were skipped)."""
    if "deadline_sweep" not in notify:
        return {}
    sweep = notify["deadline_sweep"]
    emails = notify["emails_per_second"]
    return {
        "notify_deadline_sweep": sweep["timed_out"] == OVERDUE_GAMES and sweep["wall_s"] <= 10,
        "notify_idle_sweep": sweep["idle_sweep_ms"]["median"] <= 5,
        "notify_correct": sweep["correct"] and emails["sent"] == emails["emails"],
    }


# --- the database --------------------------------------------------------------


def _use_memory_broker() -> None:
    """Nudges go to the in-memory broker, whatever broker this process used before."""
    from jumbulaya_site.celery import app

    os.environ["CELERY_BROKER_URL"] = BROKER  # Celery reads it before its own settings
    app.conf.broker_url = BROKER
    app.conf.broker_transport_options = {}
    app._pool = None  # rebuilt from the settings above at the next publish
    app.amqp._producer_pool = None


# --- the data --------------------------------------------------------------------


def _players() -> list[Any]:
    from accounts.models import User

    return [
        User.objects.create_user(
            username=f"notify{i}", email=f"notify{i}@bench.test", display_name=f"Notify {i}"
        )
        for i in range(PLAYERS)
    ]


def _overdue_games(players: list[Any]) -> list[int]:
    """Real two-player games, started through the services, now past their deadline."""
    from django.utils import timezone

    from games.core import lobby
    from games.engine.jumbulaya import PRESETS
    from games.models import Game

    rules = PRESETS["official"]
    ids = []
    for i in range(OVERDUE_GAMES):
        a, b = players[i % PLAYERS], players[(i + 1) % PLAYERS]
        game = lobby.create_game(
            a, seat_count=2, rules=rules, move_hours=72, invite_emails=[b.email]
        )
        lobby.join_game(game.pk, b)
        ids.append(game.pk)
    Game.objects.filter(pk__in=ids).update(deadline_at=timezone.now() - timedelta(hours=1))
    return ids


def _bulk_games(players: list[Any], template_id: int, count: int) -> int:
    """``count`` active games written directly: one shared cached state and start
    event (those of ``template_id``), two seats each, deadlines spread from 25 to
    72 hours away (none due, none to warn).  Returns the state's size in bytes.

    The JSON columns are filled by one UPDATE per batch: Django's bulk insert
    on PostgreSQL passes each column as an array, and escaping thousands of JSON
    texts into arrays would take most of the bench's time."""
    import json

    from django.utils import timezone

    from games.models import Event, Game, Seat
    from games.timing import deadlines

    template = Game.objects.get(pk=template_id)
    started = Event.objects.get(game_id=template_id, seq=1)
    now = timezone.now()
    spread = int(timedelta(hours=47).total_seconds())
    made = 0
    while made < count:
        n = min(BULK_BATCH, count - made)
        games = Game.objects.bulk_create(
            [
                Game(
                    created_by=players[(made + k) % PLAYERS],
                    seat_count=2,
                    rules={},
                    lexicon_name=template.lexicon_name,
                    lexicon_sha256=template.lexicon_sha256,
                    move_minutes=72 * 60,
                    status=Game.Status.PLAYING,
                    last_seq=1,
                    turn_seat=(made + k) % 2,
                    **deadlines.deadline_fields(
                        template, now + timedelta(hours=25, seconds=(made + k) * 7919 % spread)
                    ),
                    started_at=now,
                )
                for k in range(n)
            ]
        )
        ids = [g.pk for g in games]
        Game.objects.filter(pk__in=ids).update(rules=template.rules, state=template.state)
        Seat.objects.bulk_create(
            [
                Seat(
                    game=game,
                    index=index,
                    user=players[(made + k + index) % PLAYERS],
                    joined_at=now,
                )
                for k, game in enumerate(games)
                for index in (0, 1)
            ]
        )
        Event.objects.bulk_create(
            [
                Event(
                    game=game,
                    seq=1,
                    type=started.type,
                    seat=None,
                    source=Event.Source.SYSTEM,
                    payload={},
                    private_seat=None,
                )
                for game in games
            ]
        )
        Event.objects.filter(game_id__in=ids).update(
            payload=started.payload, private=started.private
        )
        made += n
    return len(json.dumps(template.state))


def _analyze() -> None:
    """Fresh planner statistics, as a table that grew over time has."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


# --- the figures -------------------------------------------------------------------


def deadline_sweep(overdue: list[int]) -> dict[str, Any]:
    """Sweep until every overdue game is auto-passed, then time idle sweeps."""
    from django.utils import timezone

    from games.core import timeouts
    from games.models import Event, Game
    from games.timing import deadlines

    before = Event.objects.count()
    runs: list[int] = []
    wall0 = time.perf_counter_ns()
    for _ in range(OVERDUE_GAMES // deadlines.SWEEP_BATCH + 5):
        t0 = time.perf_counter_ns()
        written = timeouts.sweep_deadlines()
        runs.append(time.perf_counter_ns() - t0)
        if written == 0:
            break
    wall = (time.perf_counter_ns() - wall0) / 1e9
    timed_out = Event.objects.filter(type="timed_out").count()
    per_game = Event.objects.filter(type="timed_out").values("game").distinct().count()
    touched = Event.objects.filter(type="timed_out").exclude(game_id__in=overdue).count()
    still_due = Game.objects.filter(
        status=Game.Status.PLAYING, deadline_at__lte=timezone.now()
    ).count()
    idle = []
    for _ in range(IDLE_SWEEPS):
        t0 = time.perf_counter_ns()
        written = timeouts.sweep_deadlines()
        idle.append(time.perf_counter_ns() - t0)
        if written:
            note(f"an idle sweep wrote {written} moves")
    return {
        "active_games": Game.objects.filter(status=Game.Status.PLAYING).count(),
        "overdue_games": len(overdue),
        "timed_out": timed_out,
        "wall_s": round(wall, 2),
        "sweeps": len(runs),
        "sweep_batch": deadlines.SWEEP_BATCH,
        "sweep_ms": [round(ns / 1e6, 1) for ns in runs],
        "per_timeout_ms": round(wall * 1e3 / max(timed_out, 1), 2),
        "events_written": Event.objects.count() - before,
        "correct": timed_out == per_game == len(overdue) and touched == 0 and still_due == 0,
        "idle_sweep_ms": summary(idle, "ms"),
    }


def emails_per_second() -> dict[str, Any]:
    """Send :data:`EMAILS` owed your-turn emails through the outbox to the
    in-memory backend."""
    from django.core import mail
    from django.db.models import F
    from django.test.utils import override_settings
    from django.utils import timezone

    from games.mail_out import outbox
    from games.models import Notification

    ids = list(
        Notification.objects.filter(
            kind=Notification.Kind.YOUR_TURN,
            sent_at__isnull=True,
            event_seq=F("game__last_seq"),
        )
        .order_by("pk")
        .values_list("pk", flat=True)[:EMAILS]
    )
    # The emails owed before these (the games' start) went out long ago, as the
    # sweep would have sent them: each recipient's emails go in order, so an
    # older one left unsent would hold these back.
    Notification.objects.filter(sent_at__isnull=True, pk__lt=ids[-1]).exclude(pk__in=ids).update(
        sent_at=timezone.now()
    )
    times: list[float] = []
    with override_settings(MAILERS={"default": {"BACKEND": LOCMEM}}):
        mail.outbox = []
        outbox.send(ids[0])  # templates and the word list, before the clock starts
        mail.outbox = []
        ids = ids[1:]
        wall0 = time.perf_counter_ns()
        for pk in ids:
            t0 = time.perf_counter_ns()
            outbox.send(pk)
            times.append(time.perf_counter_ns() - t0)
        wall = (time.perf_counter_ns() - wall0) / 1e9
        sent = list(mail.outbox)
    sizes = [len(m.message().as_bytes()) for m in sent[:50]]
    return {
        "emails": len(ids),
        "sent": len(sent),
        "per_second": round(len(sent) / wall, 1) if wall else None,
        "send_ms": summary(times, "ms"),
        "mean_size_kb": round(statistics.mean(sizes) / 1024, 1) if sizes else None,
        "backend": LOCMEM,
    }


# --- all of it ---------------------------------------------------------------------


def run() -> dict[str, Any]:
    """The notify figures, or why they were skipped."""
    db = BenchDatabase(NOTIFY_DB, admin_url())
    why = unavailable(db)
    if why is not None:
        return {"skipped": why}
    from django.conf import settings

    if settings.configured:  # python -m bench runs this part in a process of its own
        raise RuntimeError("the notify bench sets Django up on its own database: run it first")
    db_url = db.url
    began = time.perf_counter()
    out: dict[str, Any] = {"database": shown(db_url), "broker": BROKER}
    var_dir = Path(tempfile.mkdtemp(prefix="jumbulaya-bench-notify-"))
    env = _server_env(db_url, var_dir) | {"CELERY_BROKER_URL": BROKER}
    try:
        note(f"creating and migrating {NOTIFY_DB}")
        db.recreate()
        _migrate(env)
        _setup_django(env)
        _use_memory_broker()
        t0 = time.perf_counter()
        players = _players()
        note(f"starting {OVERDUE_GAMES:,} real games through the services")
        overdue = _overdue_games(players)
        real_s = time.perf_counter() - t0
        note(f"writing {ACTIVE_GAMES - OVERDUE_GAMES:,} more active games with bulk_create")
        t0 = time.perf_counter()
        state_bytes = _bulk_games(players, overdue[0], ACTIVE_GAMES - OVERDUE_GAMES)
        _analyze()
        out["setup"] = {
            "players": PLAYERS,
            "real_games_s": round(real_s, 1),
            "bulk_games_s": round(time.perf_counter() - t0, 1),
            "cached_state_bytes": state_bytes,
        }
        note(f"sweeping deadlines until {OVERDUE_GAMES:,} games are auto-passed")
        out["deadline_sweep"] = deadline_sweep(overdue)
        note(f"sending {EMAILS} your-turn emails through the outbox")
        out["emails_per_second"] = emails_per_second()
    finally:
        if settings.configured:
            from django.db import connections

            connections.close_all()
        db.drop()
        shutil.rmtree(var_dir, ignore_errors=True)
    out["runtime_s"] = round(time.perf_counter() - began, 1)
    return out
