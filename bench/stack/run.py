"""``python -m bench stack [--games N] [--ci] [--redis-down S] [--json PATH]``: the run
and its summary.

The full run plays 200 games under the default :class:`~bench.stack.faults.Plan`;
``--ci`` plays 20 (or ``--games``) with shorter outages; ``--redis-down`` stops Redis
for S seconds instead of the plan's (issue 21's outside run stopped it for 30).  It prints one JSON
object and exits 1 on any loss, duplicate, leak, unfinished game, 5xx outside
the database's outage or a log that does not replay.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.inbound import Credentials

from . import report
from .client import Recorder
from .driver import Ledger, Player, Seat, Table, db_retry, play_turn
from .faults import Faults, Plan
from .sink import SinkServer
from .topology import REPO, Topology

SEED = 20240613
SECRET_KEY = "stack-test-secret-key-not-for-production-0123456789abcdef"
CI_PLAN = Plan(
    worker_kill_at=10, web_kill_at=20, redis_at=30, redis_down_s=15,
    postgres_at=55, postgres_down_s=3, two_beats_at=65, two_beats_s=60,
)  # fmt: skip


def environment(root: Path, smtp_port: int, credentials: Credentials) -> dict[str, str]:
    """The stack's settings, from environment variables only (as .env.example names them)."""
    var = os.environ.get("JUMBULAYA_VAR_DIR") or str(REPO / "var")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "JUMBULAYA_"))}
    return env | {
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "DJANGO_SECRET_KEY": SECRET_KEY,
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_HSTS_SECONDS": "0",
        "DJANGO_LOG_LEVEL": "INFO",
        "JUMBULAYA_LOG_FORMAT": "json",
        "JUMBULAYA_VAR_DIR": str(root / "var"),
        "JUMBULAYA_WORDLIST_DIR": os.environ.get("JUMBULAYA_WORDLIST_DIR") or f"{var}/wordlists",
        "JUMBULAYA_MAILBOX": "0",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "JUMBULAYA_INBOUND_ESPS": "postmark,mailgun",
        "ANYMAIL_WEBHOOK_SECRET": credentials.basic_auth,
        "ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY": credentials.mailgun_key,
        "JUMBULAYA_INBOUND_PER_HOUR": "100000",
        "JUMBULAYA_GAMES_PER_DAY": "0",
        "JUMBULAYA_INVITATIONS_PER_DAY": "0",
        "CELERY_BROKER_URL": "",
    }


def populate(count: int, rng: random.Random) -> list[Table]:
    """``count`` started games: 2, 3 and 4 seats, both presets, claim windows on, a
    robot in every fifth, each human player an account of their own."""
    from accounts.models import User
    from bench.service import _session
    from games.core import lobby
    from games.engine.jumbulaya import PRESETS
    from games.engine.jumbulaya.robots import LEVELS

    level = next(iter(LEVELS))
    tables = []
    for i in range(count):
        seats, preset = 2 + i % 3, ("official", "boardspace")[(i // 3) % 2]
        robots = [level] if i % 5 == 4 else []
        humans = [
            User.objects.create_user(
                username=f"p{i}x{k}", email=f"p{i}x{k}@players.test", display_name=f"P{i} {k}"
            )
            for k in range(seats - len(robots))
        ]
        game = lobby.create_game(
            humans[0], seat_count=seats, rules=PRESETS[preset], move_hours=1,
            invite_emails=[u.email for u in humans[1:]], claim_window=True, robots=robots,
        )  # fmt: skip
        for invited in humans[1:]:
            lobby.join_game(game.pk, invited)
        table = Table(game.pk, [], preset)
        for seat in game.seats.select_related("user").order_by("index"):
            user = seat.user
            assert user is not None
            robot = bool(user.robot_level)
            table.seats.append(
                Seat(seat.index, user.pk, user.display_name, user.email.lower(),
                     "" if robot else _session(user), robot,
                     1 if not robot and rng.random() < 0.15 else 0)
            )  # fmt: skip
        tables.append(table)
    return tables


def play(tables: list[Table], players: list[Player], deadline: float) -> None:
    """Each thread plays its share of the games, round after round, until all are over."""
    bar = tqdm(total=len(tables), desc="games finished", file=sys.stderr)
    lock = threading.Lock()

    def work(k: int) -> None:
        mine = tables[k :: len(players)]
        while time.monotonic() < deadline:
            open_ = [t for t in mine if not t.finished]
            if not open_:
                return
            for table in open_:
                if play_turn(players[k], table):
                    with lock:
                        bar.update(1)
            time.sleep(0.2)

    threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(len(players))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(1.0, deadline - time.monotonic() + 5))
    bar.close()


def drain(seconds: float) -> None:
    """Wait (bounded) for the outbox to have nothing due left to send."""
    from django.db.models import Q
    from django.utils import timezone

    from games.models import Notification

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        owed = db_retry(
            lambda: (
                Notification.objects.filter(sent_at__isnull=True, attempts__lt=40)
                .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=timezone.now()))
                .count()
            )
        )
        if owed == 0:
            return
        time.sleep(2)


