"""Structured log lines: one per move accepted, email sent, email received and
sweep run, on the ``jumbulaya.events`` logger, and the JSON formatter that
writes every log record as one line when ``JUMBULAYA_LOG_FORMAT=json``.

An event carries only the fields of :data:`FIELDS`: ids, sequence numbers,
counts and short codes.  Never a tile, a rack, a word or an address: the
hidden information of a game must not reach the logs (a test scans them).
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

EVENTS = logging.getLogger("jumbulaya.events")
_CODE = re.compile(r"[a-z][a-z0-9_.-]{0,63}")

#: The fields an event may carry, and their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": int,
    "seq": int,
    "seat": int,
    "source": str,  # web, email, robot, deadline... (Event.Source)
    "notification": int,
    "kind": str,  # a Notification.Kind
    "inbound": int,
    "status": str,  # what came of an email received (InboundMail.Status)
    "task": str,
    "count": int,
    "ms": int,
}


def event(name: str, **fields: Any) -> None:
    """Log event ``name`` with ``fields`` (``None`` values are left out).  A
    field not in :data:`FIELDS`, or of another type, is a programming error."""
    kept = {}
    for key, value in fields.items():
        if value is None:
            continue
        expected = FIELDS.get(key)
        if expected is None or not isinstance(value, expected) or isinstance(value, bool):
            raise TypeError(f"log event {name}: {key}={value!r} is not a loggable field")
        if isinstance(value, str) and not _CODE.fullmatch(value):
            value = "(not a code)"  # a short code or nothing: never free text
        kept[key] = value
    words = " ".join(f"{key}={value}" for key, value in kept.items())
    EVENTS.info(f"{name} {words}".rstrip(), extra={"event": name, "fields": kept})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``ts`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, and for the events of :func:`event` ``event`` and its fields;
    a traceback, when there is one, under ``exc``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        name = getattr(record, "event", None)
        if isinstance(name, str):
            line["event"] = name
            line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)
