"""``manage.py replay FILE``: replay a ``jumbulaya-record/1`` game record.

Prints the resulting state as one JSON object and exits 0 when every turn was
legal, 1 when a turn was refused, 2 when the record is malformed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import lexicons
from games.engine import BadRecord, ReplayResult, replay_json


class Command(BaseCommand):
    help = "Replay a jumbulaya-record/1 file ('-' for standard input) and print the state as JSON."
    requires_system_checks: tuple[str, ...] = ()

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as e:
            result = ReplayResult(None, error=BadRecord(f"cannot read {path}: {e.strerror}"))
        else:
            result = replay_json(text, lexicons.load)
        self.stdout.write(json.dumps(result.to_json(), ensure_ascii=False))
        sys.exit(result.exit_code)
