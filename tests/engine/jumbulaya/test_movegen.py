"""Move generation: ``legal_moves`` against the exhaustive reference
``scan_moves``, and every generated move against ``decide``."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_helpers import make_state, random_turn

from games.engine.jumbulaya import (
    PRESETS,
    GameState,
    Lexicon,
    WordBuilt,
    deal,
    decide,
    draw_front,
    evolve,
    legal_moves,
    lexicon_from_words,
    scan_moves,
    start,
)
from games.engine.jumbulaya.movegen import WordMove
from games.engine.lexicon import encode

RULES = {
    "official": PRESETS["official"],
    "boardspace": PRESETS["boardspace"],
    "limit3": replace(PRESETS["boardspace"], rack_limit=3),
}


def position(enable: Lexicon, seed: int, rules: str, turns: int) -> GameState:
    """A position after ``turns`` random turns of a seeded game."""
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(rng.randint(2, 4)))
    st = start(deal(players, RULES[rules], enable, rng, first=0))
    for _ in range(turns):
        if st.over:
            break
        for event in random_turn(st, enable, rng):
            st = evolve(st, event)
    return st


CASES = [
    (seed, rules, turns)
    for seed, (rules, turns) in enumerate(
        [
            ("official", 0),
            ("official", 6),
            ("official", 15),
            ("official", 30),
            ("official", 45),
            ("boardspace", 0),
            ("boardspace", 8),
            ("boardspace", 20),
            ("boardspace", 35),
            ("boardspace", 50),
            ("limit3", 0),
            ("limit3", 10),
            ("limit3", 25),
            ("official", 60),
            ("boardspace", 70),
        ]
    )
]


def keys(moves: list[WordMove]) -> set[tuple[int, str]]:
    return {(m.line, m.code) for m in moves}


@pytest.mark.parametrize(("seed", "rules", "turns"), CASES)
def test_legal_moves_equal_the_reference_and_decide_accepts_them(
    enable: Lexicon, seed: int, rules: str, turns: int
) -> None:
    st = position(enable, seed, rules, turns)
    seat = st.turn if st.turn is not None else 0
    fast = legal_moves(st, seat, enable)
    assert len(fast) == len(keys(fast)), "a move was generated twice"
    assert keys(fast) == keys(scan_moves(st, seat, enable))
    if st.over:
        return
    for move in fast:
        (event,) = decide(st, seat, move.notation(), enable, draw_front)
        assert isinstance(event, WordBuilt)
        assert (event.line, event.tiles) == (move.line, move.tiles)


def test_positions_are_varied(enable: Lexicon) -> None:
    """The positions above include claimed lines, histories and long lines."""
    states = [position(enable, *case) for case in CASES]
    assert any(len(ln.history) > 1 for st in states for ln in st.lines)
    assert any(len(ln.tiles) >= 6 for st in states for ln in st.lines)
    assert sum(bool(legal_moves(st, st.turn or 0, enable)) for st in states) >= 12


def test_two_letter_tile_from_the_rack(enable: Lexicon) -> None:
    # line O T H E R, rack TH S: O-TH-E-R-S trades T and H for TH and adds S
    st = make_state(lines=["O T H E R"], racks=["TH S A B C", "I"])
    moves = legal_moves(st, 0, enable)
    codes = keys(moves)
    assert (0, encode(("O", "TH", "E", "R", "S"))) in codes
    assert (0, encode(("O", "T", "H", "E", "R", "S"))) in codes
    assert (0, encode(("O", "T", "H", "E", "R"))) in codes  # first word is always new
    assert codes == keys(scan_moves(st, 0, enable))
    move = next(m for m in moves if m.tiles == ("O", "TH", "E", "R", "S"))
    assert (move.from_rack, sorted(move.to_rack)) == (("TH", "S"), ["H", "T"])
    assert move.notation() == "1 O[TH]ERS"
    assert move.points == 6


def test_two_letter_tile_on_the_line(enable: Lexicon) -> None:
    # line B A T CH: BATCHES takes E and S from the rack
    st = make_state(lines=["B A T CH"], racks=["E S ED A B", "I"])
    codes = keys(legal_moves(st, 0, enable))
    assert (0, encode(("B", "A", "T", "CH", "E", "S"))) in codes
    assert (0, encode(("B", "A", "T", "CH", "ED"))) in codes  # BATCHED
    assert codes == keys(scan_moves(st, 0, enable))


@pytest.mark.parametrize(("rule", "allowed"), [("current", {"ACT"}), ("history", set())])
def test_new_word_filtering(rule: str, allowed: set[str]) -> None:
    lex = lexicon_from_words(["CAT", "ACT"])
    st = make_state(lines=["C A T"], racks=["B D E F G", "I"])
    line = replace(st.lines[0], word="CAT", owner=1, history=frozenset({"CAT", "ACT"}))
    st = replace(st, lines=(line, *st.lines[1:]), rules=replace(st.rules, new_word=rule))
    words = {m.word for m in legal_moves(st, 0, lex)}
    assert words == allowed
    assert words == {m.word for m in scan_moves(st, 0, lex)}


def test_rack_limit_is_respected() -> None:
    lex = lexicon_from_words(["FACTS", "FACT"])
    st = make_state(lines=["A T"], racks=["F C S B D", "I"])
    assert {m.word for m in legal_moves(st, 0, lex)} == {"FACT"}
    st = replace(st, rules=replace(st.rules, rack_limit=3))
    assert {m.word for m in legal_moves(st, 0, lex)} == {"FACT", "FACTS"}
    assert keys(legal_moves(st, 0, lex)) == keys(scan_moves(st, 0, lex))


def test_an_empty_line_is_probed_without_error() -> None:
    # an empty line's empty probe finds the empty bucket of the anagram table:
    # it must be skipped, not read as a word (hand-built and guessed positions
    # can hold empty lines; a deal never does)
    lex = lexicon_from_words(["AT", "TA", "CAT"])
    st = make_state(lines=["C A T"], racks=["A T B D E", "I"])
    assert keys(legal_moves(st, 0, lex)) == keys(scan_moves(st, 0, lex))
    assert {m.word for m in legal_moves(st, 0, lex) if m.line == 1} == {"AT", "TA"}
