"""Property tests: random legal games keep every invariant, records round-trip,
and no input of any shape crashes the notation reader or the record replayer.

Every test is derandomized, so a run is the same every time (and in CI)."""

from __future__ import annotations

import json
import random
import typing
from collections.abc import Callable
from dataclasses import replace

import pytest
from engine_helpers import assert_full_set, make_started, random_turn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.jumbulaya import (
    PRESETS,
    Event,
    GameState,
    Lexicon,
    Refusal,
    RefusalCode,
    Rules,
    deal,
    decide,
    draw_front,
    evolve,
    lexicon_from_words,
    line_points,
    parse_move,
    replay_json,
    search,
    start,
    write_record,
)
from games.engine.jumbulaya.notation import format_move

CODES = set(typing.get_args(RefusalCode))
ENDS = {"jumbulaya", "ten_tiles", "all_lines", "stalled", "resigned"}

GAMES = settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
FUZZ = settings(max_examples=300, derandomize=True, deadline=None)


def recount(state: GameState) -> list[int]:
    out = [0] * state.seats
    for ln in state.lines:
        if ln.owner is not None:
            out[ln.owner] += line_points(ln.tiles)
    if state.jumbulaya is not None:
        out[state.jumbulaya.seat] += state.jumbulaya.points
    return out


def check_invariants(state: GameState) -> None:
    assert_full_set(state)
    assert state.scores() == recount(state)
    assert all(len(ln.tiles) <= 10 for ln in state.lines)
    if state.over:
        assert state.turn is None and state.end in ENDS
    else:
        assert state.turn is not None and state.turn not in state.resigned
        assert all(len(r) <= 5 + 2 for r in state.racks)  # 5, plus trades this turn


def random_game(
    lexicon: Lexicon, seed: int, rules: Rules, max_steps: int = 400
) -> tuple[GameState, list[Event]]:
    """A seeded random game: legal words, passes, exchanges, JUMBULAYA calls (some
    failing, some off turn) and resignations."""
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(rng.randint(2, 4)))
    started = deal(players, rules, lexicon, rng)
    state = start(started)
    events: list[Event] = [started]
    for _ in range(max_steps):
        if state.over:
            break
        live = [s for s in range(state.seats) if s not in state.resigned]
        roll = rng.random()
        if roll < 0.004:
            new = decide(state, rng.choice(live), "resign", lexicon, draw_front)
        elif roll < 0.15 and state.jumbulaya_open():
            seat = rng.choice(live)
            found = search([ln.tiles for ln in state.lines], lexicon, state.rules)
            word = rng.choice(found).word if found and rng.random() < 0.3 else "ZZZZZZZ"
            try:
                new = decide(state, seat, f"jumbulaya {word}", lexicon, draw_front)
            except Refusal as e:
                assert e.code == "jumbulaya_barred" and seat in state.barred
                continue
        else:
            new = random_turn(state, lexicon, rng, word_bias=0.9)
        for event in new:
            state = evolve(state, event)
        events.extend(new)
        check_invariants(state)
    return state, events


def game_rules(data: st.DataObject) -> Rules:
    preset = data.draw(st.sampled_from(["official", "boardspace"]))
    return replace(
        PRESETS[preset],
        stall_rounds=data.draw(st.integers(1, 2)),
        rack_limit=data.draw(st.sampled_from([2, 2, 3])),
    )


@pytest.mark.slow
@GAMES
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_invariants_and_end_properly(
    enable: Lexicon, data: st.DataObject, seed: int
) -> None:
    state, _ = random_game(enable, seed, game_rules(data))
    assert state.over, "a game with stall_rounds > 0 ends"
    assert state.end in ENDS
    winners = state.winners()
    assert winners, "someone wins"
    live = set(range(state.seats)) - state.resigned
    assert set(winners) <= live
    top = max(state.scores()[s] for s in live)
    assert all(state.scores()[s] == top for s in winners)
    if state.end == "resigned":
        assert len(live) == 1
    check_invariants(state)


@pytest.mark.slow
@GAMES
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_record_replay_record_round_trip(enable: Lexicon, data: st.DataObject, seed: int) -> None:
    state, events = random_game(
        enable, seed, game_rules(data), max_steps=data.draw(st.integers(0, 120))
    )

    def resolve(name: str) -> Lexicon:
        if name != "default":
            raise LookupError(name)
        return enable

    record = write_record(events, "default")
    text = json.dumps(record)
    result = replay_json(text, resolve)
    assert result.exit_code == 0, result.error
    assert result.state == state
    assert write_record(result.events, "default") == record
    again = replay_json(json.dumps(write_record(result.events)), resolve)
    assert again.state == state
    assert again.to_json() == result.to_json()


