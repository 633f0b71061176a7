"""Real reply emails through the real inbound path: is a move read only from the
fresh text?

The corpus (:func:`corpus_dir`: ``$JUMBULAYA_EMAIL_CORPUS``, else
``<repo>/../shared/data/email-corpus``) holds messages copied from the test
fixtures of email reply parsers: people's replies as mail clients write them, in
many languages.  Each message is posted to the inbound webhooks of both ESPs
(Postmark's JSON and Mailgun's raw MIME form, built by
``tests/inbound/esp_payloads.py``), as the reply of the player to move, in three
kinds:

- ``chat``: unchanged (no message holds a move): nothing may happen;
- ``quoted``: a move line added at the very end, deep in the quoted history, for
  each message that has one (:func:`has_history`): nothing may happen;
- ``top``: a move line above the message: exactly that move is made (and rolled
  back, so every message answers the same position).

The moves cycle through ``pass``, ``resign`` and a word the player can build.
``python -m bench corpus`` prints the rates by kind and the quoted lines acted on
(SQLite in a scratch directory); ``tests/inbound/test_inbound_corpus.py`` holds
the same figures to their goals.
"""

from __future__ import annotations

import email
import email.policy
import html
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import html2text

if TYPE_CHECKING:
    from games.models import Game

REPO = Path(__file__).resolve().parent.parent
#: The environment variable that says where the corpus is.
CORPUS_ENV = "JUMBULAYA_EMAIL_CORPUS"
#: Files of the corpus that are not messages.
NOT_MESSAGES = frozenset({"PROVENANCE.json", "README.md"})
KINDS = ("chat", "quoted", "top")
ESPS = ("postmark", "mailgun")
#: Goals: every kind read right at least this often, and no quoted line acted on.
GOAL_RATE = 0.98
GOALS: dict[str, str] = {
    "corpus_rates": f"every kind read right ≥ {GOAL_RATE:.0%}",
    "corpus_quoted_acted_on": "no quoted move line acted on",
}
#: Names of misses shown per kind.
SHOWN_MISSES = 20


def corpus_dir() -> Path:
    """Where the corpus is: ``$JUMBULAYA_EMAIL_CORPUS``, else beside the repository."""
    configured = os.environ.get(CORPUS_ENV)
    return Path(configured) if configured else REPO / ".." / "shared" / "data" / "email-corpus"


@dataclass(frozen=True)
class CorpusMail:
    """One message of the corpus: its body as a client would send it."""

    name: str  # its path in the corpus
    text: str
    html: str


#: A first line that says the file is a whole message, headers first.
_HEADERS_FIRST = re.compile(
    r"^(?:Return-Path|Received|Delivered-To|MIME-Version|Message-I[dD]|X-[\w-]+|Date|Subject"
    r"|Content-Type|From [^:]*$)[: ]",
    re.IGNORECASE,
)


def load_corpus(root: Path | None = None) -> list[CorpusMail]:
    """Every message of the corpus, sorted by name.  A missing or empty corpus is
    an error, never an empty figure."""
    root = root or corpus_dir()
    if not root.is_dir():
        raise FileNotFoundError(f"the email corpus is not at {root} (set {CORPUS_ENV})")
    mails = [
        _read(path, path.relative_to(root).as_posix())
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name not in NOT_MESSAGES
    ]
    if not mails:
        raise FileNotFoundError(f"the email corpus at {root} holds no messages")
    return mails


def _read(path: Path, name: str) -> CorpusMail:
    raw = path.read_bytes()
    text = raw.decode("utf-8", "replace")
    if path.suffix == ".html":
        return CorpusMail(name, "", text)
    if path.suffix == ".eml" or _HEADERS_FIRST.match(text):
        message = email.message_from_bytes(raw, policy=email.policy.default)
        return CorpusMail(name, _part(message, "plain"), _part(message, "html"))
    return CorpusMail(name, text, "")


def _part(message: Any, subtype: str) -> str:
    try:
        part = message.get_body(preferencelist=(subtype,))
        return str(part.get_content()) if part is not None else ""
    except (LookupError, ValueError, AttributeError):  # an unknown charset or a bad part
        part = message.get_body(preferencelist=(subtype,))
        payload = part.get_payload(decode=True) if part is not None else b""
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


