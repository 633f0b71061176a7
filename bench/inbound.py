"""The inbound benchmark: email replies arriving as ESP webhooks, end to end.

A real gunicorn server (:data:`WORKERS` sync workers, as :mod:`bench.service`
runs it) on a fresh PostgreSQL database of its own (:data:`INBOUND_DB`, created,
migrated and dropped like :mod:`bench.notify`'s), with ``ANYMAIL_WEBHOOK_SECRET``
and ``ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY`` set, so every post pays for django-anymail's
credential check, its parsing of the payload into a message, and
:func:`games.mail_in.inbound.receive`: the token and sender check, the once-per-Message-ID
row, reading the move, :func:`games.core.door.submit` and the answer owed.
Answers and your-turn emails are owed in the outbox and nudged to the in-memory
broker (:data:`BROKER`, nobody consumes it): the figure is the HTTP, the parsing and
the database, not a broker or the sending.

This process (``python -m bench`` runs this part in a child process: Django is set
up once per process, on one database) starts :data:`GAMES` two-player games through
:mod:`games.core.door`, then writes, for each of :data:`ROUNDS` rounds, the reply of
the player to move in every game as a mail client would: the move on the first line
(a plausible word from :func:`games.engine.legal_moves` in every other game and
round, else ``pass``), then the game email it answers, rendered by
:func:`games.mail_out.emails.render_game_email` and quoted, ``In-Reply-To`` its Message-ID, a
fresh Message-ID of its own.  One in :data:`MAILGUN_EVERY` goes as a signed Mailgun
``body-mime`` post to ``/anymail/mailgun/inbound_mime/``, the others as Postmark
inbound JSON (their documented fields) to ``/anymail/postmark/inbound/``.  Each
round is written untimed, then posted by :data:`THREADS` client threads, each on
its own games; ``webhooks_per_second`` is the valid posts over the rounds' wall time.

Then, each timed on its own: a duplicate burst (:data:`DUPLICATES` of the valid
posts again, byte for byte, as an ESP retrying would), forged posts (:data:`FORGED`:
half from a stranger to a player's valid reply address, half from the player with
a tampered token), and posts with bad credentials (:data:`REJECTED`: wrong basic
auth, wrong Mailgun signature, each carrying a valid reply).  The database then
says what came of each: one move and one ``reply_done`` answer per valid post, no
change from a duplicate or a bad credential, a dropped row and no answer per forgery,
and every game's log replaying to its cached state.

Last, one client posts the messages that cost a worker seconds to minutes before
they were bounded (:mod:`games.mail_in.inbound_limits`: 40,000 addresses, a 2 MB To:,
40,000 parts, 1,000 nested parts, a part header of 100,000 parameters), each
:data:`HOSTILE_RUNS` times, then :data:`PHOTO_RUNS` replies per ESP with a 10 MB
photo attached: each past a bound is dropped unread (one row, the repeats
duplicates), each photo reply makes its move.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import secrets
import shutil
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from .databases import BenchDatabase, admin_url, shown, unavailable
from .notify import _use_memory_broker
from .service import Server, _migrate, _server_env, _setup_django
from .stats import note, summary

#: A database of its own: the service and notify benches may run at the same time.
INBOUND_DB = "jumbulaya_bench_inbound"

GAMES = 300
ROUNDS = 4
WORKERS = 2
THREADS = 4
#: Passes each client thread posts to a game of its own before the clock starts
#: (each worker loads the word list on its first move).
WARMUP_POSTS = 12
#: One valid post in this many goes through Mailgun, the others through Postmark.
MAILGUN_EVERY = 4
DUPLICATES = 300
FORGED = 200
REJECTED = 20
#: Each message past a bound is posted this many times (the repeats are duplicates).
HOSTILE_RUNS = 3
#: Replies with a photo attached, per ESP.
PHOTO_RUNS = 3
PHOTO_BYTES = 10 * 1024 * 1024
SEED = 20240601
BROKER = "memory://localhost/"
POSTMARK_PATH = "/anymail/postmark/inbound/"
MAILGUN_PATH = "/anymail/mailgun/inbound_mime/"
CLIENT_DOMAIN = "mail.client.example"
STRANGER = ("Mallory", "mallory@forged.example")

#: Goals of the inbound figures (the issue sets no speed goal: the rate is reported).
GOALS: dict[str, str] = {
    "inbound_correct": "every valid webhook made exactly one move and owed one answer, "
    "every duplicate and every bad credential changed nothing, every forged sender was "
    "dropped unanswered, and every log replays to its cached state",
}


def goals(inbound: dict[str, Any]) -> dict[str, bool]:
    """Which inbound goals are met (none when the figures were skipped)."""
    if "correct" not in inbound:
        return {}
    return {"inbound_correct": inbound["correct"]}


# --- the database ------------------------------------------------------------------


# --- the payloads ------------------------------------------------------------------


@dataclass(frozen=True)
class Credentials:
    """The webhook secrets the server is given (fresh each run)."""

    basic_auth: str  # "user:password", ANYMAIL_WEBHOOK_SECRET
    mailgun_key: str  # ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY

    @classmethod
    def fresh(cls) -> Credentials:
        return cls(f"bench:{secrets.token_urlsafe(18)}", secrets.token_hex(16))

    def authorization(self, basic_auth: str | None = None) -> str:
        raw = (basic_auth or self.basic_auth).encode()
        return "Basic " + base64.b64encode(raw).decode("ascii")


@dataclass(frozen=True)
class Player:
    pk: int
    name: str
    email: str


@dataclass(frozen=True)
class Reply:
    """A player's reply as their mail client wrote it."""

    sender: tuple[str, str]  # (name, address)
    to: str
    subject: str
    text: str
    html: str
    message_id: str
    in_reply_to: str
    references: str


