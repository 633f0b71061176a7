"""The service core reaches a game's rules through its kind: ``submit``, the
deal, ``manage.py replay`` and the records area ask the registry, so a kind
registered there is the one they use."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from accounts.models import User
from games import kinds
from games.core.door import submit
from games.core.lobby import create_game
from games.core.projection import ServiceError
from games.engine import jumbulaya as engine
from games.engine.jumbulaya import PRESETS, Lexicon
from games.kinds.jumbulaya.kind import Jumbulaya
from games.models import Event, Game


class Watched(Jumbulaya):
    """JUMBULAYA, counting what the core asks of it."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def deal(self, *args: Any) -> engine.GameStarted:
        self.asked.append("deal")
        return super().deal(*args)

    def decide(
        self, state: engine.GameState, seat: int, move: str, lexicon: Lexicon | None
    ) -> list[engine.Event]:
        self.asked.append(f"decide {move}")
        return super().decide(state, seat, move, lexicon)

    def evolve(self, state: engine.GameState, event: engine.Event) -> engine.GameState:
        self.asked.append(f"evolve {event.type}")
        return super().evolve(state, event)

    def state_from_json(self, data: dict[str, Any]) -> engine.GameState:
        self.asked.append("state_from_json")
        return super().state_from_json(data)


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> Watched:
    kind = Watched()
    monkeypatch.setitem(kinds._KINDS, "jumbulaya", kind)
    return kind


def test_the_deal_and_a_move_go_through_the_game_kind(
    watched: Watched, started_game: Callable[..., Game]
) -> None:
    game = started_game()
    assert game.kind == "jumbulaya" and watched.asked == ["deal"]
    seat = game.turn_seat
    assert seat is not None
    submit(game.pk, seat, "pass", game.last_seq, Event.Source.WEB)
    assert watched.asked[1:] == ["state_from_json", "decide pass", "evolve passed"]


def test_a_game_of_an_unknown_kind_is_refused_and_nothing_is_made(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    with pytest.raises(ServiceError, match="there is no game kind 'chess'"):
        create_game(ann, kind="chess", seat_count=2, rules=PRESETS["official"])
    assert not Game.objects.exists()


@dataclass
class Replayed:
    state: Any = None
    events: list[Any] = field(default_factory=list)
    error_turn: int | None = None
    error: engine.Refusal | None = None
    exit_code: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"replayed by": "other"}


class Other(Jumbulaya):
    """Another kind, with records of its own format."""

    name = "other"
    label = "Other"
    record_format = "other-record/1"

    def replay_json(self, text: str | bytes, resolve: Any) -> Replayed:  # type: ignore[override]
        return Replayed()


def test_manage_py_replay_reads_a_record_by_its_format(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(kinds._KINDS, "other", Other())
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "other-record/1"}))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("replay", str(path), stdout=out)
    assert exit.value.code == 0
    assert json.loads(out.getvalue()) == {"replayed by": "other"}


def test_manage_py_replay_names_the_formats_it_reads(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(kinds._KINDS, "other", Other())
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "chess-record/1"}))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("replay", str(path), stdout=out)
    assert exit.value.code == 2
    error = json.loads(out.getvalue())["error"]
    assert error["code"] == "bad_record"
    assert error["message"] == (
        "'format' must be exactly 'jumbulaya-record/1' or 'crossword-bible-record/1' or "
        "'blockers-record/1' or 'tumble-record/1' or "
        "'other-record/1', not 'chess-record/1'"
    )