def main(args: list[str]) -> int:
    ci = "--ci" in args
    count = int(args[args.index("--games") + 1]) if "--games" in args else (20 if ci else 200)
    plan = CI_PLAN if ci else Plan()
    if "--redis-down" in args:
        plan = dataclasses.replace(plan, redis_down_s=float(args[args.index("--redis-down") + 1]))
    limit = float(args[args.index("--minutes") + 1]) * 60 if "--minutes" in args else (
        150.0 if ci else 1500.0)  # fmt: skip
    rng = random.Random(SEED)
    root = Path(tempfile.mkdtemp(prefix="jumbulaya-stack-"))
    os.chmod(root, 0o755)
    credentials = Credentials.fresh()
    sink = SinkServer()
    sink.start()
    env = environment(root, sink.port, credentials)
    topology = Topology(root, env)
    faults = Faults(topology, plan)
    supervised = threading.Event()  # set: the supervisor stops restarting processes
    began = time.monotonic()
    summary: dict[str, Any] = {"games_asked": count, "ci": ci}
    try:
        topology.start()
        os.environ.update(topology.env)
        import django

        django.setup()
        logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's every command
        tables = populate(count, rng)
        recorder, ledger = Recorder(), Ledger()
        players = [
            Player(topology.web_port, sink.sink, ledger, recorder, credentials, SEED + k)
            for k in range(6)
        ]
        threading.Thread(target=topology.supervise, args=(supervised,), daemon=True).start()
        fault_thread = threading.Thread(target=faults.run, daemon=True)
        fault_thread.start()
        play(tables, players, time.monotonic() + limit)
        faults.stop.set()
        fault_thread.join(plan.two_beats_s + plan.redis_down_s + 30)
        drain(90 if ci else 180)
        time.sleep(3)
        from django.db import connection

        connection.close()
        check = topology.manage("rebuild_games", "--check")
        seats = {(t.pk, s.email): s.index for t in tables for s in table_seats(t)}
        summary |= {
            "games": report.games(tables),
            "moves": report.moves(ledger),
            "emails": report.emails(
                sink.sink.snapshot(), seats, ledger,
                [w for w in faults.windows if w.fault.startswith("celery worker SIGKILL")]),
            "http": report.server_errors(recorder, faults.postgres_down),
            "leaks": {"scanned": ledger.pages_scanned, "found": len(ledger.leaks),
                      "samples": ledger.leaks[:5]},
            "rebuild_games_check": {"exit": check.returncode, "out": check.stdout[-400:]},
            "latency_ms": {ch: report.percentiles(v) for ch, v in ledger.latencies.items()},
            "channels": {"fallbacks_to_web": ledger.fallbacks, "calls": ledger.calls,
                         "sleeps_to_deadline": ledger.sleeps,
                         "claim_windows_closed_early": ledger.windows_closed},
            "faults": faults.log,
            "restarted_by_the_supervisor": topology.restarts,
            "fault_windows": report.fault_windows(
                faults.windows, recorder, sink.sink.snapshot(), topology.processes()),
        }  # fmt: skip
    finally:
        faults.stop.set()
        supervised.set()
        topology.close()
        sink.stop()
        summary["runtime_s"] = round(time.monotonic() - began, 1)
        if os.environ.get("JUMBULAYA_STACK_KEEP") != "1":
            shutil.rmtree(root, ignore_errors=True)
        else:
            summary["logs"] = str(root)
    summary["ok"] = ok(summary)
    json.dump(summary, sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")
    return 0 if summary["ok"] else 1


def table_seats(table: Table) -> list[Seat]:
    return [s for s in table.seats if not s.robot]


def ok(summary: dict[str, Any]) -> bool:
    """Nothing lost, nothing twice, every game over, no leak, the logs replay."""
    try:
        return bool(
            summary["games"]["status"].get("over", 0) == summary["games"]["games"]
            and summary["moves"]["lost"] == 0
            and summary["moves"]["made_twice"] == 0
            and summary["moves"]["not_in_ledger"] == 0
            and summary["emails"]["delivered_twice"] == 0
            and summary["emails"]["sent_but_not_arrived"] == 0
            and summary["http"]["5xx_outside_db_outage"] == 0
            and summary["leaks"]["found"] == 0
            and summary["rebuild_games_check"]["exit"] == 0
        )
    except KeyError:
        return False