@dataclass(frozen=True)
class Webhook:
    """One HTTP post, ready to send; ``kind`` is the move (``pass``, ``word``) or
    the forgery."""

    path: str
    body: bytes
    headers: dict[str, str]
    via: str
    kind: str
    reply: Reply

    @property
    def message_id(self) -> str:
        return self.reply.message_id


def _mail_headers(reply: Reply) -> list[tuple[str, str]]:
    """The headers an ESP passes on beside From/To/Subject."""
    return [
        ("Received", f"from {CLIENT_DOMAIN} by inbound.esp.example with ESMTPS"),
        ("MIME-Version", "1.0"),
        ("Message-ID", reply.message_id),
        ("In-Reply-To", reply.in_reply_to),
        ("References", reply.references),
        ("X-Spam-Status", "No"),
        ("X-Spam-Score", "-0.1"),
    ]


def postmark(
    reply: Reply,
    kind: str,
    credentials: Credentials,
    basic_auth: str | None = None,
    **fields: Any,
) -> Webhook:
    """Postmark's inbound JSON for ``reply`` (the RawEmail option off, as by
    default); ``fields`` replace the payload's."""
    name, sender = reply.sender
    local, _, _ = reply.to.partition("@")
    mailbox_hash = local.partition("+")[2]
    payload = {
        "FromName": name,
        "MessageStream": "inbound",
        "From": sender,
        "FromFull": {"Email": sender, "Name": name, "MailboxHash": ""},
        "To": reply.to,
        "ToFull": [{"Email": reply.to, "Name": "", "MailboxHash": mailbox_hash}],
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": reply.to,
        "Subject": reply.subject,
        "MessageID": str(uuid.uuid4()),
        "ReplyTo": "",
        "MailboxHash": mailbox_hash,
        "Date": format_datetime(datetime.now(UTC)),
        "TextBody": reply.text,
        "HtmlBody": reply.html,
        "StrippedTextReply": reply.text.split("\n\n", 1)[0],
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{sender}>"},
            *({"Name": k, "Value": v} for k, v in _mail_headers(reply)),
        ],
        "Attachments": [],
    } | fields
    return Webhook(
        POSTMARK_PATH,
        json.dumps(payload).encode(),
        {
            "Content-Type": "application/json",
            "Authorization": credentials.authorization(basic_auth),
        },
        "postmark",
        kind,
        reply,
    )


def _form_data(fields: dict[str, str]) -> tuple[bytes, str]:
    """``multipart/form-data``, as Mailgun's forward() posts it."""
    boundary = secrets.token_hex(16)
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in fields.items()
    ]
    body = "".join(parts) + f"--{boundary}--\r\n"
    return body.encode(), f"multipart/form-data; boundary={boundary}"


