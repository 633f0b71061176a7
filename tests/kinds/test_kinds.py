"""The registry of game kinds, and JUMBULAYA behind the kind interface: the
kind gives what the engine and the presentation code give, for the same input."""

from __future__ import annotations

import doctest
import json
import random
from types import ModuleType

import pytest

import games.kinds
import games.kinds.engine_events
import games.kinds.replay_steps
import games.kinds.robots_alike
from games import kinds
from games.engine import BadRecord, Lexicon, Refusal, lexicon_from_words
from games.engine import jumbulaya as engine
from games.kinds.jumbulaya.kind import JUMBULAYA

LEX = lexicon_from_words(["ACT", "CAT", "FACT", "FACTS", "AT", "TA", "THE", "HE", "HER"])


def _no_lists(name: str) -> Lexicon:
    raise LookupError(name)


def test_the_registry_docstring_runs() -> None:
    assert doctest.testmod(games.kinds).failed == 0


@pytest.mark.parametrize(
    "module", [games.kinds.replay_steps, games.kinds.engine_events, games.kinds.robots_alike]
)
def test_the_shared_kind_helpers_docstrings_run(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_registry_holds_jumbulaya_by_name_and_by_record_format() -> None:
    assert [kind.name for kind in kinds.all()] == ["jumbulaya", "crossword", "blockers", "tumble"]
    assert kinds.get("jumbulaya") is JUMBULAYA
    assert kinds.by_record_format("jumbulaya-record/1") is JUMBULAYA
    assert kinds.by_record_format("crossword-bible-record/1").name == "crossword"
    assert kinds.by_record_format("blockers-record/1") is kinds.get("blockers")
    assert kinds.by_record_format("tumble-record/1") is kinds.get("tumble")
    assert kinds.choices() == [
        ("jumbulaya", "JUMBULAYA"),
        ("crossword", "Crossword — Bible edition"),
        ("blockers", "Blockers"),
        ("tumble", "Tumble-Words"),
    ]
    assert kinds.DEFAULT == "jumbulaya"


def test_an_unknown_kind_or_format_is_refused_by_name() -> None:
    with pytest.raises(kinds.UnknownKind, match=r"there is no game kind 'chess'.*'jumbulaya'"):
        kinds.get("chess")
    with pytest.raises(kinds.UnknownKind, match="not 'chess-record/1'"):
        kinds.by_record_format("chess-record/1")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not valid JSON"),
        ("[1]", "a record is a JSON object"),
        ('{"turns": []}', "'format' must be exactly 'jumbulaya-record/1'"),
        ('{"format": "chess-record/1"}', "not 'chess-record/1'"),
    ],
)
def test_a_record_of_no_known_format_is_a_bad_record(text: str, words: str) -> None:
    with pytest.raises(BadRecord, match=words):
        kinds.record_kind(text)
    result = kinds.replay_json(text, lambda kind: _no_lists)
    assert result.exit_code == 2
    out = result.to_json()
    assert out["error"]["code"] == "bad_record" and words in out["error"]["message"]
    assert out["status"] is None and out["lines"] is None  # the spec's shape, as before


def test_a_game_through_the_kind() -> None:
    kind = kinds.get("jumbulaya")
    options = kind.options_from_json({"preset": "official"})
    assert kind.options_to_json(options) == engine.PRESETS["official"].to_json()
    started = kind.deal(["ann", "bob"], options, LEX, random.Random(7))
    assert started == engine.deal(("ann", "bob"), options, LEX, random.Random(7))
    assert kind.is_deal(started) and kind.event_seat(started) is None
    assert kind.private_fields(started) == ("racks", "bag")
    state = kind.start(started)
    seat = kind.progress(state).turn
    assert seat is not None
    moves = kind.legal_moves(state, seat, LEX)
    assert moves == [m.notation() for m in engine.legal_moves(state, seat, LEX)]
    move = moves[0] if moves else "pass"
    events = kind.decide(state, seat, move, LEX)
    after = state
    for event in events:
        after = kind.evolve(after, event)
        assert kind.event_from_dict(kind.event_to_dict(event)) == event
    assert kind.event_seat(events[0]) == seat and not kind.is_deal(events[0])
    assert kind.event_type(events[0]) in {"word_built", "passed"}
    assert kind.replay([started, *events]) == after
    assert kind.state_from_json(kind.state_to_json(after)) == after
    assert kind.progress(after) == kinds.Progress(2, after.turn, False, None)
    record = kind.write_record([started, *events], "default")
    assert record["format"] == kind.record_format
    assert kind.read_record_json(json.dumps(record)).players == ("ann", "bob")
    with pytest.raises(Refusal) as refused:
        kind.decide(after, seat, "pass", LEX)
    assert refused.value.code == "not_your_turn"
    assert kind.verb_of("jumbulaya SPRINTED") == "jumbulaya"
    assert kind.format_move(kind.parse_move("3 facts")) == "3 FACTS"


def test_jumbulaya_needs_its_word_list() -> None:
    kind = kinds.get("jumbulaya")
    with pytest.raises(ValueError, match="word list"):
        kind.deal(["ann", "bob"], engine.PRESETS["official"], None, random.Random(1))


def test_the_presentation_hooks_are_the_existing_code() -> None:
    from games.kinds import presentation
    from games.kinds.jumbulaya.log_words import describe
    from games.kinds.jumbulaya.replies import read_reply
    from games.kinds.jumbulaya.seat_view import board_text, board_view

    kind = kinds.get("jumbulaya")
    shown = presentation.of(kind)
    assert shown.name == kind.name
    started = kind.deal(["ann", "bob"], engine.PRESETS["official"], LEX, random.Random(3))
    state = kind.start(started)
    view = shown.seat_view(state, 1)
    assert view == board_view(state, 1) and view.rack == state.racks[1]
    assert shown.seat_view(state, None).rack is None  # a spectator sees no rack
    assert shown.board_text(view) == board_text(view)
    assert shown.describe(state, started, state) == describe(state, started, state)
    assert shown.read_reply("2 cats\n> quoted") == read_reply("2 cats\n> quoted")
    assert kind.board_template == "jumbulaya/board.html"
    assert kind.compose_template == "jumbulaya/compose.html"


@pytest.mark.parametrize("name", ["jumbulaya", "crossword", "blockers"])
def test_a_kept_record_holds_its_first_turns_as_read_with_every_name_and_move_passed_through(
    name: str,
) -> None:
    kind = kinds.get(name)
    words = ("ACT", "CAT", "FACT", "FACTS", "AT", "TA", "THE", "HE", "HER")
    lexicon = kind.word_index_of(words) if kind.uses_word_list else None
    options = kind.presets[next(iter(kind.preset_labels))]
    log = [kind.deal(["ann", "bob", "cy"], options, lexicon, random.Random(5))]
    state = kind.start(log[0])
    for _ in range(3):
        seat = kind.progress(state).turn
        assert seat is not None
        move = (kind.legal_moves(state, seat, lexicon) or ["pass"])[0]
        for event in kind.decide(state, seat, move, lexicon):
            log.append(event)
            state = kind.evolve(state, event)
    written = kind.write_record(log, "default" if lexicon else None)
    kept = kind.stored_record(kind.read_record(written), 2, lambda text: f"<{text}>")
    assert kept["players"] == ["<ann>", "<bob>", "<cy>"]
    assert len(written["turns"]) == 3
    assert kept["turns"] == [{**turn, "move": f"<{turn['move']}>"} for turn in written["turns"][:2]]