MOVE_PIECES = ["QU", "[TH]", "10", "pass", "exchange", "all", "jumbulaya", "resign", "timeout"]
MOVE_ALPHABET = st.sampled_from([*"0123456789 AQUXTHEDSLY[]-\t\u00df\u0661\ufb01", *MOVE_PIECES])


@FUZZ
@given(st.one_of(st.text(), st.lists(MOVE_ALPHABET, max_size=12).map("".join)))
def test_parse_move_never_crashes(text: str) -> None:
    try:
        command = parse_move(text)
    except Refusal as e:
        assert e.code in {"bad_move", "bad_line", "unknown_tile"}
        assert e.message
    else:
        assert parse_move(format_move(command)) == command


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

SMALL = lexicon_from_words(["ACT", "CAT", "FACT", "FACTS", "TAC"])


def base_record() -> dict[str, object]:
    started = make_started(
        lines=["A C T", "O R ST", "B E D", "G I N", "M O P", "L U V", "W I K", "N E Y", "H A Z"],
        racks=["F S E R TH", "A B I N O"],
        bag_front="E L N",
        lexicon=SMALL,
    )
    record = write_record([started], {"words": ["ACT", "CAT", "FACT", "FACTS", "TAC"]})
    record["turns"] = [
        {"seat": 0, "move": "1 FACTS"},
        {"seat": 1, "move": "pass"},
        {"seat": 0, "move": "exchange TH", "draw": ["U"]},
        {"seat": 1, "move": "timeout"},
    ]
    return record


KEYS = ["format", "rules", "lexicon", "players", "first", "setup", "turns", "lexicon_sha256"]


def resolve_none(name: str) -> Lexicon:
    if name == "small":
        return SMALL
    raise LookupError(name)


def check_result(text: str | bytes, resolve: Callable[[str], Lexicon]) -> int:
    result = replay_json(text, resolve)
    assert result.exit_code in (0, 1, 2)
    out = result.to_json()
    json.dumps(out)
    assert set(out) == {"status", "end", "next", "lines", "racks", "bag", "scores", "winners",
                        "error"}  # fmt: skip
    if result.error is not None:
        assert result.error.code in CODES
        assert out["error"]["code"] == result.error.code  # type: ignore[index]
    return result.exit_code


def test_base_record_replays() -> None:
    result = replay_json(json.dumps(base_record()), resolve_none)
    assert result.exit_code == 0, result.error
    out = result.to_json()
    assert out["racks"][0] == ["E", "R", "E", "L", "U"]  # type: ignore[index]
    assert out["scores"] == [5, 0] and out["next"] == 0


@FUZZ
@given(st.one_of(JSON, st.text(max_size=40), st.binary(max_size=40)))
def test_replay_json_never_crashes_on_any_json(value: object) -> None:
    text = value if isinstance(value, str | bytes) else json.dumps(value)
    assert check_result(text, resolve_none) in (1, 2) or value == {}


@pytest.mark.slow
@FUZZ
@given(
    st.lists(
        st.tuples(st.sampled_from(KEYS), JSON | st.sampled_from(["small", "default", "official"])),
        max_size=3,
    ),
    st.lists(st.tuples(st.integers(0, 5), JSON), max_size=3),
)
def test_replay_json_never_crashes_on_damaged_records(
    header: list[tuple[str, object]], turns: list[tuple[int, object]]
) -> None:
    record = base_record()
    for key, value in header:
        record[key] = value
    turn_list = record.get("turns")
    if isinstance(turn_list, list):
        for index, value in turns:
            if index < len(turn_list):
                turn_list[index] = value
            else:
                turn_list.append(value)
    check_result(json.dumps(record), resolve_none)


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 1), MOVE_ALPHABET.map(str) | st.text(max_size=12)),
                max_size=8))  # fmt: skip
def test_replay_json_never_crashes_on_any_turns(turns: list[tuple[int, str]]) -> None:
    record = base_record()
    record["turns"] = [{"seat": s, "move": m} for s, m in turns]
    check_result(json.dumps(record), resolve_none)


def test_assert_full_set_notices_a_lost_tile() -> None:
    state = start(make_started(lines=["A C T"], racks=["F", "O"]))
    assert_full_set(state)
    with pytest.raises(AssertionError):
        assert_full_set(replace(state, bag=state.bag[1:]))
