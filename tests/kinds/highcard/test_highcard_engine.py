"""High card's rules, worked out by hand from the rules in its engine's
docstring (the test kind is itself tested, so the service's tests stand on it)."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.errors import BadRecord, Refusal

from . import engine
from .engine import Dealt, Options, Passed, Played, Resigned, RoundWon, TimedOut

TWO = Options("standard", 2, 40)


def play(state: engine.State, seat: int, move: str) -> tuple[engine.State, list[engine.Event]]:
    events = engine.decide(state, seat, move)
    for event in events:
        state = engine.evolve(state, event)
    return state, events


def dealt(*hands: tuple[int, ...], first: int = 0) -> engine.State:
    return engine.start(Dealt(("Ann", "Bob", "Cy")[: len(hands)], TWO, hands, first))


def test_the_highest_card_of_a_round_scores_and_the_game_ends_with_the_hands() -> None:
    state = dealt((3, 9), (5, 7))
    state, events = play(state, 0, "play 9")
    assert events == [Played(0, 9)] and state.turn == 1
    state, events = play(state, 1, "play 5")
    assert events == [Played(1, 5), RoundWon(0, 9)]
    assert state.scores == (1, 0) and state.table == () and state.turn == 0
    state, _ = play(state, 0, "PLAY 3")
    state, events = play(state, 1, "play 7")
    assert events[-1] == RoundWon(1, 7)
    assert state.over and state.end == "cards" and state.turn is None
    assert state.scores == (1, 1) and state.winners() == [0, 1]  # a tie


def test_a_round_of_passes_ends_the_game_and_a_timeout_passes() -> None:
    state = dealt((3, 9), (5, 7), first=1)
    state, events = play(state, 1, "timeout")
    assert events == [TimedOut(1)]
    state, events = play(state, 0, "pass")
    assert events == [Passed(0), RoundWon(None, None)]
    assert state.over and state.end == "stalled" and state.scores == (0, 0)


def test_a_resignation_leaves_the_round_to_the_others_and_two_are_needed() -> None:
    state = dealt((3, 9), (5, 7), (1, 2))
    state, _ = play(state, 0, "play 3")
    state, _ = play(state, 1, "play 7")
    state, events = play(state, 2, "resign")  # Cy's turn: the round is complete without Cy
    assert events == [Resigned(2), RoundWon(1, 7)] and state.turn == 0
    state, events = play(state, 1, "resign")  # out of turn: resigning is any time
    assert events == [Resigned(1)]
    assert state.over and state.end == "resigned" and state.winners() == [0]


@pytest.mark.parametrize(
    ("seat", "move", "code", "words"),
    [
        (1, "play 5", "not_your_turn", "It is Ann's turn, not yours."),
        (0, "play 5", "bad_move", "You hold no card 5"),
        (0, "draw 2", "bad_move", "Could not read the move 'draw 2'"),
        (0, "play", "bad_move", "Could not read the move 'play'"),
    ],
)
def test_refusals_say_why_and_change_nothing(seat: int, move: str, code: str, words: str) -> None:
    state = dealt((3, 9), (5, 7))
    with pytest.raises(Refusal) as refused:
        engine.decide(state, seat, move)
    assert refused.value.code == code and words in refused.value.message
    assert state == dealt((3, 9), (5, 7))


def test_the_deal_hides_its_hands_and_draws_them_from_the_generator() -> None:
    event = engine.deal(("Ann", "Bob"), TWO, random.Random(5))
    cards = [c for hand in event.hands for c in hand]
    assert len(cards) == 4 == len(set(cards)) and all(1 <= c <= 40 for c in cards)
    assert Dealt.PRIVATE == ("hands",)
    assert engine.from_dict(engine.to_dict(event)) == event


def test_a_record_replays_through_the_rules_and_says_where_it_stops() -> None:
    state = dealt((3, 9), (5, 7))
    events: list[engine.Event] = [Dealt(("Ann", "Bob"), TWO, ((3, 9), (5, 7)), 0)]
    for seat, move in ((0, "play 9"), (1, "play 5"), (0, "pass")):
        state, made = play(state, seat, move)
        events.extend(made)
    record = engine.write_record(events)
    assert record["turns"] == [
        {"seat": 0, "move": "play 9"},
        {"seat": 1, "move": "play 5"},
        {"seat": 0, "move": "pass"},
    ]
    result = engine.replay_json(json.dumps(record))
    assert result.exit_code == 0 and result.to_json()["scores"] == [1, 0]
    record["turns"].append({"seat": 0, "move": "play 3"})  # Bob's turn
    refused = engine.replay_json(json.dumps(record))
    assert refused.exit_code == 1 and refused.error_turn == 3
    assert refused.error is not None and refused.error.code == "not_your_turn"
    record["hands"][1] = [5, 9]  # a card dealt twice
    with pytest.raises(BadRecord, match="must be different"):
        engine.read_record(record)
    assert engine.replay_json(b"{").exit_code == 2
