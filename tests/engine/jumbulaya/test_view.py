"""The seat view (``jumbulaya-view/1``): what one seat sees, read back, and guesses."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from engine_helpers import make_started

from games.engine.jumbulaya import Lexicon, decide, evolve, start
from games.engine.jumbulaya.view import BadView, guess_state, read_view, seat_view, view_state


def _played(small_lex: Lexicon) -> tuple[list, object]:
    started = make_started(
        lines=["F A C T", "O T H E R"], racks=["S X Z J V", "ED R B K W"], bag_front="M N O P"
    )
    events: list = [started]
    state = start(started)
    for seat, move in ((0, "1 FACTS"), (1, "exchange K W"), (0, "pass")):
        for event in decide(state, seat, move, small_lex):
            events.append(event)
            state = evolve(state, event)
    return events, state


def test_view_shows_own_rack_and_hides_the_rest(small_lex: Lexicon) -> None:
    events, state = _played(small_lex)
    doc = seat_view(events, state, 1, lexicon="default")
    assert doc["format"] == "jumbulaya-view/1"
    assert doc["rack"] == list(state.racks[1])
    hidden = Counter(state.bag) + Counter(state.racks[0])
    assert Counter(doc["unseen"]) == hidden
    assert doc["unseen"] == sorted(doc["unseen"])
    # the bag's order is nowhere in the document
    assert list(state.bag) not in doc.values()
    assert doc["rules"] == {
        "preset": "official", "rack_limit": 2, "new_word": "current", "stall_rounds": 0,
        "jumbulaya_bonus": True, "jumbulaya_cooldown": True,
    }  # fmt: skip
    assert doc["lines"][0] == {
        "tiles": ["F", "A", "C", "T", "S"], "word": "FACTS", "owner": 0, "history": ["FACTS"],
    }  # fmt: skip
    assert doc["last"] == {"seat": 0, "kind": "pass"}
    assert doc["next"] == 1 and doc["status"] == "playing"


def test_an_exchange_shows_its_count_only(small_lex: Lexicon) -> None:
    events, state = _played(small_lex)
    doc = seat_view(events[:-1], state, 0, lexicon="default")
    assert doc["last"] == {"seat": 1, "kind": "exchange", "count": 2}


def test_a_spectator_sees_no_rack(small_lex: Lexicon) -> None:
    events, state = _played(small_lex)
    doc = seat_view(events, state, None, lexicon="default")
    assert doc["rack"] is None and doc["seat"] is None
    assert len(doc["unseen"]) == doc["bag"] + sum(doc["rack_sizes"])
    with pytest.raises(BadView, match="spectator"):
        read_view(doc)


def test_read_view_round_trips_and_gives_a_state(small_lex: Lexicon) -> None:
    events, state = _played(small_lex)
    doc = json.loads(json.dumps(seat_view(events, state, 1, lexicon="default")))
    view = read_view(doc)
    assert view.my_turn and view.rack == state.racks[1]
    mine = view_state(view)
    assert mine.racks[1] == state.racks[1] and mine.racks[0] == ()
    assert mine.lines == state.lines and mine.scores() == state.scores()


def test_a_guess_is_consistent_with_the_view(small_lex: Lexicon) -> None:
    events, state = _played(small_lex)
    view = read_view(seat_view(events, state, 1, lexicon="default"))
    guess = guess_state(view, random.Random(3))
    assert guess.racks[1] == state.racks[1]
    assert len(guess.racks[0]) == len(state.racks[0]) and len(guess.bag) == len(state.bag)
    assert Counter(guess.racks[0]) + Counter(guess.bag) == Counter(view.unseen)
    assert guess.tile_count() == 100


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess/1"}, "not a jumbulaya-view/1"),
        ({"rack": ["A", "Q"]}, "'Q', which is not a tile"),
        ({"lines": []}, "must list 9 lines"),
        ({"players": ["solo"]}, "2 to 4 names"),
        ({"status": "paused"}, "'status' must be"),
        ({"rules": {"preset": "nope"}}, "unknown rules preset"),
        ({"unseen": []}, "'unseen' must hold"),
        ({"scores": [1]}, "'scores' must list 2"),
        ({"lexicon": 7}, "'lexicon' must name"),
    ],
)
def test_a_bad_view_is_refused_with_a_reason(
    small_lex: Lexicon, change: dict, message: str
) -> None:
    events, state = _played(small_lex)
    doc = seat_view(events, state, 1, lexicon="default") | change
    with pytest.raises(BadView, match=message):
        read_view(doc)


def test_not_an_object_is_refused() -> None:
    with pytest.raises(BadView, match="JSON object"):
        read_view(["format"])
