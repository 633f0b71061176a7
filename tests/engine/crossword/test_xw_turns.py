"""Turns, the end and the final adjustments, ties, exchanges, async
challenges, the variants; the fold's immutability and the JSON round trips."""

from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import replace

import pytest
from xw_helpers import apply, game, move, started, with_points

from games.engine.crossword.commands import decide
from games.engine.crossword.events import (
    ChallengeFailed,
    Event,
    PlayWithdrawn,
    from_dict,
    to_dict,
)
from games.engine.crossword.fold import evolve
from games.engine.crossword.options import PRESETS, options_from_json
from games.engine.crossword.state import GameState, state_from_json, state_to_json
from games.engine.errors import BadRecord

WORDS = frozenset({"CAT", "CATS", "SAT", "AT", "TA", "ES", "SI"})
ASYNC = replace(PRESETS["standard"], challenge="async")
BAG = "XYZWVUTNMLKJ"


def passes(state: GameState, count: int) -> GameState:
    for _ in range(count):
        assert state.turn is not None
        state = move(state, state.turn, "pass", WORDS)
    return state


def test_a_play_refills_the_rack_from_the_bag() -> None:
    state = move(game(("SATIREQ", "E"), bag=BAG), 0, "8G SAT", WORDS)
    assert state.racks[0][:4] == "IREQ" and len(state.racks[0]) == 7
    assert sorted(state.racks[0][4:] + state.bag) == sorted(BAG)
    assert state.turn == 1


def test_going_out_with_the_bag_empty_ends_and_adjusts() -> None:
    state = move(game(("S", "QZ"), "8G CAT"), 0, "8G CATS", WORDS)
    assert (state.end, state.finisher) == ("went_out", 0)
    assert state.points == (6, 0)
    assert state.adjustments == (20, -20)
    assert state.scores() == [26, -20]
    assert state.winners() == [0]


def test_six_scoreless_turns_in_a_row_over_all_players_end_the_game() -> None:
    state = passes(game(("E", "AB"), "8G CAT"), 5)
    assert not state.over
    state = move(state, state.turn or 0, "timeout", WORDS)
    assert state.end == "scoreless"
    assert state.adjustments == (-1, -4)


def test_a_scoring_play_starts_the_count_again() -> None:
    state = passes(game(("S", "E"), "8G CAT", bag=BAG), 4)
    state = move(state, 0, "8G CATS", WORDS)
    assert state.scoreless == 0
    assert not passes(state, 5).over


def test_a_tie_goes_to_the_higher_score_before_adjustments_then_all_tied_win() -> None:
    state = passes(with_points(game(("E", "AB"), "8G CAT"), 20, 23), 6)
    assert state.scores() == [19, 19]
    assert state.winners() == [1]
    state = passes(with_points(game(("E", "A"), "8G CAT"), 20, 20), 6)
    assert state.winners() == [0, 1]


def test_an_exchange_draws_and_then_mixes_its_tiles_into_the_bag() -> None:
    state = move(game(("QZXABCD", "E"), "8G CAT", bag="EFGHIJKL"), 0, "exchange ZQ", WORDS)
    drawn = state.racks[0][5:]
    assert state.racks[0][:5] == "XABCD" and len(drawn) == 2 and set(drawn) <= set("EFGHIJKL")
    assert state.bag == "".join(sorted((Counter("EFGHIJKLZQ") - Counter(drawn)).elements()))
    assert state.scoreless == 1


def test_a_resigned_seat_is_skipped() -> None:
    state = move(game(("A", "B", "C")), 1, "resign", WORDS)
    assert passes(state, 1).turn == 2
    assert move(state, 2, "resign", WORDS).end == "resigned"


# --- async challenges ---------------------------------------------------------


def async_game(*racks: str, bag: str = BAG) -> GameState:
    return game(racks, bag=bag, options=ASYNC)


def test_async_a_play_with_a_non_word_is_accepted_and_open_to_challenge() -> None:
    state = move(async_game("SATIREQ", "EEEIOUA"), 0, "8G QAT", WORDS)
    assert state.points == ((10 + 1 + 1) * 2, 0)
    assert state.open_play is not None and state.open_play.words == ("QAT",)


def test_async_a_withdrawn_play_puts_everything_back_and_loses_the_turn() -> None:
    before = async_game("SATIREQ", "EEEIOUA")
    played = move(before, 0, "8G QAT", WORDS)
    events = decide(played, 1, "challenge", WORDS)
    assert events == [PlayWithdrawn(1, 0, ("QAT",))]
    after = apply(played, events)
    assert after.board == before.board
    assert after.racks == before.racks
    assert after.bag == before.bag  # the drawn tiles are back in the bag
    assert after.points == (0, 0)
    assert (after.turn, after.scoreless, after.open_play) == (1, 1, None)


