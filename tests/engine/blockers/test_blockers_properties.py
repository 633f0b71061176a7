"""Property tests: random games replay to the same state, and the move generator
agrees with ``decide`` exactly (every generated move is accepted, nothing else is)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.blockers import (
    SQUARE_NAMES,
    TILE_SET,
    Event,
    Options,
    deal,
    decide,
    evolve,
    legal_moves,
    replay,
    replay_json,
    start,
    write_record,
)
from games.engine.blockers.commands import drawer
from games.engine.errors import Refusal


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 5), turns=st.integers(0, 130))
def test_random_games_replay_to_the_same_state(seed: int, players: int, turns: int) -> None:
    rng = random.Random(seed)
    events: list[Event] = [deal([f"p{i}" for i in range(players)], Options(), rng)]
    state = start(events[0])  # type: ignore[arg-type]
    for _ in range(turns):
        if state.over:
            break
        seat = state.turn
        assert seat is not None
        moves = legal_moves(state, seat)
        move = rng.choice(moves).notation() if moves and rng.random() < 0.95 else "timeout"
        for event in decide(state, seat, move, drawer(rng)):
            events.append(event)
            state = evolve(state, event)
    assert replay(events) == state
    result = replay_json(json.dumps(write_record(events)))
    assert result.exit_code == 0 and result.state == state


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), turns=st.integers(0, 72))
def test_decide_accepts_exactly_the_generated_moves(seed: int, turns: int) -> None:
    rng = random.Random(seed)
    state = start(deal(("a", "b", "c"), Options(), rng))
    for _ in range(turns):
        if state.over:
            break
        seat = state.turn
        assert seat is not None
        moves = legal_moves(state, seat)
        move = rng.choice(moves).notation() if moves else "pass"
        for event in decide(state, seat, move, drawer(rng)):
            state = evolve(state, event)
    if state.over:
        return
    seat = state.turn
    assert seat is not None
    legal = {m.notation(): m.captured for m in legal_moves(state, seat)}
    for tile in TILE_SET:
        for square in SQUARE_NAMES:
            move = f"{tile} at {square}"
            try:
                events = decide(state, seat, move)
            except Refusal:
                assert move not in legal
                continue
            assert move in legal
            assert events[0].captured == legal[move]  # type: ignore[attr-defined]
    try:
        decide(state, seat, "pass")
        assert not legal
    except Refusal as e:
        assert legal and e.code == "pass_not_allowed"