# --- which messages have a quoted history -------------------------------------------

#: How this test tells a history, on its own (it does not ask the code it
#: measures): a ">" line, a line that ends with "wrote:" in a language of the
#: corpus, an original/forwarded-message line, Outlook's rule, a From:/Sent: block.
_HISTORY = re.compile(
    r"^\s*>"
    r"|(?:wrote|a écrit|escreveu|escribió|napisał\(a\)|schreef|schrieb|ha scritto|skrev"
    r"|kirjoitti|написал\(а\)|写道|寫道)[^\n]{0,60}[:：]\s*$"
    r"|^\s*-{3,}\s*(?:Original Message|Forwarded message|Ursprüngliche Nachricht|Mensaje original"
    r"|Message d'origine|原始邮件)"
    r"|^\s*_{20,}\s*$"
    r"|^\s*\**(?:From|Von|De|Van|Od|Fra|Från|发件人)\**\s?:[^\n]*\n\s*\**(?:Sent|Date|Gesendet"
    r"|Datum|Envoyé|Enviado|Verzonden|Wysłano|Sendt|Skickat|To|An|À|Para|Aan|Do|Til|Till"
    r"|发送时间)\**\s?:",
    re.IGNORECASE | re.MULTILINE,
)


def readable(mail: CorpusMail) -> str:
    """The text a reader sees: the plain part, else the HTML as text."""
    if mail.text.strip():
        return mail.text
    converter = html2text.HTML2Text()  # one each: it keeps state between documents
    converter.body_width = 0
    return converter.handle(mail.html)


def has_history(mail: CorpusMail) -> bool:
    """Whether ``mail`` quotes an earlier message (so that its end is history)."""
    return bool(_HISTORY.search(readable(mail)))


def variant(mail: CorpusMail, kind: str, move: str) -> tuple[str, str]:
    """``(text, html)`` of ``mail`` as a reply of ``kind`` (see the module's docstring)."""
    if kind == "chat":
        return mail.text, mail.html
    line = f"<div>{html.escape(move)}</div>"
    if kind == "quoted":
        return (
            f"{mail.text.rstrip()}\n{move}\n" if mail.text.strip() else "",
            f"{mail.html}{line}" if mail.html else "",
        )
    return (
        f"{move}\n\n{mail.text}" if mail.text.strip() or not mail.html else "",
        f"{line}{mail.html}" if mail.html else "",
    )


# --- the measurement --------------------------------------------------------------------


