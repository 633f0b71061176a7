"""Sealed rounds (two players), turns (three or more), the end, resigning,
JSON round trips and the fold's immutability."""

from __future__ import annotations

import copy
import json
import random

import pytest
from tumble_helpers import EX3, EX3_ROLL, EX4, EX4_ROLL, SEED_WORDS, fixed, two

from games.engine.errors import Refusal
from games.engine.tumble import (
    GameStarted,
    Options,
    Resigned,
    Rolled,
    RoundClosed,
    Submitted,
    TimedOut,
    TumbleState,
    deal,
    decide,
    evolve,
    from_dict,
    roll_off,
    roller,
    start,
    state_from_json,
    state_to_json,
    to_dict,
)
from games.engine.tumble.events import Event


def play(state: TumbleState, seat: int, move: str, *rolls: str) -> TumbleState:
    for event in decide(state, seat, move, SEED_WORDS, fixed(*rolls)):
        state = evolve(state, event)
    return state


def test_a_submission_is_sealed_until_both_have_submitted() -> None:
    state = two()
    events = decide(state, 0, f"submit {EX3}", SEED_WORDS, fixed())
    assert len(events) == 1 and isinstance(events[0], Submitted)
    assert events[0].PRIVATE == ("crossword", "points")
    assert events[0].points == 21
    state = evolve(state, events[0])
    assert state.waiting() == (1,) and state.round == 1 and state.totals == (0, 0)


def test_both_submitted_reveals_scores_and_rolls_the_next_round() -> None:
    state = play(two(), 0, f"submit {EX3}")
    events = decide(state, 1, f"submit {EX4}", SEED_WORDS, fixed(EX4_ROLL, EX3_ROLL))
    assert [type(e) for e in events] == [Submitted, RoundClosed, Rolled]
    closed = events[1]
    assert isinstance(closed, RoundClosed) and closed.points == (21, 36)
    for e in events:
        state = evolve(state, e)
    assert state.totals == (21, 36)
    assert (state.round, state.rolls, state.waiting()) == (2, (EX4_ROLL, EX3_ROLL), (0, 1))
    assert state.history[0].crosswords[1] is not None


def test_a_submission_can_be_replaced_until_the_round_closes() -> None:
    state = play(two(), 0, "submit FAME")
    state = play(state, 0, f"submit {EX3}")
    assert state.submission_of(0) is not None and state.submission_of(0).points == 21  # type: ignore[union-attr]
    state = play(state, 1, "submit FAME", EX3_ROLL, EX4_ROLL)
    assert state.totals[0] == 21


def test_an_invalid_crossword_is_refused_at_submission_and_changes_nothing() -> None:
    state = two()
    before = copy.deepcopy(state)
    with pytest.raises(Refusal) as err:
        decide(state, 0, "submit FAMX", SEED_WORDS, fixed())
    assert err.value.code == "face_not_rolled"
    assert state == before


def test_timeout_with_one_submission_scores_the_other_minus_13() -> None:
    state = play(two(), 0, f"submit {EX3}")
    events = decide(state, 1, "timeout", SEED_WORDS, fixed(EX3_ROLL, EX4_ROLL))
    assert [type(e) for e in events] == [TimedOut, RoundClosed, Rolled]
    for e in events:
        state = evolve(state, e)
    assert state.totals == (21, -13)
    assert state.history[0].crosswords[1] is None


def test_timeout_with_no_submission_times_out_both() -> None:
    events = decide(two(), 0, "timeout", SEED_WORDS, fixed(EX3_ROLL, EX4_ROLL))
    assert [type(e) for e in events][:2] == [TimedOut, TimedOut]
    closed = events[2]
    assert isinstance(closed, RoundClosed) and closed.points == (-13, -13)


def test_timeout_is_not_written_for_a_seat_that_submitted() -> None:
    state = play(two(), 0, f"submit {EX3}")
    with pytest.raises(Refusal) as err:
        decide(state, 0, "timeout", SEED_WORDS, fixed())
    assert err.value.code == "not_your_turn"


def test_the_sole_top_total_at_the_target_wins() -> None:
    state = play(two(options=Options(target=30)), 0, f"submit {EX3}")
    events = decide(state, 1, f"submit {EX4}", SEED_WORDS, fixed())
    assert not any(isinstance(e, Rolled) for e in events)
    for e in events:
        state = evolve(state, e)
    assert (state.over, state.end, state.winners()) == (True, "target", [1])
    with pytest.raises(Refusal) as err:
        decide(state, 0, "submit .", SEED_WORDS, fixed())
    assert err.value.code == "game_over"


