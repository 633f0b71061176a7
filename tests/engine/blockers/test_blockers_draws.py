"""Draws (issue 27, finding 3, for every kind with a bag): a Blockers turn draws
a tile picked at random from the whole of the seat's own pile when it draws,
the deal leaves no order in the piles, and the tiles drawn are recorded in the
event and in the game's record.

The draws here are the engine's own (the operating system's generator): the
checks are statistical, with bounds a pile drawn from its front cannot meet
and a random draw misses with a chance below 1e-30.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from blockers_helpers import full_pile, position

from games.engine.blockers import (
    Event,
    Options,
    TilePlaced,
    deal,
    decide,
    evolve,
    legal_moves,
    replay,
    replay_json,
    start,
    state_to_json,
    write_record,
)
from games.engine.blockers.board import RACK_SIZE, TILE_SET

PILE = ("9", "A", "B", "C", "D", "E", "F", "G")
TRIALS = 600  # a tile of eight missed every time: (7/8)**600 < 1e-34


def test_a_turn_draws_at_random_from_the_whole_pile_when_it_draws() -> None:
    before = position(piles=(PILE, (), ()))
    seen: Counter[str] = Counter()
    for _ in range(TRIALS):
        (placed,) = decide(before, 0, "1 at A1")
        assert isinstance(placed, TilePlaced) and placed.drawn is not None
        after = evolve(before, placed)
        assert after.piles[0] == tuple(t for t in PILE if t != placed.drawn)
        assert placed.drawn in after.racks[0]
        seen[placed.drawn] += 1
    assert set(seen) == set(PILE)  # from the front of the pile: "9" every time


def test_the_deal_leaves_every_pile_in_the_sets_order() -> None:
    """Five tiles dealt at random to each rack; the rest of the colour waits in
    the set's own order, which tells nothing, since every draw is random."""
    for seed in range(5):
        started = deal(("a", "b", "c"), Options(), random.Random(seed))
        for rack, pile in zip(started.racks, started.piles, strict=True):
            assert len(rack) == RACK_SIZE
            assert pile == tuple(t for t in TILE_SET if t not in rack)


def _played(seed: int) -> list[Event]:
    """A deal and four turns: a placement, a timeout, a placement, a timeout."""
    rng = random.Random(seed)
    events: list[Event] = [deal(("a", "b", "c"), Options(), rng)]
    state = start(events[0])  # type: ignore[arg-type]
    for move in ("place", "timeout", "place", "timeout"):
        seat = state.turn
        assert seat is not None
        if move == "place":
            move = legal_moves(state, seat)[0].notation()
        for event in decide(state, seat, move):
            events.append(event)
            state = evolve(state, event)
    return events


def test_a_record_lists_each_draw_and_replays_to_the_same_state() -> None:
    events = _played(11)
    record = write_record(events)
    draws = [turn.get("draw") for turn in record["turns"]]
    assert draws == [getattr(e, "drawn", None) for e in events[1:]]
    assert all(isinstance(d, str) for d in draws)
    result = replay_json(json.dumps(record))
    assert result.exit_code == 0, result.to_json()["error"]
    assert result.state is not None
    assert state_to_json(result.state) == state_to_json(replay(events))
    assert result.events[1:] == events[1:]


def _record(turns: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "blockers-record/1",
        "players": ["ann", "bob", "cy"],
        "first": 0,
        "piles": [full_pile(["1", "2", "3", "4", "5", "9"]), list(TILE_SET), list(TILE_SET)],
        "turns": turns,
    }


def test_a_turn_without_a_draw_takes_the_front_of_its_pile_as_records_did() -> None:
    result = replay_json(json.dumps(_record([{"seat": 0, "move": "1 at A1"}])))
    assert result.exit_code == 0 and result.to_json()["racks"][0] == ["2", "3", "4", "5", "9"]


def test_a_listed_draw_must_be_a_tile_of_the_pile() -> None:
    for turn, words in [
        ({"seat": 0, "move": "1 at A1", "draw": "1"}, "'draw' lists 1, which is not"),
        ({"seat": 0, "move": "1 at A1", "draw": "Q"}, "'draw' must be a tile"),
        ({"seat": 0, "move": "1 at A1", "draw": ["9"]}, "'draw' must be a tile"),
        ({"seat": 0, "move": "resign", "draw": "9"}, "draws no tile, but 'draw' lists 9"),
    ]:
        result = replay_json(json.dumps(_record([turn])))
        assert result.exit_code == 2 and result.error_turn == 0, result.to_json()
        assert result.error is not None and words in result.error.message, result.error
    listed = replay_json(json.dumps(_record([{"seat": 0, "move": "1 at A1", "draw": "G"}])))
    assert listed.exit_code == 0 and listed.to_json()["racks"][0] == ["2", "3", "4", "5", "G"]
