"""A stand-in for the ESPs' HTTP APIs on loopback (``http.server`` in a
thread), answering as Postmark's and Mailgun's API references document:

- Postmark: ``GET /message-streams/{stream}/suppressions/dump``, ``POST
  /message-streams/{stream}/suppressions/delete`` (postmarkapp.com/developer/api/
  suppressions-api), ``POST /email`` (its 406 "inactive recipient" answer, the
  shape django-anymail's Postmark backend parses), and the API's error answer
  ``{"ErrorCode": 10, "Message": ...}`` for a bad server token;
- Mailgun: ``GET``/``DELETE /v3/{domain}/bounces|complaints|unsubscribes/{address}``
  (documentation.mailgun.com, "Suppressions"), ``POST /v3/{domain}/messages``,
  and its plain-text ``Forbidden`` for a bad API key.

A test says what each call answers (:meth:`StandIn.answer`); every call is kept
in :attr:`StandIn.calls`; a call nobody scripted is answered 500.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

ADDRESS = "bob@example.com"
TOKEN = "postmark-server-token"
MAILGUN_KEY = "key-mailgun-private-api-key"
MAILGUN_DOMAIN = "mg.jumbulaya.example"

# --- Postmark's documented answers ---------------------------------------------------


def postmark_dump(*reasons: str, address: str = ADDRESS) -> dict[str, Any]:
    """The suppressions dump: one entry per reason (HardBounce, SpamComplaint,
    ManualSuppression)."""
    return {
        "Suppressions": [
            {
                "EmailAddress": address,
                "SuppressionReason": reason,
                "Origin": "Recipient" if reason != "HardBounce" else "Customer",
                "CreatedAt": "2026-11-30T08:58:33-05:00",
            }
            for reason in reasons
        ]
    }


def postmark_deleted(address: str = ADDRESS) -> dict[str, Any]:
    return {"Suppressions": [{"EmailAddress": address, "Status": "Deleted", "Message": None}]}


def postmark_not_deleted(address: str = ADDRESS) -> dict[str, Any]:
    """What the delete answers for a spam complaint's suppression."""
    return {
        "Suppressions": [
            {
                "EmailAddress": address,
                "Status": "Failed",
                "Message": "You do not have the required authority to change this suppression.",
            }
        ]
    }


POSTMARK_BAD_TOKEN = {
    "ErrorCode": 10,
    "Message": "The Server Token you provided in the X-Postmark-Server-Token request header "
    "was invalid. Please verify that you are using a valid token.",
}


def postmark_inactive(address: str = ADDRESS) -> dict[str, Any]:
    """``POST /email`` to a suppressed address (HTTP 422)."""
    return {
        "ErrorCode": 406,
        "Message": "You tried to send to recipient(s) that have been marked as inactive. "
        f"Found inactive addresses: {address}. Inactive recipients are ones that have "
        "generated a hard bounce, a spam complaint, or a manual suppression. ",
    }


def postmark_sent(address: str = ADDRESS) -> dict[str, Any]:
    return {
        "To": address,
        "SubmittedAt": "2026-12-07T10:00:00.0000000-05:00",
        "MessageID": "b7bc2f4a-e38e-4336-af7d-e6c392c2f817",
        "ErrorCode": 0,
        "Message": "OK",
    }


# --- Mailgun's documented answers -----------------------------------------------------

MAILGUN_REMOVED = {
    "bounces": {"message": "Bounced address has been removed", "address": ADDRESS},
    "complaints": {"message": "Spam complaint has been removed", "address": ADDRESS},
    "unsubscribes": {"message": "Unsubscribe event has been removed", "address": ADDRESS},
}
MAILGUN_NOT_FOUND = {
    "bounces": {"message": "Address not found in bounces table"},
    "complaints": {"message": "No spam complaints found for this address"},
    "unsubscribes": {"message": "Address not found in unsubscribers table"},
}
MAILGUN_FOUND = {
    "complaints": {"address": ADDRESS, "created_at": "Mon, 30 Nov 2026 10:00:00 UTC"},
    "unsubscribes": {
        "address": ADDRESS,
        "tags": ["*"],
        "created_at": "Mon, 30 Nov 2026 10:00:00 UTC",
    },
}
MAILGUN_QUEUED = {
    "id": "<20261207100000.1.ABCD@mg.jumbulaya.example>",
    "message": "Queued. Thank you.",
}


# --- the server ------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    method: str
    path: str  # decoded, without the query
    query: str
    raw: str  # the path as sent
    headers: dict[str, str]
    body: bytes


@dataclass
class Scripted:
    status: int
    body: Any  # JSON-able, or bytes sent as they are
    delay: float = 0.0


@dataclass
class StandIn:
    """The server's script and what it was asked."""

    url: str = ""
    routes: dict[tuple[str, str], Scripted] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)

    def answer(self, method: str, path: str, status: int, body: Any, delay: float = 0.0) -> None:
        self.routes[(method, path)] = Scripted(status, body, delay)

    def asked(self, method: str | None = None) -> list[str]:
        """The paths asked, in order (of one method)."""
        return [c.path for c in self.calls if method is None or c.method == method]


def _handler(stand_in: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _any(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path = unquote(parts.path)
            stand_in.calls.append(
                Call(self.command, path, parts.query, self.path, dict(self.headers.items()), body)
            )
            scripted = stand_in.routes.get((self.command, path)) or Scripted(
                500, {"message": "the stand-in has no answer for this"}
            )
            if scripted.delay:
                time.sleep(scripted.delay)
            raw = (
                scripted.body
                if isinstance(scripted.body, bytes)
                else json.dumps(scripted.body).encode()
            )
            kind = "text/plain" if isinstance(scripted.body, bytes) else "application/json"
            try:
                self.send_response(scripted.status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)
            except OSError:
                pass  # the client gave up (a timeout test)

        do_GET = do_POST = do_DELETE = _any

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def serve() -> tuple[StandIn, ThreadingHTTPServer]:
    """A stand-in listening on loopback, in a thread of its own."""
    stand_in = StandIn()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stand_in))
    server.daemon_threads = True
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return stand_in, server