def test_a_tie_at_the_top_plays_another_round() -> None:
    state = play(two((EX3_ROLL, EX3_ROLL), Options(target=20)), 0, f"submit {EX3}")
    state = play(state, 1, f"submit {EX3}", EX3_ROLL, EX3_ROLL)
    assert state.totals == (21, 21) and not state.over and state.round == 2
    state = play(state, 0, f"submit {EX3}")
    state = play(state, 1, "submit FAME", EX3_ROLL, EX3_ROLL)
    assert state.over and state.winners() == [0]


def test_resigning_with_two_players_ends_the_game() -> None:
    state = play(two(), 1, "resign")
    assert (state.end, state.winners()) == ("resigned", [0])


def three(options: Options | None = None, first: int = 1) -> TumbleState:
    options = options or Options()
    return start(GameStarted(options, ("ann", "bob", "cy"), ("EAA", ".B_"), first, (EX3_ROLL,)))


def test_three_players_take_turns_to_the_left_with_one_set() -> None:
    state = three()
    assert state.waiting() == (1,) and state.turn == 1
    with pytest.raises(Refusal) as err:
        decide(state, 2, f"submit {EX3}", SEED_WORDS, fixed())
    assert err.value.code == "not_your_turn"
    state = play(state, 1, f"submit {EX3}", EX4_ROLL)
    assert state.totals == (0, 21, 0) and state.turn == 2 and state.rolls == (EX4_ROLL,)
    state = play(state, 2, f"submit {EX4}", EX3_ROLL)
    assert state.turn == 0


def test_three_players_win_as_soon_as_a_turn_reaches_the_target() -> None:
    state = play(three(Options(target=20)), 1, f"submit {EX3}", EX4_ROLL)
    assert state.over and state.winners() == [1]


def test_playing_out_the_round_lets_everyone_have_a_turn() -> None:
    state = play(three(Options(target=20, play_out=True)), 1, f"submit {EX3}", EX4_ROLL)
    assert not state.over
    state = play(state, 2, "timeout", EX4_ROLL)
    state = play(state, 0, f"submit {EX4}")
    assert state.over and state.winners() == [0] and state.totals == (36, 21, -13)


def test_resigning_on_turn_passes_the_cubes_on() -> None:
    events = decide(three(), 1, "resign", SEED_WORDS, fixed(EX4_ROLL))
    assert [type(e) for e in events] == [Resigned, Rolled]
    state = three()
    for e in events:
        state = evolve(state, e)
    assert state.turn == 2 and not state.in_game(1)
    state = play(state, 2, "submit FAME", EX3_ROLL)
    assert state.turn == 0
    state = play(state, 0, "submit FAME", EX3_ROLL)
    assert state.turn == 2  # seat 1 is skipped


def test_the_roll_off_nearest_a_starts_ties_roll_again() -> None:
    for seed in range(40):
        rounds, first = roll_off(4, random.Random(seed))
        last = rounds[-1]
        ranks = {s: (26 if f == "_" else ord(f) - 65) for s, f in enumerate(last) if f != "."}
        assert min(ranks, key=lambda s: ranks[s]) == first
        assert list(ranks.values()).count(ranks[first]) == 1
        for earlier in rounds[:-1]:
            faces = [f for f in earlier if f != "."]
            best = min(26 if f == "_" else ord(f) - 65 for f in faces)
            assert [26 if f == "_" else ord(f) - 65 for f in faces].count(best) > 1


def test_the_deal_records_rolls_as_outcomes() -> None:
    started = deal(("a", "b", "c"), Options(), random.Random(3))
    assert started.rolloff and len(started.rolls) == 1
    assert len(deal(("a", "b"), Options(), random.Random(3)).rolls) == 2
    with pytest.raises(ValueError):
        deal(("a",), Options())


def _random_game(players: int, seed: int) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = [deal(tuple("abcdef"[:players]), Options(target=40), rng)]
    state = start(events[0])  # type: ignore[arg-type]
    words = SEED_WORDS
    moves = ["submit FAME", "submit IT", "submit .", "timeout", f"submit {EX3}"]
    while not state.over and len(events) < 200:
        seat = state.turn
        assert seat is not None
        try:
            new = decide(state, seat, rng.choice(moves), words, roller(rng))
        except Refusal:
            new = decide(state, seat, "submit .", words, roller(rng))
        for e in new:
            events.append(e)
            state = evolve(state, e)
    return events


@pytest.mark.parametrize("players", [2, 3])
def test_evolve_never_changes_its_input_and_json_round_trips(players: int) -> None:
    events = _random_game(players, 7)
    assert len(events) > 10
    state = start(events[0])  # type: ignore[arg-type]
    for e in events[1:]:
        snapshot = copy.deepcopy(state)
        new = evolve(state, e)
        assert state == snapshot and new is not state
        state = new
        assert from_dict(json.loads(json.dumps(to_dict(e)))) == e
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    assert from_dict(to_dict(events[0])) == events[0]