def measure(game: Game, mails: list[CorpusMail]) -> dict[str, Any]:
    """Post every message of every kind to both ESPs' webhooks as the reply of the
    player to move in ``game`` (a started two-player game, left as it was); the
    figures by kind."""
    from django.db import transaction
    from django.test import Client, override_settings

    from games.core.projection import current_state, game_lexicon
    from games.engine.jumbulaya import legal_moves
    from games.models import InboundMail

    esp = importlib.import_module("esp_payloads")  # tests/inbound: how the ESPs post
    state = current_state(game)
    assert state.turn is not None, "the game is started"
    words = [
        m.notation()
        for m in legal_moves(state, state.turn, game_lexicon(game))
        if re.fullmatch(r"[0-9]+ [A-Z]+", m.notation())
    ]
    moves = ["pass", "resign", words[0]]
    player = game.seats.get(index=state.turn).user
    assert player is not None, "a started game's seats are taken"
    sent = esp.turn_email(game, player)
    client = Client()
    counts: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
    misses: dict[str, list[str]] = {kind: [] for kind in KINDS}
    acted_on: list[str] = []

    def post(mail: CorpusMail, kind: str, move: str, via: str) -> tuple[str, str]:
        """The reply posted; its row's status and the move made."""
        text, body_html = variant(mail, kind, move)
        reply = esp.Reply(
            sender_name=player.public_name,
            sender=player.email,
            to=sent.extra_headers["Reply-To"],
            subject=f"Re: {sent.subject}",
            message_id=f"<{os.urandom(12).hex()}@corpus.example>",
            in_reply_to=sent.extra_headers["Message-ID"],
            references=sent.extra_headers["Message-ID"],
            date="Tue, 03 Jun 2025 14:05:12 +0000",
            text=text,
            html=body_html,
        )
        if via == "postmark":
            status = esp.post_json(client, esp.postmark_payload(reply))
        else:
            status = esp.post_form(client, esp.MAILGUN_INBOUND_MIME, esp.mailgun_mime_form(reply))
        assert status == 200, f"{via} answered {status} for {mail.name}"
        row = InboundMail.objects.get(message_id=reply.message_id)
        return row.status, row.move if row.status == InboundMail.Status.MOVED else ""

    settings = {
        "ANYMAIL": {
            "WEBHOOK_SECRET": esp.BASIC_AUTH,
            "MAILGUN_WEBHOOK_SIGNING_KEY": esp.SIGNING_KEY,
        },
        "JUMBULAYA_INBOUND_ESPS": list(ESPS),
        "JUMBULAYA_INBOUND_PER_HOUR": 10**9,
    }
    with override_settings(**settings):
        for n, mail in enumerate(mails):
            move = moves[n % len(moves)]
            for kind in KINDS:
                if kind == "quoted" and not has_history(mail):
                    continue
                for via in ESPS:
                    with transaction.atomic():
                        status, made = post(mail, kind, move, via)
                        transaction.set_rollback(True)  # the next reply answers the same position
                    right = made == move if kind == "top" else not made
                    counts[kind]["right" if right else "wrong"] += 1
                    if not right and len(misses[kind]) < SHOWN_MISSES:
                        misses[kind].append(f"{via}: {mail.name} ({status} {made!r})")
                    if kind == "quoted" and made:
                        acted_on.append(f"{via}: {mail.name} ({made})")
    return {
        "messages": len(mails),
        "with_history": sum(has_history(m) for m in mails),
        "esps": list(ESPS),
        "kinds": {
            kind: {
                "right": c["right"],
                "of": c["right"] + c["wrong"],
                "rate": round(c["right"] / (c["right"] + c["wrong"]), 4),
            }
            for kind, c in counts.items()
        },
        "quoted_lines_acted_on": len(acted_on),
        "acted_on": acted_on[:SHOWN_MISSES],
        "misses": {kind: names for kind, names in misses.items() if names},
    }


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    kinds = figures.get("kinds")
    if not kinds:
        return {}
    return {
        "corpus_rates": all(k["rate"] >= GOAL_RATE for k in kinds.values()),
        "corpus_quoted_acted_on": figures["quoted_lines_acted_on"] == 0,
    }


def run() -> dict[str, Any]:
    """``python -m bench corpus``: the figures, on a scratch SQLite database."""
    mails = load_corpus()
    scratch = Path(tempfile.mkdtemp(prefix="jumbulaya-corpus-"))
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
            "JUMBULAYA_VAR_DIR": str(scratch),
            "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
            "CELERY_BROKER_URL": "filesystem://localhost/",
            "REDIS_URL": "",
            "DJANGO_SECRET_KEY": "bench-corpus",
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_LOG_LEVEL": "ERROR",
            "JUMBULAYA_GAMES_PER_DAY": "0",
            "JUMBULAYA_INVITATIONS_PER_DAY": "0",
        }
    )
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    if migrated.returncode != 0:
        raise RuntimeError(f"manage.py migrate failed:\n{migrated.stderr[-2000:]}")
    import django

    django.setup()
    sys.path.insert(0, str(REPO / "tests" / "inbound"))
    from django.db import transaction

    with transaction.atomic():  # nothing owed is ever sent: all is rolled back
        figures = measure(_two_player_game(), mails)
        transaction.set_rollback(True)
    figures["corpus"] = str(corpus_dir())
    return figures


def _two_player_game() -> Game:
    from accounts.models import User
    from games.core.lobby import create_game, join_game
    from games.engine.jumbulaya import PRESETS

    ann, bob = (
        User.objects.create_user(username=n, email=f"{n}@example.com", display_name=n.title())
        for n in ("ann", "bob")
    )
    game = create_game(ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email])
    join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def main() -> None:
    figures = run()
    out = {"corpus": figures, "goals": goals(figures)}
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
