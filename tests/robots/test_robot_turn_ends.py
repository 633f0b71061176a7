"""A robot on its turn always ends it, in every kind: whatever its answer (a
move the rules refuse, ``wait``, or none at all, its code failing), its turn
ends at once with a move the rules accept, and the log line says why in
words that name no tile."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import kinds
from games.core import door, lobby
from games.core.projection import current_state, kind_of
from games.kinds.base import GameKind
from games.models import Event, Game, RobotTurn
from games.robots import owed, turns

pytestmark = pytest.mark.django_db

#: A robot's answer that the rules of every kind refuse, with a word to look for in the log.
NONSENSE = "10 ZQXJV"


def refused(*args: Any) -> str:
    return NONSENSE


def waits(*args: Any) -> str:
    return "wait"


def fails(*args: Any) -> str:
    raise ValueError(f"the robot's own words: {NONSENSE}")


def robot_to_move(kind: GameKind, make_user: Callable[[str], User]) -> tuple[Game, int]:
    """A game of ``kind`` between a person (seat 0) and robots, a robot to move."""
    levels = [lv for lv in kinds.robot_levels(kind) if owed.robot(lv) is not None]
    for attempt in range(40):  # who moves first is drawn at random
        game = lobby.create_game(
            make_user(f"p{attempt}"),
            seat_count=kind.min_players,
            rules=next(iter(kind.presets.values())),
            kind=kind.name,
            robots=levels[: kind.min_players - 1],
        )
        to_move = kind.progress(current_state(game)).to_move
        robot = next((seat for seat in to_move if seat != 0), None)
        if robot is not None:
            return game, robot
    raise AssertionError("no robot was ever first to move")


@pytest.mark.parametrize("kind", [kind.name for kind in kinds.all()])
@pytest.mark.parametrize("answer", [refused, waits, fails], ids=lambda f: f.__name__)
def test_a_robot_always_ends_its_turn(
    kind: str,
    answer: Callable[..., str],
    make_user: Callable[[str], User],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 0
    game_kind = kinds.get(kind)
    game, seat = robot_to_move(game_kind, make_user)
    assert game_kind.robots is not None
    monkeypatch.setattr(type(game_kind.robots), "play", answer)
    if kind_of(game).progress(current_state(game)).to_move != (seat,):
        # Seats moving at once (Tumble-Words' rounds): the person moves first.
        door.submit(game.pk, 0, "submit .", game.last_seq, Event.Source.WEB)
        game.refresh_from_db()
    seq = game.last_seq
    row = RobotTurn.objects.get(game=game, seat=seat, seq=seq)
    with caplog.at_level(logging.WARNING):
        outcome = turns.play(row.pk)
    game.refresh_from_db()
    assert game.last_seq > seq, outcome
    assert Event.objects.filter(game=game, seq=seq + 1, seat=seat).exists()
    assert outcome in ("passed", "timed_out")
    assert "ZQXJV" not in caplog.text
    assert "robot" in caplog.text and "ends its turn" in caplog.text