def test_async_a_wrong_challenge_costs_the_challengers_turn_now_when_it_is_theirs() -> None:
    played = move(async_game("SATIREQ", "EEEIOUA"), 0, "8G SAT", WORDS)
    events = decide(played, 1, "challenge", WORDS)
    assert events == [ChallengeFailed(1, 0)]
    after = apply(played, events)
    assert (after.turn, after.skips, after.points) == (0, (0, 0), (6, 0))


def test_async_wrong_challenges_stack_and_cost_later_turns() -> None:
    state = async_game("SATIREQ", "ESEIOUA", "EEEE", "OOOO")
    state = move(state, 0, "8G SAT", WORDS)
    state = move(state, 3, "challenge", WORDS)
    assert state.skips == (0, 0, 0, 1)
    state = move(state, 1, "G7 E(S)", WORDS)
    state = move(state, 3, "challenge", WORDS)
    assert state.skips == (0, 0, 0, 2)
    state = move(state, 2, "pass", WORDS)
    assert (state.turn, state.skips) == (0, (0, 0, 0, 1))


def test_void_mode_has_no_challenges_and_keeps_nothing_open() -> None:
    state = move(game(("SAT", "E"), bag=BAG), 0, "8G SAT", WORDS)
    assert state.open_play is None


# --- the variants ---------------------------------------------------------------


def test_translating_ends_when_the_mover_reaches_their_target_and_they_win() -> None:
    options = PRESETS["translating"]
    state = with_points(game(("S", "E"), "8G CAT", bag=BAG, options=options), 115, 119)
    assert state.targets == (120, 120)
    after = move(state, 0, "8G CATS", WORDS)
    assert (after.end, after.finisher, after.points) == ("target", 0, (121, 119))
    assert after.adjustments == (0, 0)
    assert after.winners() == [0]


def test_translating_targets_by_each_players_level_and_the_player_count() -> None:
    options = replace(PRESETS["translating"], levels=("psalms_proverbs", "old_testament"))
    assert game(("A", "B"), options=options).targets == (70, 200)
    three = replace(PRESETS["translating"], levels=("psalms_proverbs",))
    assert game(("A", "B", "C"), options=three).targets == (60, 60, 60)
    four = PRESETS["translating"]
    assert game(("A", "B", "C", "D"), options=four).targets == (90, 90, 90, 90)


def test_sharing_racks_are_refilled_to_nine() -> None:
    state = game(("SATIREQXY", "E"), bag=BAG, options=PRESETS["sharing"])
    assert len(move(state, 0, "8G SAT", WORDS).racks[0]) == 9


# --- the fold and JSON ------------------------------------------------------------


def test_evolve_never_changes_the_state_it_is_given() -> None:
    state = async_game("SATIREQ", "SEEIOUA")
    for seat, text in [(0, "8G QAT"), (1, "challenge"), (1, "8G SEA"), (0, "exchange Q")]:
        for event in decide(state, seat, text, WORDS | {"SEA"}):
            snapshot = copy.deepcopy(state_to_json(state))
            new = evolve(state, event)
            assert state_to_json(state) == snapshot
            assert new is not state
            state = new


def test_events_state_and_options_round_trip_through_json() -> None:
    state = async_game("SATIREQ", "SEEIOUA")
    log: list[Event] = [started(("SATIREQ", "SEEIOUA"), bag=BAG, options=ASYNC)]
    for seat, text in [(0, "8G QAT"), (1, "challenge"), (1, "8G SEA"), (0, "challenge")]:
        events = decide(state, seat, text, WORDS | {"SEA"})
        log.extend(events)
        state = apply(state, events)
    for event in log:
        assert from_dict(json.loads(json.dumps(to_dict(event)))) == event
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    options = replace(PRESETS["sharing"], challenge="async", noahs_ark=True)
    assert options_from_json(json.loads(json.dumps(options.to_json()))) == options
    assert options.to_json() == {"preset": "sharing", "challenge": "async", "noahs_ark": True}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "must be an object"),
        ({"preset": "blitz"}, "unknown preset 'blitz'"),
        ({"rack_size": 8}, "'rack_size' must be 7 or 9"),
        ({"challenge": "double"}, "'challenge' must be"),
        ({"levels": ["apocrypha"]}, "unknown level 'apocrypha'"),
        ({"noahs_ark": "yes"}, "'noahs_ark' must be true or false"),
        ({"tower_of_babel": True}, "unknown option 'tower_of_babel'"),
    ],
)
def test_bad_options_are_refused_with_what_is_wrong(data: object, words: str) -> None:
    with pytest.raises(BadRecord) as caught:
        options_from_json(data)
    assert words in caught.value.message
