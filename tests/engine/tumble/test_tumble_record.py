"""The ``tumble-record/1`` record: written from a log, read back, replayed;
malformed records refused with specific messages."""

from __future__ import annotations

import json

import pytest
from tumble_helpers import EX3, EX3_ROLL, EX4_ROLL, SEED_WORDS

from games.engine.errors import BadRecord
from games.engine.tumble import Options, read_record, replay_json, write_record
from games.engine.tumble.robots.levels import BEGINNER, CASUAL
from games.engine.tumble.robots.match import play_game

HEADER = {
    "format": "tumble-record/1",
    "options": {"target": 100},
    "lexicon": {"words": sorted(SEED_WORDS)},
    "players": ["ann", "bob"],
    "rolls": [EX3_ROLL, EX4_ROLL],
    "turns": [],
}


def _no_lists(name: str) -> frozenset[str]:
    raise LookupError(name)


@pytest.mark.parametrize("players", [2, 3])
def test_a_games_record_replays_to_the_same_state(enable: frozenset[str], players: int) -> None:
    game = play_game([CASUAL, BEGINNER, CASUAL][:players], enable, 11)
    record = write_record(list(game.events))
    result = replay_json(json.dumps(record), lambda name: enable)
    assert result.exit_code == 0, result.error
    assert result.state == game.state
    assert result.events == list(game.events)


def test_a_refused_turn_exits_1_at_its_index() -> None:
    record = HEADER | {
        "turns": [{"seat": 0, "move": f"submit {EX3}"}, {"seat": 1, "move": "submit FAMX"}]
    }
    result = replay_json(json.dumps(record), _no_lists)
    assert result.exit_code == 1 and result.error_turn == 1
    assert result.error is not None and result.error.code == "face_not_rolled"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"format": "tumble-record/2"}, "'format' must be exactly"),
        ({"players": ["ann"]}, "2 to 6 names"),
        ({"rolls": [EX3_ROLL]}, "first round's 2 rolls"),
        ({"rolls": [EX3_ROLL, "AAAAAAAAAAAAA"]}, "cube 3"),
        ({"options": {"target": 0}}, "'target'"),
        ({"options": {"speed": 1}}, "unknown option"),
        ({"lexicon": 3}, "'lexicon'"),
        ({"rolloff": ["AB"]}, "with two it is []"),
        ({"players": ["a", "b", "c"], "rolls": [EX3_ROLL], "rolloff": ["AAB"]}, "ends with a tie"),
        (
            {"players": ["a", "b", "c"], "rolls": [EX3_ROLL], "rolloff": ["ABC"], "first": 2},
            "makes seat 0 start",
        ),
        ({"players": ["a", "b", "c"], "rolls": [EX3_ROLL], "rolloff": ["ABC", "A.."]}, "nothing"),
        ({"players": ["a", "b", "c"], "rolls": [EX3_ROLL], "rolloff": ["A1C"]}, "no cube shows"),
    ],
)
def test_malformed_headers_are_bad_records(change: dict[str, object], says: str) -> None:
    with pytest.raises(BadRecord) as err:
        read_record(HEADER | change)
    assert says in err.value.message
    assert replay_json(json.dumps(HEADER | change), _no_lists).exit_code == 2


@pytest.mark.parametrize(
    ("turns", "says"),
    [
        ([{"seat": 0, "move": "submit FAME", "rolls": [EX3_ROLL]}], "opens no round"),
        ([{"seat": 0, "move": "timeout"}], "needs 'rolls'"),
        ([{"seat": 0, "move": "timeout", "rolls": [EX3_ROLL]}], "lists 1"),
        ([{"seat": 5, "move": "timeout"}], "'seat'"),
        ([{"seat": 0}], "'move'"),
    ],
)
def test_malformed_turns_are_bad_records_at_their_index(
    turns: list[dict[str, object]], says: str
) -> None:
    result = replay_json(json.dumps(HEADER | {"turns": turns}), _no_lists)
    assert result.exit_code == 2 and result.error_turn == 0
    assert result.error is not None and says in result.error.message


def test_an_unknown_word_list_and_bad_json_are_bad_records() -> None:
    assert replay_json(json.dumps(HEADER | {"lexicon": "nope"}), _no_lists).exit_code == 2
    result = replay_json("{", _no_lists)
    assert result.exit_code == 2 and result.to_json()["status"] is None


def test_a_record_lists_every_rounds_rolls_and_no_seed(enable: frozenset[str]) -> None:
    game = play_game([BEGINNER, BEGINNER], enable, 5, Options(target=30))
    record = write_record(list(game.events))
    assert "seed" not in json.dumps(record)
    rolled = [t["rolls"] for t in record["turns"] if "rolls" in t]
    assert len(rolled) == len(game.state.history) - 1 >= 1
    assert [r.rolls for r in game.state.history[1:]] == [tuple(r) for r in rolled]
