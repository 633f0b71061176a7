"""``manage.py replay FILE``: replay a game record of any kind, read by the
kind whose record ``format`` it has (``jumbulaya-record/1``: :mod:`games.kinds`).

Prints the resulting state as one JSON object and exits 0 when every turn was
legal, 1 when a turn was refused, 2 when the record is malformed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import kinds
from games.core import lexicons
from games.engine.errors import BadRecord


class Command(BaseCommand):
    help = (
        "Replay a game record (jumbulaya-record/1, or any kind's format) from a file "
        "('-' for standard input) and print the state as JSON."
    )
    requires_system_checks: tuple[str, ...] = ()

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as e:
            error = BadRecord(f"cannot read {path}: {e.strerror}")
            result = kinds.get(kinds.DEFAULT).unreadable_record(error)
        else:
            result = kinds.replay_json(text, lexicons.resolver)
        self.stdout.write(json.dumps(result.to_json(), ensure_ascii=False))
        sys.exit(result.exit_code)
