"""The tracking benchmark: the ESPs' tracking webhooks (bounces, deferrals,
complaints, deliveries), end to end.

Like :mod:`bench.inbound`: a real gunicorn server (:data:`WORKERS` sync
workers) on a fresh PostgreSQL database of its own (:data:`TRACKING_DB`), with
``ANYMAIL_WEBHOOK_SECRET`` and ``ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY`` set, so
every post pays for django-anymail's credential check and parsing and for
:func:`games.mail_out.tracking.record`: the outbox row found by the ESP's
message id, the event stored once, the address's status.

This process starts :data:`GAMES` two-player games (each game's four first
emails are outbox rows given an ESP message id, as a send through the ESP
stores it), then writes one event per row: of every eight, five deliveries, a
soft bounce, a hard bounce and a spam complaint; one in :data:`MAILGUN_EVERY`
is a signed Mailgun post, the others Postmark's JSON.  :data:`THREADS` client
threads post them (``webhooks_per_second``), then the same events again, as an
ESP retrying would (``duplicates_per_second``; Mailgun's signed anew: a
signature counts once), then :data:`REJECTED` with a
wrong signature or basic auth.  The database then says what came of them: one
``MailEvent`` per event, none for a duplicate or a bad credential, and the
addresses hard-bounced or complained of stopped.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import secrets
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .databases import BenchDatabase, admin_url, shown, unavailable
from .inbound import Credentials, _start_games
from .notify import _use_memory_broker
from .service import Server, _migrate, _server_env, _setup_django
from .stats import note

TRACKING_DB = "jumbulaya_bench_tracking"
GAMES = 150
WORKERS = 2
THREADS = 4
MAILGUN_EVERY = 4
REJECTED = 20
BROKER = "memory://localhost/"
POSTMARK_PATH = "/anymail/postmark/tracking/"
MAILGUN_PATH = "/anymail/mailgun/tracking/"
#: What happens to each of eight messages in turn.
MIX = ("delivered",) * 5 + ("soft", "bounce", "complaint")

GOALS: dict[str, str] = {
    "tracking_correct": "every tracking event was stored once against its outbox row, "
    "every duplicate and bad credential changed nothing, and every address hard-bounced or "
    "complained of is stopped",
}


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    """Which tracking goals are met (none when the figures were skipped)."""
    if "correct" not in figures:
        return {}
    return {"tracking_correct": figures["correct"]}


@dataclass(frozen=True)
class Hook:
    """One HTTP post, ready to send."""

    path: str
    body: bytes
    headers: dict[str, str]
    what: str
    address: str


def _signature(creds: Credentials) -> dict[str, str]:
    """A Mailgun signature block made now, with a token of its own."""
    timestamp, token = str(int(time.time())), secrets.token_hex(25)
    signature = hmac.new(
        creds.mailgun_key.encode(), (timestamp + token).encode(), hashlib.sha256
    ).hexdigest()
    return {"timestamp": timestamp, "token": token, "signature": signature}


def _mailgun(what: str, address: str, message_id: str, creds: Credentials) -> Hook:
    event = {"delivered": "delivered", "soft": "failed", "bounce": "failed"}.get(what, "complained")
    data: dict[str, Any] = {
        "id": secrets.token_urlsafe(16),
        "timestamp": time.time(),
        "event": event,
        "recipient": address,
        "message": {"headers": {"message-id": message_id, "to": address}},
        "tags": [],
        "user-variables": {},
    }
    if what in ("soft", "bounce"):
        data |= {
            "severity": "temporary" if what == "soft" else "permanent",
            "reason": "generic" if what == "soft" else "bounce",
            "delivery-status": {"code": 452 if what == "soft" else 550, "message": "said"},
        }
    body = {"signature": _signature(creds), "event-data": data}
    headers = {"Content-Type": "application/json", "Authorization": creds.authorization()}
    return Hook(MAILGUN_PATH, json.dumps(body).encode(), headers, what, address)


def _postmark(what: str, address: str, message_id: str, creds: Credentials) -> Hook:
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if what == "delivered":
        body: dict[str, Any] = {
            "RecordType": "Delivery",
            "MessageID": message_id,
            "Recipient": address,
            "DeliveredAt": now,
            "Details": "smtp;250 OK",
        }
    else:
        kind = {"soft": "SoftBounce", "bounce": "HardBounce"}.get(what, "SpamComplaint")
        body = {
            "RecordType": "SpamComplaint" if kind == "SpamComplaint" else "Bounce",
            "ID": secrets.randbelow(10**15),
            "Type": kind,
            "MessageID": message_id,
            "Email": address,
            "BouncedAt": now,
            "Description": "said",
        }
    headers = {"Content-Type": "application/json", "Authorization": creds.authorization()}
    return Hook(POSTMARK_PATH, json.dumps(body).encode(), headers, what, address)


def _hooks(creds: Credentials) -> list[Hook]:
    """One event per outbox row, each row given an ESP message id first."""
    from games.models import Notification

    hooks = []
    rows = Notification.objects.filter(user__isnull=False).select_related("user").order_by("pk")
    for k, row in enumerate(rows):
        assert row.user is not None
        esp_id = str(uuid.uuid4())
        Notification.objects.filter(pk=row.pk).update(esp_message_id=esp_id)
        make = _mailgun if k % MAILGUN_EVERY == 0 else _postmark
        hooks.append(make(MIX[k % len(MIX)], row.user.email, esp_id, creds))
    return hooks


def _post_all(port: int, hooks: list[Hook]) -> tuple[float, list[int]]:
    """``hooks`` posted by :data:`THREADS` client threads; wall time and statuses."""
    parts = [hooks[k::THREADS] for k in range(THREADS)]
    statuses: list[list[int]] = [[] for _ in parts]
    start = threading.Barrier(THREADS + 1)

    def run(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start.wait()
        for hook in parts[k]:
            for _ in range(2):  # once more if the server closed a kept-alive connection
                try:
                    conn.request("POST", hook.path, body=hook.body, headers=hook.headers)
                    resp = conn.getresponse()
                    resp.read()
                    statuses[k].append(resp.status)
                    break
                except (http.client.HTTPException, OSError):
                    conn.close()
            else:
                statuses[k].append(0)
        conn.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, [s for part in statuses for s in part]


def _retried(hooks: list[Hook], creds: Credentials) -> list[Hook]:
    """``hooks`` posted again as the ESPs retry them: Mailgun signs each retry
    anew (a signature counts once), Postmark posts the same body."""
    again = []
    for hook in hooks:
        if hook.path == MAILGUN_PATH:
            body = json.loads(hook.body) | {"signature": _signature(creds)}
            hook = Hook(hook.path, json.dumps(body).encode(), hook.headers, hook.what, hook.address)
        again.append(hook)
    return again


def _forged(hooks: list[Hook]) -> list[Hook]:
    bad = Credentials.fresh()
    return [
        Hook(
            hook.path,
            hook.body,
            hook.headers | {"Authorization": bad.authorization()},
            "forged",
            hook.address,
        )
        for hook in hooks[:REJECTED]
    ]


def _phases(port: int, hooks: list[Hook], creds: Credentials) -> dict[str, Any]:
    from games.models import MailEvent, MailStatus

    out: dict[str, Any] = {"posts": len(hooks)}
    wall, statuses = _post_all(port, hooks)
    out["webhooks_per_second"] = round(len(hooks) / wall, 1)
    stored = MailEvent.objects.count()
    wall, again = _post_all(port, _retried(hooks, creds))
    out["duplicates_per_second"] = round(len(hooks) / wall, 1)
    _, rejected = _post_all(port, _forged(hooks))
    stopped = set(
        MailStatus.objects.filter(stopped_at__isnull=False).values_list("address", flat=True)
    )
    hard = {h.address for h in hooks if h.what in ("bounce", "complaint")}
    out["checks"] = {
        "all_200": set(statuses) == {200} and set(again) == {200},
        "stored_once": stored == len(hooks) == MailEvent.objects.count(),
        "against_rows": MailEvent.objects.filter(notification__isnull=False).count() == len(hooks),
        "rejected_400": set(rejected) == {400},
        "stopped": hard <= stopped,
    }
    out["correct"] = all(out["checks"].values())
    return out


def run() -> dict[str, Any]:
    """The tracking figures, or why they were skipped."""
    db = BenchDatabase(TRACKING_DB, admin_url())
    why = unavailable(db)
    if why is not None:
        return {"skipped": why}
    from django.conf import settings

    if settings.configured:
        raise RuntimeError("the tracking bench sets Django up on its own database: run it first")
    began = time.perf_counter()
    creds = Credentials.fresh()
    out: dict[str, Any] = {
        "database": shown(db.url),
        "transport": f"HTTP to gunicorn ({WORKERS} sync workers)",
        "client_threads": THREADS,
    }
    var_dir = Path(tempfile.mkdtemp(prefix="jumbulaya-bench-tracking-"))
    env = _server_env(db.url, var_dir) | {
        "CELERY_BROKER_URL": BROKER,
        "ANYMAIL_WEBHOOK_SECRET": creds.basic_auth,
        "ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY": creds.mailgun_key,
        "JUMBULAYA_INBOUND_ESPS": "postmark,mailgun",
    }
    try:
        note(f"creating and migrating {TRACKING_DB}")
        db.recreate()
        _migrate(env)
        _setup_django(env)
        _use_memory_broker()
        note(f"starting {GAMES} games; one tracking event per email owed")
        _start_games(GAMES, "track")
        hooks = _hooks(creds)
        from django.db import connections

        connections.close_all()
        with Server(env, WORKERS) as server:
            server.wait_ready()
            _post_all(server.port, _forged(hooks)[: 2 * THREADS])  # warm: each worker loads
            out |= _phases(server.port, hooks, creds)
    finally:
        if settings.configured:
            from django.db import connections

            connections.close_all()
        db.drop()
        shutil.rmtree(var_dir, ignore_errors=True)
    out["runtime_s"] = round(time.perf_counter() - began, 1)
    return out
