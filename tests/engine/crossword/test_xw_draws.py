"""Draws (issue 27, finding 3): every draw is picked at random from the whole
bag at the moment of drawing, tiles given back are mixed in rather than put
at a known place, and neither the state nor a seat's view keeps an order
anyone could learn the next draws from.

The draws here are the engine's own (the operating system's generator), so the
checks are statistical, with bounds no bag drawn from its front can meet and a
random draw misses with a chance below 1e-30.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

from xw_helpers import apply, game, started

from games.engine.crossword.commands import decide
from games.engine.crossword.deal import deal, full_set
from games.engine.crossword.events import Event, Played
from games.engine.crossword.fold import replay
from games.engine.crossword.options import PRESETS
from games.engine.crossword.record import replay_json, write_record
from games.engine.crossword.state import GameState, state_from_json, state_to_json
from games.engine.crossword.view import seat_view

ASYNC = replace(PRESETS["standard"], challenge="async")
WORDS = frozenset({"CAT", "SAT", "AT"})
#: Twelve different tiles: a draw of three from it has 220 outcomes.
BAG = "BCDFGHJKLMNP"
TRIALS = 300


def _sorted(tiles: str) -> bool:
    return tiles == "".join(sorted(tiles))


def _drawn(events: list[Event]) -> str:
    made = events[0]
    assert isinstance(made, Played)
    return made.drawn


def test_the_challenger_draws_at_random_not_the_withdrawn_plays_tiles() -> None:
    """The mover knew what their withdrawn play drew: the seat that challenged
    it then draws from the whole bag, not those tiles back from its front."""
    before = game(("QATSIRE", "EAUOIOU"), bag=BAG, options=ASYNC)
    same = 0
    seen_first: Counter[str] = Counter()
    seen_next: Counter[str] = Counter()
    for _ in range(TRIALS):
        made = decide(before, 0, "8G QAT", WORDS)
        withdrawn = _drawn(made)
        played = apply(before, made)
        after = apply(played, decide(played, 1, "challenge", WORDS))
        assert after.turn == 1 and after.racks[0] == "QATSIRE"
        assert _sorted(after.bag) and sorted(after.bag) == sorted(BAG)
        drawn = _drawn(decide(after, 1, "8G EAU", WORDS))
        same += sorted(drawn) == sorted(withdrawn)
        seen_first.update(withdrawn)
        seen_next.update(drawn)
    assert same < 15  # a front-of-the-bag draw: every time; at random: ~1.4 in 300
    assert set(seen_first) == set(BAG)  # each draw is over the whole bag
    assert set(seen_next) == set(BAG)


def test_an_exchange_draws_from_the_whole_bag_and_mixes_its_tiles_in() -> None:
    """The exchanged tiles go into the bag, not to a known place at its back:
    the next seat may draw them at once."""
    before = game(("QZXABCD", "EEEEEEE"), "8G CAT", bag="EFGHIJKL")
    drawn_by_exchanger: Counter[str] = Counter()
    drawn_next: Counter[str] = Counter()
    for _ in range(TRIALS):
        made = decide(before, 0, "exchange ZQ", WORDS)
        after = apply(before, made)
        drawn_by_exchanger.update(made[0].drawn)  # type: ignore[attr-defined]
        assert _sorted(after.bag) and "Z" in after.bag and "Q" in after.bag
        assert sorted(after.racks[0] + after.bag) == sorted("XABCD" + "EFGHIJKL" + "ZQ")
        drawn_next.update(decide(after, 1, "exchange E", WORDS)[0].drawn)  # type: ignore[attr-defined]
    assert set(drawn_by_exchanger) == set("EFGHIJKL")  # drawn before the tiles go back
    assert drawn_next["Z"] and drawn_next["Q"]  # from the back of the bag: never


def test_the_deal_the_state_and_the_views_keep_no_order() -> None:
    """The deal leaves the bag as a sorted multiset; every state after it, and
    a state read back from its JSON, keeps it so; a view shows only a count and
    the sorted unseen tiles."""
    dealt = deal(("a", "b"), PRESETS["standard"], "default", random.Random(5))
    assert _sorted(dealt.bag)
    first = started(("QATSIRE", "EAUOIOU"), bag="PNMLKJHGFDCB", options=ASYNC)
    state = replay([first])
    assert state.bag == "BCDFGHJKLMNP"
    log: list[Event] = [first]
    for seat, move in [(0, "8G QAT"), (1, "challenge"), (1, "exchange UOI")]:
        events = decide(state, seat, move, WORDS)
        log.extend(events)
        state = apply(state, events)
        assert _sorted(state.bag)
        for viewer in (None, 0, 1):
            view = seat_view(log, state, viewer, lexicon="test")
            assert view["bag"] == len(state.bag) and _sorted(view["unseen"])
    stored = state_to_json(state) | {"bag": state.bag[::-1]}  # a projection stored unsorted
    assert state_from_json(stored).bag == state.bag


def test_a_record_lists_each_draw_and_replays_to_the_same_state() -> None:
    """Draws are chance now, so a game's record carries them: each play and
    exchange lists the tiles it drew, and the record replays exactly."""
    racks = ("QATSIRE", "EAUOIOU")
    bag = Counter(full_set()) - Counter("".join(racks))
    log: list[Event] = [started(racks, bag="".join(bag.elements()), options=ASYNC)]
    state: GameState = replay(log)
    for seat, move in [(0, "8G QAT"), (1, "challenge"), (1, "8G EAU"), (0, "exchange QS")]:
        events = decide(state, seat, move, WORDS)
        log.extend(events)
        state = apply(state, events)
    record = write_record(log)
    turns = record["turns"]
    assert [t.get("draw") for t in turns] == [
        log[1].drawn,  # type: ignore[attr-defined]
        None,
        log[3].drawn,  # type: ignore[attr-defined]
        log[4].drawn,  # type: ignore[attr-defined]
    ]
    result = replay_json(json.dumps(record), lambda name: WORDS)
    assert result.exit_code == 0, result.to_json()["error"]
    assert result.state is not None and state_to_json(result.state) == state_to_json(state)
    assert result.events[1:] == log[1:]


def _old_record(turns: list[dict[str, object]]) -> dict[str, object]:
    racks = ["QATSIRE", "EAUOIOU"]
    rest = Counter(full_set()) - Counter("".join(racks)) - Counter("XYZJKW")
    return {
        "format": "crossword-bible-record/1",
        "options": {"preset": "standard", "challenge": "async"},
        "lexicon": {"words": sorted(WORDS)},
        "players": ["ann", "bob"],
        "setup": {"racks": racks, "bag": "XYZJKW" + "".join(rest.elements())},
        "turns": turns,
    }


def test_a_record_that_lists_no_draws_replays_from_the_front_of_its_bag_as_before() -> None:
    """Records written before draws were random list none: each draw takes the
    front of the bag in the record's order, a withdrawn play's draw goes back
    on its front, as they always did, whatever order the state keeps."""
    turns: list[dict[str, object]] = [
        {"seat": 0, "move": "8G QAT"},
        {"seat": 1, "move": "challenge"},
        {"seat": 1, "move": "exchange UOI"},
        {"seat": 0, "move": "8G QAT"},
    ]
    result = replay_json(json.dumps(_old_record(turns)), lambda name: WORDS)
    assert result.exit_code == 0, result.to_json()["error"]
    assert [getattr(e, "drawn", None) for e in result.events[1:]] == ["XYZ", None, "XYZ", "JKW"]
    assert result.to_json()["racks"] == ["SIREJKW", "EAOUXYZ"]


def test_a_listed_draw_must_be_the_turns_count_of_tiles_in_the_bag() -> None:
    for turn, words in [
        ({"seat": 0, "move": "8G QAT", "draw": "XY"}, "draws 3 tiles, but 'draw' lists 2"),
        ({"seat": 0, "move": "8G QAT", "draw": "XXX"}, "'draw' lists X, which is not"),
        ({"seat": 0, "move": "pass", "draw": "X"}, "draws no tiles, but 'draw' lists 1"),
        ({"seat": 0, "move": "8G QAT", "draw": ["X"]}, "'draw' must be a string of tiles"),
    ]:
        result = replay_json(json.dumps(_old_record([turn])), lambda name: WORDS)
        assert result.exit_code == 2 and result.error_turn == 0
        assert result.error is not None and words in result.error.message, result.error
