"""The engines' shared toolkit (``games/engine/common/``) on its own: what each
engine relies on it for, checked once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from games.engine.common.events import Event, event_of, to_dict
from games.engine.common.matches import HeadToHead, swapped_seatings, two_seat_result
from games.engine.common.records import (
    ReplayResult,
    read_first,
    read_players,
    read_seat_move,
    record_object,
)
from games.engine.errors import BadRecord, Refusal


@dataclass(frozen=True, slots=True)
class Settings:
    size: int

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size}


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    type: ClassVar[str] = "dealt"
    PRIVATE: ClassVar[tuple[str, ...]] = ("hands",)
    settings: Settings
    hands: tuple[tuple[str, ...], ...]


def test_an_event_is_written_with_its_type_and_version_and_read_back() -> None:
    event = Dealt(Settings(3), (("A", "B"), ()))
    data = to_dict(event)
    assert data == {"type": "dealt", "v": 1, "settings": {"size": 3}, "hands": [["A", "B"], []]}
    assert event_of(Dealt, data, {"settings": lambda v: Settings(v["size"])}) == event


def test_an_event_missing_a_field_is_a_bad_record() -> None:
    with pytest.raises(BadRecord, match="a dealt event has no 'hands'"):
        event_of(Dealt, {"type": "dealt", "settings": {"size": 3}}, {})


def test_a_record_header_is_refused_with_what_is_wrong() -> None:
    with pytest.raises(BadRecord, match="a record is a JSON object"):
        record_object([], "x/1")
    with pytest.raises(BadRecord, match="'format' must be exactly 'x/1', not 'y/1'"):
        record_object({"format": "y/1"}, "x/1")
    with pytest.raises(BadRecord, match="'players' must list 3 to 5 names"):
        read_players(["a", "b"], 3, 5)
    with pytest.raises(BadRecord, match="'first' must be a seat from 0 to 1, not True"):
        read_first(True, 2)
    with pytest.raises(BadRecord, match="the turn's 'seat' must be a seat from 0 to 1, not 2"):
        read_seat_move({"seat": 2, "move": "pass"}, 2)
    assert read_seat_move({"seat": 1, "move": "pass"}, 2) == (1, "pass")


class Counted(ReplayResult[int, int]):
    STATE_KEYS = ("total",)

    def state_json(self, state: int) -> dict[str, Any]:
        return {"total": state}


def _add(state: int, raw: object) -> list[int]:
    if not isinstance(raw, int):
        raise Refusal("bad_move", f"{raw!r} is not a number")
    return [raw]


def test_a_replay_stops_at_the_refused_turn_with_the_state_before_it() -> None:
    result = Counted(0, []).play_turns([1, 2, "x", 4], _add, lambda s, e: s + e)
    assert (result.state, result.events, result.error_turn) == (3, [1, 2], 2)
    assert result.exit_code == 1
    assert result.to_json() == {
        "total": 3,
        "error": {"turn": 2, "code": "bad_move", "message": "'x' is not a number"},
    }


def test_a_replay_without_a_state_writes_each_key_null_and_exits_2() -> None:
    result = Counted(None, error=BadRecord("a record is a JSON object"))
    assert result.exit_code == 2
    assert result.to_json()["total"] is None


@dataclass(frozen=True)
class Game:
    winners: tuple[int, ...]
    scores: tuple[int, ...]

    def result(self, seat: int) -> float:
        return two_seat_result(self.winners, seat)


@dataclass(frozen=True)
class Tally(HeadToHead[Game]):
    games: tuple[Game, ...]
    a_seat: tuple[int, ...]


def test_a_two_seat_match_counts_wins_draws_and_losses_from_a_side() -> None:
    # a sits at 0, then 1, then 0: it wins, draws, then loses.
    games = (Game((0,), (10, 5)), Game((0, 1), (7, 7)), Game((1,), (2, 9)))
    tally = Tally(games, (0, 1, 0))
    assert (tally.wins, tally.draws, tally.losses, tally.points) == (1, 1, 1, 1.5)
    assert tally.win_rate == 0.5
    assert tally.average_scores == (19 / 3, 21 / 3)
    assert tally.tally_line().startswith("3 games, 1-1-1 (W-D-L), win rate 50.0% [95% ")


def test_each_deal_is_played_twice_with_the_seats_swapped() -> None:
    assert swapped_seatings("a", "b", 3, 1) == [
        (100_003, ("a", "b"), 0),
        (100_003, ("b", "a"), 1),
        (100_004, ("a", "b"), 0),
        (100_004, ("b", "a"), 1),
    ]
