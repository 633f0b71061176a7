"""The seat view hides what it must; records round-trip and bad ones are
refused; random legal games replay to the same state."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xw_helpers import started

from games.engine.crossword.commands import decide
from games.engine.crossword.deal import deal, distance, draw_for_first
from games.engine.crossword.fold import replay
from games.engine.crossword.options import PRESETS
from games.engine.crossword.playout import Anagrams, random_game
from games.engine.crossword.record import replay_json, write_record
from games.engine.crossword.state import state_to_json
from games.engine.crossword.view import seat_view

ENABLE = Path(__file__).resolve().parents[3] / "games" / "engine" / "data" / "enable1.txt.gz"


@pytest.fixture(scope="module")
def enable() -> frozenset[str]:
    with gzip.open(ENABLE, "rt") as f:
        return frozenset(line.strip().upper() for line in f)


@pytest.fixture(scope="module")
def anagrams(enable: frozenset[str]) -> Anagrams:
    return Anagrams(enable)


def test_the_view_shows_the_own_rack_only_and_never_the_bags_order() -> None:
    first = started(("SATIREQ", "EEEIOUA"), bag="XYZWVUT")
    events = [first, *decide(replay([first]), 0, "8G SAT", frozenset({"SAT"}))]
    state = replay(events)
    view = seat_view(events, state, 1, lexicon="test")
    text = json.dumps(view)
    assert view["rack"] == "EEEIOUA"
    assert state.racks[0] not in text and "XYZWVUT" not in text
    assert view["bag"] == 4
    assert view["unseen"] == "".join(sorted("IREQXYZ" + "WVUT"))
    assert view["last"] == {
        "seat": 0, "kind": "play", "move": "8G SAT", "words": ["SAT"], "points": 6, "tiles": 3
    }  # fmt: skip
    assert view["board"][7] == "......SAT......"
    spectator = seat_view(events, state, None, lexicon="test")
    assert spectator["rack"] is None
    assert "EEEIOUA" not in json.dumps(spectator)


def test_the_draw_for_first_play_goes_to_the_letter_closest_to_s_a_blank_beating_all() -> None:
    assert distance("?") < distance("S") < distance("R") == distance("T") < distance("A")
    for seed in range(40):
        rounds, first = draw_for_first(4, random.Random(seed))
        drawing = [0, 1, 2, 3]
        for tiles in rounds:  # each round: the seats tied in the round before
            assert len(tiles) == len(drawing)
            best = min(map(distance, tiles))
            drawing = [s for s, t in zip(drawing, tiles, strict=True) if distance(t) == best]
        assert drawing == [first]


def test_a_deal_is_the_full_set_with_hidden_racks_and_bag() -> None:
    event = deal(("a", "b", "c"), PRESETS["sharing"], "default", random.Random(7))
    assert [len(r) for r in event.racks] == [9, 9, 9]
    assert len(event.bag) == 100 - 27
    assert sorted("".join(event.racks) + event.bag).count("?") == 2
    assert event.PRIVATE == ("racks", "bag")


def _replays(events: list[Any], words: frozenset[str]) -> None:
    record = write_record(events)
    result = replay_json(json.dumps(record), lambda name: words)
    assert result.exit_code == 0, result.to_json()["error"]
    assert result.state is not None
    assert state_to_json(result.state) == state_to_json(replay(events))
    assert result.events[1:] == events[1:]


GAMES = settings(
    max_examples=6,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.slow
@GAMES
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(["standard", "sharing"]))
def test_random_legal_games_replay_from_their_record_to_the_same_state(
    seed: int, preset: str, enable: frozenset[str], anagrams: Anagrams
) -> None:
    rng = random.Random(seed)
    events = random_game(deal(("a", "b"), PRESETS[preset], "default", rng), anagrams, enable, rng)
    state = replay(events)
    assert state.tile_count() == 100
    _replays(events, enable)


def test_a_bad_record_is_refused_with_what_is_wrong(enable: frozenset[str]) -> None:
    rng = random.Random(3)
    events = random_game(
        deal(("a", "b"), PRESETS["standard"], "default", rng), Anagrams([]), enable, rng, 4
    )
    good = write_record(events)
    cases: list[tuple[Any, str]] = [
        ("{", "not valid JSON"),
        ({**good, "format": "x"}, "'format' must be exactly"),
        ({**good, "players": ["a"]}, "'players' must list 2 to 4"),
        ({**good, "first": 2}, "'first' must be a seat"),
        ({**good, "options": {"preset": "nope"}}, "unknown preset"),
        ({**good, "setup": {**good["setup"], "bag": good["setup"]["bag"][1:]}}, "100-tile set"),
        ({**good, "setup": {**good["setup"], "racks": ["AB1", "C"]}}, "string of tiles"),
        ({**good, "setup": {**good["setup"], "board": ["."]}}, "the 15 rows"),
        ({**good, "lexicon": 3}, "'lexicon' must be"),
        ({**good, "turns": [{"seat": 9, "move": "pass"}]}, "'seat' must be a seat"),
    ]
    for data, words in cases:
        text = data if isinstance(data, str) else json.dumps(data)
        result = replay_json(text, lambda name: enable)
        assert result.exit_code == 2
        assert result.error is not None and words in result.error.message, result.error
    refused = replay_json(
        json.dumps({**good, "turns": [{"seat": good["first"], "move": "8A ZZZZ"}]}),
        lambda name: enable,
    )
    assert refused.exit_code == 1 and refused.error_turn == 0
    missing = replay_json(json.dumps({**good, "lexicon": "nope"}), _no_lists)
    assert (
        missing.exit_code == 2
        and "no word list named 'nope'" in missing.to_json()["error"]["message"]
    )


def _no_lists(name: str) -> frozenset[str]:
    raise LookupError(name)
