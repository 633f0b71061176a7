"""The structured log lines: one per move accepted, email sent, email received
and sweep run, with the game id and sequence number, and never a tile, a rack,
a word or an address (hidden information must not reach the logs)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import pytest

from games import tasks
from games.core import projection
from games.engine.jumbulaya import legal_moves
from games.mail_in import inbound
from games.mail_out import outbox
from games.models import Notification
from ops import logs
from ops.logs import JsonFormatter
from tests.conftest import CanaryGame
from tests.inbound.inbound_mails import mover, parsed, reply_mime

pytestmark = pytest.mark.django_db

#: The keys of every event line, and those of each event.
COMMON = {"ts", "level", "logger", "message", "event"}
KEYS = {
    "move": {"game", "seq", "seat", "source"},
    "email_sent": {"game", "seq", "notification", "kind"},
    "email_received": {"game", "seq", "inbound", "status", "source"},
    "sweep": {"task", "count", "ms"},
}


def test_the_json_formatter_writes_one_object_per_line() -> None:
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "a %s", ("b",), None)
    line = json.loads(JsonFormatter().format(record))
    assert set(line) == {"ts", "level", "logger", "message"}
    assert (line["level"], line["logger"], line["message"]) == ("WARNING", "x", "a b")
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    formatted = JsonFormatter().format(record)
    assert "\n" not in formatted and "ValueError: boom" in json.loads(formatted)["exc"]


def test_an_event_takes_only_its_fields_and_codes() -> None:
    with pytest.raises(TypeError):
        logs.event("move", word="CATS")
    with pytest.raises(TypeError):
        logs.event("move", game="12")


def test_a_game_played_by_every_channel_logs_ids_and_never_what_is_hidden(
    canary_game: Callable[[], CanaryGame],
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
    mailoutbox: list[Any],
    settings: Any,
) -> None:
    settings.JUMBULAYA_INBOUND_ESPS = ["postmark"]
    caplog.set_level(logging.INFO)
    with django_capture_on_commit_callbacks(execute=True):
        canary = canary_game()  # four moves on the web
        game = canary.game
        outbox.sweep()  # the emails they owe
        tasks.sweep_outbox()
        # A move by email reply.
        game.refresh_from_db()
        state = projection.current_state(game)
        assert state.turn is not None
        moves = legal_moves(state, state.turn, projection.game_lexicon(game))
        move = moves[0].notation() if moves else "pass"
        player = mover(game)
        outcome = inbound.receive(parsed(reply_mime(game, player, move)), via="postmark")
        assert outcome.status == "moved"
        outbox.sweep()
    assert mailoutbox

    formatter = JsonFormatter()
    lines = [formatter.format(r) for r in caplog.records]
    events = [json.loads(line) for line in lines if '"event"' in line]
    by_name: dict[str, list[dict[str, Any]]] = {}
    for line in events:
        by_name.setdefault(line["event"], []).append(line)
    for name, keys in KEYS.items():
        assert by_name.get(name), f"no {name} line"
        for line in by_name[name]:
            assert set(line) == COMMON | keys, line
    moves_logged = [(m["seq"], m["source"]) for m in by_name["move"]]
    assert moves_logged == [(2, "web"), (3, "web"), (4, "web"), (5, "web"), (6, "email")]
    assert {m["game"] for m in by_name["move"]} == {game.pk}
    received = by_name["email_received"][0]
    assert (received["status"], received["seq"], received["game"]) == ("moved", 6, game.pk)
    # One line per message that left (a row with nothing to send, e.g. muted, has none).
    assert len(by_name["email_sent"]) == len(mailoutbox)
    logged = {line["notification"] for line in by_name["email_sent"]}
    assert logged <= set(
        Notification.objects.filter(sent_at__isnull=False).values_list("pk", flat=True)
    )

    # Nothing hidden in any line, events or not: no address, no word played,
    # no rack; and in the event lines not one tile face.
    everything = "\n".join(lines)
    for seat in game.seats.select_related("user"):
        assert seat.user is not None
        assert seat.user.email not in everything
    assert "CATS" not in everything.upper()  # Bob's word
    if move != "pass":
        assert move.split()[-1] not in everything
    final = projection.current_state(game)
    for rack in final.racks:
        assert "".join(rack) not in everything and " ".join(rack) not in everything
    faces = frozenset().union(*canary.secret.values())
    for line in events:
        values = " ".join(str(v) for k, v in line.items() if k not in {"ts"})
        tokens = set(re.findall(r"[A-Z]+", values)) - {"INFO"}
        assert not tokens & faces, line
