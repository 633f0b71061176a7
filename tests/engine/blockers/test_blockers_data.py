"""Data round trips: events and states through JSON, the fold's immutability,
the seat view (what it hides) and the record (write, read, replay, refuse)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from blockers_helpers import full_pile

from games.engine.blockers import (
    BadView,
    Event,
    Options,
    deal,
    decide,
    evolve,
    from_dict,
    legal_moves,
    read_record,
    read_view,
    replay,
    replay_json,
    seat_view,
    start,
    state_from_json,
    state_to_json,
    to_dict,
    write_record,
)
from games.engine.blockers.commands import drawer
from games.engine.blockers.view import view_state
from games.engine.errors import BadRecord


def random_game(seed: int, turns: int = 200, players: int = 3) -> list[Event]:
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    events: list[Event] = [deal(names, Options(), rng)]
    state = start(events[0])  # type: ignore[arg-type]
    for _ in range(turns):
        if state.over:
            break
        seat = state.turn
        assert seat is not None
        moves = legal_moves(state, seat)
        r = rng.random()
        move = "timeout" if r < 0.05 else rng.choice(moves).notation() if moves else "pass"
        if r > 0.995:
            seat, move = rng.randrange(players), "resign"
            if not state.in_game(seat):
                continue
        for event in decide(state, seat, move, drawer(rng)):
            events.append(event)
            state = evolve(state, event)
    return events


def test_events_round_trip_through_json() -> None:
    events = random_game(1)
    kinds = {e.type for e in events}
    assert {"game_started", "tile_placed", "timed_out"} <= kinds
    for event in events:
        assert from_dict(json.loads(json.dumps(to_dict(event)))) == event
    with pytest.raises(BadRecord):
        from_dict({"type": "exchanged", "v": 1})
    with pytest.raises(BadRecord):
        from_dict({"type": "passed", "v": 1})


def test_states_round_trip_through_json() -> None:
    events = random_game(2, turns=40)
    state = replay(events)
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


def test_the_fold_never_changes_its_input() -> None:
    events = random_game(3)
    state = start(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        snapshot = copy.deepcopy(state)
        new = evolve(state, event)
        assert new is not state and state == snapshot
        state = new
    assert state.over


def test_a_seat_view_shows_its_own_rack_and_only_counts_of_the_rest() -> None:
    events = random_game(4, turns=10)
    state = replay(events)
    doc = seat_view(events, state, 1)
    assert doc["format"] == "blockers-view/1"
    assert sorted(doc["rack"]) == sorted(state.racks[1])
    assert doc["rack_sizes"] == [len(r) for r in state.racks]
    assert doc["pile_sizes"] == [len(p) for p in state.piles]
    # Another seat's tiles appear only as one sorted multiset of rack and pile together.
    for other in (0, 2):
        hidden = list(state.racks[other] + state.piles[other])
        assert sorted(doc["unseen"][other]) == sorted(hidden)
    assert sorted(doc["unseen"][1]) == sorted(state.piles[1])
    text = json.dumps(doc)
    assert "piles" not in text and "racks" not in text
    for other in (0, 2):
        order = json.dumps(list(state.piles[other]))
        assert len(state.piles[other]) < 2 or order not in text


def test_a_spectator_sees_no_rack() -> None:
    events = random_game(5, turns=10)
    state = replay(events)
    doc = seat_view(events, state, None)
    assert doc["rack"] is None and doc["seat"] is None
    assert all(
        sorted(doc["unseen"][s]) == sorted(state.racks[s] + state.piles[s]) for s in range(3)
    )


def test_a_view_reads_back_into_the_same_board() -> None:
    events = random_game(6, turns=30)
    state = replay(events)
    view = read_view(json.loads(json.dumps(seat_view(events, state, state.turn))))
    again = view_state(view)
    assert again.owners == state.owners and again.faces == state.faces
    assert again.captures == state.captures and again.turn == state.turn
    assert view.rack and sorted(view.rack) == sorted(state.racks[view.seat or 0])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "jumbulaya-view/1"}, "'format'"),
        ({"seat": 7}, "'seat'"),
        ({"board": {"J1": {"tile": "1", "seat": 0}}}, "J1"),
        ({"board": {"A1": {"tile": "Z", "seat": 0}}}, "not a tile"),
        ({"rack": ["1", "S0"]}, "'rack'"),
        ({"unseen": []}, "'unseen'"),
        ({"status": "paused"}, "'status'"),
    ],
)
def test_a_malformed_view_is_refused(change: dict[str, Any], words: str) -> None:
    events = random_game(7, turns=3)
    doc = seat_view(events, replay(events), 0) | change
    with pytest.raises(BadView, match=words):
        read_view(doc)


def test_a_record_replays_to_the_same_state() -> None:
    events = random_game(8)
    record = write_record(events)
    assert record["format"] == "blockers-record/1"
    assert [len(p) for p in record["piles"]] == [28, 28, 28]
    result = replay_json(json.dumps(record))
    assert result.exit_code == 0, result.error
    assert result.state == replay(events)
    assert result.events == events
    out = result.to_json()
    assert out["status"] == "over" and out["error"] is None
    assert out["scores"] == replay(events).scores()


def _record(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": "blockers-record/1",
        "options": {"colours": []},
        "players": ["ann", "bob", "cy"],
        "first": 0,
        "piles": [full_pile([]), full_pile([]), full_pile([])],
        "turns": [],
    }
    return base | changes


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"format": "blockers/1"}, "'format' must be exactly 'blockers-record/1'"),
        ({"players": ["ann", "bob"]}, "3 to 5 names"),
        ({"players": ["ann", 2, "cy"]}, "must be a string"),
        ({"first": 3}, "'first' must be a seat from 0 to 2"),
        ({"first": True}, "'first' must be a seat"),
        ({"piles": [full_pile([])] * 2}, "one pile per player"),
        ({"piles": [full_pile([]), full_pile([]), full_pile([])[:-1]]}, "pile 2 .* lacks \\*"),
        ({"piles": [full_pile([]), ["1", *full_pile([])[1:-1], "1"], full_pile([])]},
         "pile 1 .* lacks \\*.* has 1 too many"),
        ({"piles": [full_pile([]), full_pile([]), ["S0", *full_pile([])[1:]]]}, "'S0'"),
        ({"options": {"colours": ["red", "red", "blue"]}}, "different colour"),
        ({"options": {"colours": ["pink", "red", "blue"]}}, "'pink' is not a colour"),
        ({"options": {"size": 9}}, "unknown option 'size'"),
        ({"turns": {}}, "'turns' must be a list"),
    ],
)  # fmt: skip
def test_a_malformed_record_is_refused_with_what_is_wrong(
    changes: dict[str, Any], words: str
) -> None:
    with pytest.raises(BadRecord, match=words):
        read_record(_record(**changes))
    out = replay_json(json.dumps(_record(**changes)))
    assert out.exit_code == 2 and out.to_json()["board"] is None


def test_missing_keys_and_bad_json() -> None:
    for key in ("players", "first", "piles", "turns"):
        data = _record()
        del data[key]
        with pytest.raises(BadRecord, match=f"no '{key}'"):
            read_record(data)
    assert replay_json("{").exit_code == 2
    assert replay_json("[]").to_json()["error"]["code"] == "bad_record"


def test_a_bad_turn_is_exit_2_and_a_refused_one_exit_1_at_its_index() -> None:
    malformed = replay_json(
        json.dumps(_record(turns=[{"seat": 0, "move": "1 at A1"}, {"seat": 9}]))
    )
    assert malformed.exit_code == 2 and malformed.error_turn == 1
    assert malformed.state is not None and malformed.state.turns_taken == (1, 0, 0)
    refused = replay_json(json.dumps(_record(turns=[{"seat": 1, "move": "1 at A1"}])))
    assert refused.exit_code == 1 and refused.to_json()["error"]["code"] == "not_your_turn"