def mailgun(
    reply: Reply,
    kind: str,
    credentials: Credentials,
    signing_key: str | None = None,
    raw: str | None = None,
) -> Webhook:
    """A Mailgun route's ``forward()`` of ``reply`` (or of the message ``raw``)
    as raw MIME, signed: the HMAC-SHA256 of timestamp and token under the
    signing key."""
    name, sender = reply.sender
    mime = EmailMessage()
    mime["From"] = f"{name} <{sender}>"
    mime["To"] = reply.to
    mime["Subject"] = reply.subject
    mime["Date"] = format_datetime(datetime.now(UTC))
    for header, value in _mail_headers(reply):
        if header != "MIME-Version":  # set_content() writes it
            mime[header] = value
    mime.set_content(reply.text)
    mime.add_alternative(reply.html, subtype="html")
    timestamp, token = str(int(time.time())), secrets.token_hex(25)
    key = (signing_key or credentials.mailgun_key).encode()
    signature = hmac.new(key, f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    body, content_type = _form_data(
        {
            "recipient": reply.to,
            "sender": sender,
            "from": f"{name} <{sender}>",
            "subject": reply.subject,
            "body-mime": raw if raw is not None else mime.as_string(),
            "timestamp": timestamp,
            "token": token,
            "signature": signature,
        }
    )
    return Webhook(
        MAILGUN_PATH,
        body,
        {"Content-Type": content_type, "Authorization": credentials.authorization()},
        "mailgun",
        kind,
        reply,
    )


def _via(reply: Reply, kind: str, k: int, credentials: Credentials) -> Webhook:
    """The ``k``-th post of a batch: through Mailgun when ``k`` is a multiple of
    :data:`MAILGUN_EVERY`, else through Postmark."""
    if k % MAILGUN_EVERY == 0:
        return mailgun(reply, kind, credentials)
    return postmark(reply, kind, credentials)


def _quoted(move: str, original_text: str, original_html: str, date: str) -> tuple[str, str]:
    """A reply's text and HTML: the move, then the email it answers, quoted."""
    quote = "\n".join(f"> {line}" if line else ">" for line in original_text.splitlines())
    text = f"{move}\n\nOn {date}, Jumbulaya <jumbulaya@localhost> wrote:\n{quote}\n"
    html = (
        f'<div dir="ltr">{move}</div><br><div class="gmail_quote">On {date}, Jumbulaya '
        f"wrote:<blockquote>{original_html}</blockquote></div>"
    )
    return text, html


def _fresh(reply: Reply, **changes: Any) -> Reply:
    """``reply`` with a new Message-ID (and ``changes``): another message."""
    return replace(reply, message_id=make_msgid(domain=CLIENT_DOMAIN), **changes)


# --- the games -----------------------------------------------------------------------


@dataclass(frozen=True)
class BenchGame:
    pk: int
    players: tuple[Player, Player]  # by seat


def _start_games(count: int, prefix: str) -> list[BenchGame]:
    """``count`` started two-player games, each between two players of its own, so
    that no player nears the hourly limit of answered replies."""
    from accounts.models import User
    from games.core import lobby
    from games.engine.jumbulaya import PRESETS

    rules = PRESETS["official"]
    games = []
    for i in range(count):
        a, b = (
            User.objects.create_user(
                username=f"{prefix}{i}{side}",
                email=f"{prefix}{i}{side}@bench.test",
                display_name=f"{prefix.title()} {i}{side}",
            )
            for side in "ab"
        )
        game = lobby.create_game(
            a, seat_count=2, rules=rules, move_hours=72, invite_emails=[b.email]
        )
        seat_a = game.seats.get(user=a).index
        lobby.join_game(game.pk, b)
        by_seat = [Player(u.pk, u.public_name, u.email) for u in (a, b)]
        if seat_a != 0:
            by_seat.reverse()
        games.append(BenchGame(game.pk, (by_seat[0], by_seat[1])))
    return games


def replies(games: list[BenchGame], round_no: int, rng: random.Random) -> list[tuple[Reply, str]]:
    """The reply of the player to move in each game to the game email they last
    got, and its kind: a plausible word in every other game (alternating by
    round), else a pass."""
    from games.core import projection
    from games.engine.jumbulaya import legal_moves
    from games.engine.tiles import MAX_LINE_TILES
    from games.mail_out import emails
    from games.mail_out.reply_addresses import reply_address
    from games.models import Game, Notification

    from .positions import plausible_move

    kinds = [Notification.Kind.YOUR_TURN, Notification.Kind.GAME_STARTED]
    out = []
    for i, bench_game in enumerate(games):
        game = Game.objects.get(pk=bench_game.pk)
        assert game.turn_seat is not None, f"no one is to move in game {game.pk}"
        seat = game.seats.select_related("user").get(index=game.turn_seat)
        player = bench_game.players[seat.index]
        move, kind = "pass", "pass"
        if (i + round_no) % 2 == 0:
            state = projection.current_state(game)
            # A word that fills its line ends the game, which must last every round.
            words = [
                m
                for m in legal_moves(state, seat.index, projection.game_lexicon(game))
                if len(m.code) < MAX_LINE_TILES
            ]
            chosen = plausible_move(state, seat.index, words, rng)
            if chosen is not None:
                move, kind = chosen.notation(), "word"
        notification = (
            Notification.objects.filter(game=game, user_id=player.pk, kind__in=kinds)
            .select_related("game", "user", "inbound")
            .latest("pk")
        )
        assert seat.user is not None
        subject, text, html, headers = emails.render_game_email(notification, seat.user, seat)
        body, body_html = _quoted(move, text, html, format_datetime(notification.created_at))
        reply = Reply(
            (player.name, player.email),
            reply_address(player.pk, game.pk),
            f"Re: {subject}",
            body,
            body_html,
            make_msgid(domain=CLIENT_DOMAIN),
            headers["Message-ID"],
            f"{headers['References']} {headers['Message-ID']}",
        )
        out.append((reply, kind))
    return out


def _warmup(games: list[BenchGame], credentials: Credentials) -> list[list[Webhook]]:
    """:data:`WARMUP_POSTS` passes in each game, the players taking turns, through
    both ESPs."""
    from games.mail_out.emails import thread_id
    from games.mail_out.reply_addresses import reply_address
    from games.models import Game

    batches = []
    for bench_game in games:
        game = Game.objects.get(pk=bench_game.pk)
        assert game.turn_seat is not None
        thread = thread_id(game.pk)
        hooks = []
        for k in range(WARMUP_POSTS):
            player = bench_game.players[(game.turn_seat + k) % 2]
            text, html = _quoted("pass", "", "", format_datetime(datetime.now(UTC)))
            reply = Reply(
                (player.name, player.email),
                reply_address(player.pk, game.pk),
                f"Re: Game {game.pk}",
                text,
                html,
                make_msgid(domain=CLIENT_DOMAIN),
                thread,
                thread,
            )
            hooks.append(_via(reply, "pass", k, credentials))
        batches.append(hooks)
    return batches


def _forged(valid: list[Reply], credentials: Credentials) -> list[Webhook]:
    """:data:`FORGED` posts: a stranger writing to a player's valid reply address,
    and the player writing to an address whose token's signature was tampered
    with (and whose references name no token)."""
    hooks = []
    for k in range(FORGED):
        reply = valid[k % len(valid)]
        if k % 2 == 0:
            forged = _fresh(reply, sender=STRANGER)
            kind = "stranger"
        else:
            local, _, domain = reply.to.partition("@")
            tampered = local[:-1] + ("b" if local.endswith("a") else "a")
            # Threads name no token: a game's thread root now holds the player's own
            # token (a reply to it is theirs), so it would make the move.
            thread = make_msgid(domain=CLIENT_DOMAIN)
            forged = _fresh(reply, to=f"{tampered}@{domain}", in_reply_to=thread, references=thread)
            kind = "bad_token"
        hooks.append(_via(forged, kind, k // 2, credentials))
    return hooks


def _rejected(valid: list[Reply], credentials: Credentials) -> list[Webhook]:
    """:data:`REJECTED` valid replies with bad credentials: the wrong basic-auth
    password to Postmark, the wrong signing key to Mailgun.  One let through
    would make a move."""
    hooks = []
    for k in range(REJECTED):
        reply = _fresh(valid[k % len(valid)])
        if k % 2 == 0:
            hooks.append(postmark(reply, "bad_basic_auth", credentials, "bench:not-the-secret"))
        else:
            hooks.append(mailgun(reply, "bad_signature", credentials, "not-the-signing-key"))
    return hooks


def _raw_reply(reply: Reply, body: str, *, to: str = "") -> str:
    """``reply``'s headers (``To`` extended by ``to``) over the MIME ``body``."""
    name, sender = reply.sender
    head = [
        ("From", f"{name} <{sender}>"),
        ("To", reply.to + to),
        ("Subject", reply.subject),
        ("Date", format_datetime(datetime.now(UTC))),
        *_mail_headers(reply),
    ]
    return "\r\n".join(f"{k}: {v}" for k, v in head) + "\r\n" + body


def _mixed(parts: list[str]) -> str:
    """A ``multipart/mixed`` body of ``parts`` (each its headers, a blank line, its body)."""
    inner = "".join(f"--mixed\r\n{part}\r\n" for part in parts)
    return f'Content-Type: multipart/mixed; boundary="mixed"\r\n\r\n{inner}--mixed--\r\n'


def _hostile(probe: list[Reply], credentials: Credentials) -> list[Webhook]:
    """The messages that cost a web worker seconds to minutes before their
    bounds (:mod:`games.mail_in.inbound_limits`), each from a player to their own valid
    reply address, and the replies with a 10 MB photo attached, which must
    still make their moves."""
    reply = _fresh(probe[0])
    crowd = [{"Email": f"r{i}@example.net", "Name": "", "MailboxHash": ""} for i in range(40_000)]
    text = "Content-Type: text/plain\r\n\r\n" + reply.text
    deep = "pass\r\n"
    for level in range(1000):
        deep = (
            f'Content-Type: multipart/mixed; boundary="n{level}"\r\n\r\n'
            f"--n{level}\r\n{deep}\r\n--n{level}--\r\n"
        )
    params = "; ".join(f"p{i}=v{i}" for i in range(100_000))
    photo = os.urandom(PHOTO_BYTES)
    jpeg = (
        'Content-Type: image/jpeg\r\nContent-Disposition: attachment; filename="IMG.jpg"\r\n'
        "Content-Transfer-Encoding: base64\r\n\r\n"
        + base64.encodebytes(photo).decode().replace("\n", "\r\n")
    )
    to_2mb = ", " + ", ".join(f"r{i}@example.net" for i in range(110_000))
    hooks = [
        postmark(reply, "to_40000_addresses", credentials, ToFull=crowd),
        mailgun(
            reply, "to_header_2mb", credentials, raw=_raw_reply(reply, _mixed([text]), to=to_2mb)
        ),
        mailgun(reply, "parts_40000", credentials, raw=_raw_reply(reply, _mixed([text] * 40_000))),
        mailgun(reply, "nested_1000", credentials, raw=_raw_reply(reply, deep)),
        mailgun(
            reply,
            "part_header_100000_params",
            credentials,
            raw=_raw_reply(reply, _mixed([f"Content-Type: text/plain; {params}\r\n\r\npass"])),
        ),
    ]
    attached = [
        {
            "Name": "IMG.jpg",
            "Content": base64.b64encode(photo).decode(),
            "ContentType": "image/jpeg",
        }
    ]
    for k, player_reply in enumerate(probe[1 : 1 + 2 * PHOTO_RUNS]):
        if k % 2 == 0:
            hooks.append(postmark(player_reply, "photo_10mb", credentials, Attachments=attached))
        else:
            raw = _raw_reply(
                player_reply, _mixed([text.replace(reply.text, player_reply.text), jpeg])
            )
            hooks.append(mailgun(player_reply, "photo_10mb", credentials, raw=raw))
    return hooks


# --- posting -----------------------------------------------------------------------


@dataclass(frozen=True)
class Posted:
    """What one post got: the HTTP status (0: no answer, see ``error``)."""

    hook: Webhook
    status: int
    ns: int
    retried: bool = False
    error: str = ""


class Poster:
    """One client's connection (reopened when the server closes it, as a sync
    worker does after each response)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, hook: Webhook) -> Posted:
        t0 = time.perf_counter_ns()
        retried = False
        try:
            try:
                resp = self._send(hook)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A kept-alive connection the server closed while idle: once more (a
                # webhook delivered twice is one move, like any ESP's retry).
                self.conn.close()
                retried = True
                resp = self._send(hook)
            resp.read()
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            error = f"{type(e).__name__}: {e}"
            return Posted(hook, 0, time.perf_counter_ns() - t0, retried, error)
        return Posted(hook, resp.status, time.perf_counter_ns() - t0, retried)

    def _send(self, hook: Webhook) -> http.client.HTTPResponse:
        self.conn.request("POST", hook.path, body=hook.body, headers=hook.headers)
        return self.conn.getresponse()

    def close(self) -> None:
        self.conn.close()


def post_all(port: int, batches: list[list[Webhook]]) -> tuple[float, list[Posted]]:
    """Each batch posted in order by a client thread of its own, all starting
    together.  Returns the wall time in seconds and every post's result."""
    results: list[list[Posted]] = [[] for _ in batches]
    start = threading.Barrier(len(batches) + 1)

    def run(k: int) -> None:
        poster = Poster(port)
        start.wait()
        for hook in batches[k]:
            results[k].append(poster.post(hook))
        poster.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(batches))]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, [p for part in results for p in part]


def _spread(hooks: list[Webhook]) -> list[list[Webhook]]:
    """``hooks`` dealt to :data:`THREADS` clients (each game's posts to one client)."""
    return [hooks[k::THREADS] for k in range(THREADS)]


# --- what the database says --------------------------------------------------------


def snapshot() -> dict[str, int]:
    """The counts a webhook may change."""
    from django.db.models import Count

    from games.models import Event, InboundMail, Notification

    counts = {
        "events": Event.objects.count(),
        "email_moves": Event.objects.filter(
            source=Event.Source.EMAIL, idempotency_key__startswith="email:"
        ).count(),
        "inbound_rows": InboundMail.objects.count(),
        "notifications": Notification.objects.count(),
    }
    for row in InboundMail.objects.values("status").annotate(n=Count("pk")):
        counts[f"inbound_{row['status']}"] = row["n"]
    for owed in (
        Notification.objects.filter(inbound__isnull=False).values("kind").annotate(n=Count("pk"))
    ):
        counts[f"owed_{owed['kind']}"] = owed["n"]
    return counts


def changes(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """What changed between two snapshots."""
    return {k: d for k in sorted(after | before) if (d := after.get(k, 0) - before.get(k, 0))}


def outcomes(posted: list[Posted]) -> dict[str, int]:
    """What came of each post, by its Message-ID's row (``none``: no row)."""
    from games.models import InboundMail

    ids = [p.hook.message_id for p in posted]
    status = dict(
        InboundMail.objects.filter(message_id__in=ids).values_list("message_id", "status")
    )
    return dict(Counter(status.get(i, "none") for i in ids))


def _figures(posted: list[Posted], wall: float) -> dict[str, Any]:
    return {
        "posted": len(posted),
        "elapsed_s": round(wall, 2),
        "per_second": round(len(posted) / wall, 1) if wall else None,
        "latency_ms": summary([p.ns for p in posted], "ms"),
        "http": dict(Counter(str(p.status) for p in posted)),
        "retried": sum(p.retried for p in posted),
        "errors": [p.error for p in posted if p.error][:3],
        "kinds": dict(Counter(p.hook.kind for p in posted)),
        "via": dict(Counter(p.hook.via for p in posted)),
    }


def consistency(games: list[BenchGame]) -> list[str]:
    """Problems of the games' logs: an event count other than the last seq, a
    replay other than the cached state."""
    from games.core import rebuild
    from games.models import Game

    problems = []
    for bench_game in games:
        game = Game.objects.get(pk=bench_game.pk)
        count = game.events.count()
        if count != game.last_seq:
            problems.append(f"game {game.pk}: {count} events, last_seq {game.last_seq}")
        if rebuild.rebuild_projection(game, write=False):
            problems.append(f"game {game.pk}: cached state differs from the replay")
    return problems


def _by(posted: list[Posted], label: str) -> dict[str, Any]:
    """Latency summaries by ``via`` or ``kind``."""
    groups: dict[str, list[int]] = {}
    for p in posted:
        groups.setdefault(getattr(p.hook, label), []).append(p.ns)
    return {name: summary(times, "ms") for name, times in sorted(groups.items())}


# --- all of it ---------------------------------------------------------------------


def _phases(server: Server, games: list[BenchGame], credentials: Credentials) -> dict[str, Any]:
    """The valid rounds, the duplicate burst, the forgeries and the bad credentials,
    each checked against the database."""
    port = server.port
    out: dict[str, Any] = {}
    rng = random.Random(SEED)
    before = snapshot()
    valid: list[Posted] = []
    first_round: list[Webhook] = []
    wall = prepare = 0.0
    for r in range(ROUNDS):
        t0 = time.perf_counter()
        hooks = [
            _via(reply, kind, i + r, credentials)
            for i, (reply, kind) in enumerate(replies(games, r, rng))
        ]
        prepare += time.perf_counter() - t0
        first_round = first_round or hooks
        note(f"round {r + 1} of {ROUNDS}: {len(hooks)} replies, {THREADS} clients")
        part_wall, posted = post_all(port, _spread(hooks))
        wall += part_wall
        valid += posted
    after = snapshot()
    n = len(valid)
    valid_changes = changes(before, after)
    out["webhooks_per_second"] = round(n / wall, 1)
    out["valid"] = _figures(valid, wall) | {
        "rounds": ROUNDS,
        "latency_by_via_ms": _by(valid, "via"),
        "latency_by_kind_ms": _by(valid, "kind"),
        "mean_payload_kb": round(sum(len(p.hook.body) for p in valid) / n / 1024, 1),
        "outcomes": outcomes(valid),
        "db_changes": valid_changes,
        "prepare_s": round(prepare, 1),
    }
    valid_ok = (
        out["valid"]["http"] == {"200": n}
        and out["valid"]["outcomes"] == {"moved": n}
        and all(
            valid_changes.get(k) == n
            for k in ("events", "email_moves", "inbound_rows", "inbound_moved", "owed_reply_done")
        )
        and "owed_reply_refused" not in valid_changes
    )

    note(f"{DUPLICATES} duplicates of valid posts")
    again = first_round[:DUPLICATES]
    before = snapshot()
    part_wall, posted = post_all(port, _spread(again))
    out["duplicates"] = _figures(posted, part_wall) | {"db_changes": changes(before, snapshot())}
    dup_ok = (
        out["duplicates"]["http"] == {"200": len(again)} and not out["duplicates"]["db_changes"]
    )

    # The replies the players to move would send now: valid, unless forged.
    probe = [reply for reply, _ in replies(games, ROUNDS, rng)]
    note(f"{FORGED} forged senders")
    forged = _forged(probe, credentials)
    before = snapshot()
    part_wall, posted = post_all(port, _spread(forged))
    out["forged"] = _figures(posted, part_wall) | {
        "outcomes": outcomes(posted),
        "db_changes": changes(before, snapshot()),
    }
    forged_ok = (
        out["forged"]["http"] == {"200": FORGED}
        and out["forged"]["outcomes"] == {"dropped": FORGED}
        and out["forged"]["db_changes"] == {"inbound_dropped": FORGED, "inbound_rows": FORGED}
    )

    # Before the bad credentials, whose refusals the server logs with tracebacks.
    out["server_log_tail"] = server.log_tail(500) or None
    note(f"{REJECTED} posts with bad credentials")
    rejected = _rejected(probe, credentials)
    before = snapshot()
    part_wall, posted = post_all(port, _spread(rejected))
    out["rejected"] = _figures(posted, part_wall) | {
        "outcomes": outcomes(posted),
        "db_changes": changes(before, snapshot()),
    }
    rejected_ok = (
        out["rejected"]["http"] == {"400": REJECTED}
        and out["rejected"]["outcomes"] == {"none": REJECTED}
        and not out["rejected"]["db_changes"]
    )
    note("messages past the bounds, and replies with a 10 MB photo")
    hooks = _hostile(probe, credentials)
    bounded = [h for h in hooks if h.kind != "photo_10mb"] * HOSTILE_RUNS
    photos = [h for h in hooks if h.kind == "photo_10mb"]
    before = snapshot()
    _, posted_bounded = post_all(port, [bounded])
    middle = snapshot()
    _, posted_photos = post_all(port, [photos])
    out["hostile"] = {
        "bounded_latency_ms": _by(posted_bounded, "kind"),
        "bounded_http": dict(Counter(str(p.status) for p in posted_bounded)),
        "bounded_db_changes": changes(before, middle),
        "photo_latency_ms": _by(posted_photos, "via"),
        "photo_payload_mb": round(max(len(h.body) for h in photos) / 2**20, 1),
        "photo_http": dict(Counter(str(p.status) for p in posted_photos)),
        "photo_outcomes": outcomes(posted_photos),
    }
    kinds = len(bounded) // HOSTILE_RUNS
    hostile_ok = (
        out["hostile"]["bounded_http"] == {"200": len(bounded)}
        and out["hostile"]["bounded_db_changes"]
        == {"inbound_dropped": kinds, "inbound_rows": kinds}
        and out["hostile"]["photo_http"] == {"200": len(photos)}
        and out["hostile"]["photo_outcomes"] == {"moved": len(photos)}
    )
    out["checks"] = {
        "hostile": hostile_ok,
        "valid": valid_ok,
        "duplicates": dup_ok,
        "forged": forged_ok,
        "rejected": rejected_ok,
    }
    return out


def run() -> dict[str, Any]:
    """The inbound figures, or why they were skipped."""
    db = BenchDatabase(INBOUND_DB, admin_url())
    why = unavailable(db)
    if why is not None:
        return {"skipped": why}
    from django.conf import settings

    if settings.configured:  # python -m bench runs this part in a process of its own
        raise RuntimeError("the inbound bench sets Django up on its own database: run it first")
    db_url = db.url
    began = time.perf_counter()
    credentials = Credentials.fresh()
    out: dict[str, Any] = {
        "database": shown(db_url),
        "transport": f"HTTP to gunicorn ({WORKERS} sync workers)",
        "client_threads": THREADS,
        "cpu_count": os.cpu_count(),
        "broker": BROKER,
    }
    var_dir = Path(tempfile.mkdtemp(prefix="jumbulaya-bench-inbound-"))
    env = _server_env(db_url, var_dir) | {
        "CELERY_BROKER_URL": BROKER,
        "ANYMAIL_WEBHOOK_SECRET": credentials.basic_auth,
        "ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY": credentials.mailgun_key,
        "JUMBULAYA_INBOUND_ESPS": "postmark,mailgun",
    }
    try:
        note(f"creating and migrating {INBOUND_DB}")
        db.recreate()
        t0 = time.perf_counter()
        _migrate(env)
        migrate_s = time.perf_counter() - t0
        _setup_django(env)
        _use_memory_broker()
        note(f"starting {GAMES} games through the services")
        t0 = time.perf_counter()
        warm = _start_games(THREADS, "warm")
        games = _start_games(GAMES, "inbound")
        out["setup"] = {
            "games": GAMES,
            "players": 2 * GAMES,
            "migrate_s": round(migrate_s, 1),
            "games_s": round(time.perf_counter() - t0, 1),
        }
        from django.db import connections

        connections.close_all()
        with Server(env, WORKERS) as server:
            server.wait_ready()
            note(f"gunicorn on port {server.port} with {WORKERS} sync workers; warming up")
            _, posted = post_all(server.port, _warmup(warm, credentials))
            if {p.status for p in posted} != {200}:
                raise RuntimeError(f"warm-up posts failed:\n{server.log_tail()}")
            out |= _phases(server, games, credentials)
        note("checking the logs against the cached states")
        problems = consistency(warm + games)
        out["checks"] |= {"consistent": not problems, "problems": problems[:5]}
        out["correct"] = all(v for k, v in out["checks"].items() if k != "problems")
    finally:
        if settings.configured:
            from django.db import connections

            connections.close_all()
        db.drop()
        shutil.rmtree(var_dir, ignore_errors=True)
    out["runtime_s"] = round(time.perf_counter() - began, 1)
    return out
