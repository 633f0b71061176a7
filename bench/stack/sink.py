"""The SMTP sink standing in for the ESP: every message that arrives, parsed and
indexed by the outbox row it came from.

A game email's Message-ID names its row: ``<game-G.SEQ.KIND.ROW.TOKEN@site>``
(:func:`games.mail_out.emails.game_headers`); the game-started email is the
thread's root, ``<game-G.TOKEN@site>``, and is matched to its row by game and
recipient.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import re
import threading
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from .topology import free_port

ROW_ID = re.compile(r"^<game-(\d+)\.(\d+)\.([a-z_]+)\.(\d+)[.@]")
ROOT_ID = re.compile(r"^<game-(\d+)\.[^@]*@")
TURN_LINK = re.compile(r"https?://[^\s\"'<>]+/t/[^/\s\"'<>]+/")


@dataclass
class Mail:
    """One message as it arrived."""

    to: str
    message_id: str
    subject: str
    reply_to: str
    text: str
    html: str
    arrived: float  # time.time()
    game: int | None
    seq: int | None
    kind: str | None
    row: int | None

    @property
    def turn_links(self) -> list[str]:
        return TURN_LINK.findall(self.text)


def _body(msg: EmailMessage, subtype: str) -> str:
    part = msg.get_body(preferencelist=(subtype,))
    return str(part.get_content()) if part is not None else ""


def parse(raw: bytes) -> Mail:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    message_id = str(msg.get("Message-ID", "")).strip()
    found = ROW_ID.match(message_id)
    root = ROOT_ID.match(message_id)
    return Mail(
        to=str(msg.get("To", "")).strip().lower(),
        message_id=message_id,
        subject=str(msg.get("Subject", "")),
        reply_to=str(msg.get("Reply-To", "")).strip(),
        text=_body(msg, "plain"),
        html=_body(msg, "html"),
        arrived=time.time(),
        game=int(found.group(1)) if found else (int(root.group(1)) if root else None),
        seq=int(found.group(2)) if found else None,
        kind=found.group(3) if found else ("game_started" if root else None),
        row=int(found.group(4)) if found else None,
    )


@dataclass
class Sink:
    """Everything that arrived, with the lookups the players and the count need."""

    mails: list[Mail] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = parse(envelope.original_content or envelope.content)
        with self.lock:
            self.mails.append(mail)
        return "250 OK"

    def snapshot(self) -> list[Mail]:
        with self.lock:
            return list(self.mails)

    def newest_for(self, address: str, game: int) -> Mail | None:
        """The newest email of ``game`` to ``address`` that carries a turn link."""
        address = address.lower()
        with self.lock:
            for mail in reversed(self.mails):
                if mail.game == game and address in mail.to and mail.turn_links:
                    return mail
        return None


class SinkServer:
    """The sink on a loopback port (aiosmtpd's thread)."""

    def __init__(self) -> None:
        self.sink = Sink()
        self.port = free_port()
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        with contextlib.suppress(AssertionError, RuntimeError):
            self.controller.stop()
