"""JUMBULAYA search: ``search`` against ``runs_down`` and a brute-force check."""

from __future__ import annotations

import random

import pytest

from games.engine.jumbulaya import PRESETS, Lexicon, lexicon_from_words, runs_down, search
from games.engine.jumbulaya.state import jumbulaya_points
from games.engine.tiles import full_set, spellings

Board = list[tuple[str, ...]]

SPRINTS_BOARD: Board = [
    ("S", "A", "B"),
    ("P", "O", "C"),
    ("R", "E", "D"),
    ("X", "Y", "Z"),
    ("I", "M", "ST"),
    ("N", "O", "TH"),
    ("T", "U", "V"),
    ("W", "K", "G"),
    ("S", "L", "ER"),
]


def check_found(board: Board, lex: Lexicon) -> set[tuple[str, ...]]:
    """Run ``search`` and verify every result; return the spellings found."""
    rules = PRESETS["official"]
    found = search(board, lex, rules)
    for f in found:
        assert 7 <= len(f.tiles) <= 9
        assert lex.contains(f.tiles)
        assert runs_down(board, f.tiles) is not None
        assert list(f.lines) == sorted(set(f.lines)) and len(f.lines) == len(f.tiles)
        assert all(t in board[i] for t, i in zip(f.tiles, f.lines, strict=True))
        assert f.points == jumbulaya_points(f.tiles, rules)
    assert [f.points for f in found] == sorted((f.points for f in found), reverse=True)
    tiles = {f.tiles for f in found}
    assert len(tiles) == len(found)
    return tiles


def test_runs_down() -> None:
    assert runs_down(SPRINTS_BOARD, tuple("SPRINTS")) == (0, 1, 2, 4, 5, 6, 8)
    assert runs_down(SPRINTS_BOARD, tuple("SPRINT")) is None  # 6 tiles
    assert runs_down(SPRINTS_BOARD, tuple("STRINGS")) is None
    # two skips at most: nine lines, seven tiles
    assert runs_down(SPRINTS_BOARD, ("S", "P", "R", "X", "I", "N", "T", "W", "S")) is not None
    assert runs_down(SPRINTS_BOARD, ("S", "S", "S", "S", "S", "S", "S")) is None


def test_search_finds_a_planted_word(enable: Lexicon) -> None:
    found = check_found(SPRINTS_BOARD, enable)
    assert tuple("SPRINTS") in found


def test_search_finds_two_letter_spellings() -> None:
    # S O D X I TH ER: lines 1-6 and 9; SPRITHER would be only 6 tiles
    lex = lexicon_from_words(["SPRINTS", "SODXITHER", "SPRITHER"])
    found = check_found(SPRINTS_BOARD, lex)
    assert found == {tuple("SPRINTS"), ("S", "O", "D", "X", "I", "TH", "ER")}
    best = search(SPRINTS_BOARD, lex, PRESETS["official"])[0]
    assert (best.word, best.points) == ("SODXITHER", 12)  # 10 + 2 two-letter tiles
    plain = search(SPRINTS_BOARD, lex, PRESETS["boardspace"])
    assert {f.points for f in plain} == {10}


def test_search_on_empty_and_short_boards() -> None:
    lex = lexicon_from_words(["SPRINTS"])
    assert search([()] * 9, lex, PRESETS["official"]) == []
    assert check_found([("S",), ("P",), ("R",), ("I",), ("N",), ("T",), (), (), ()], lex) == set()


def random_board(rng: random.Random, pool: list[str], planted: list[str]) -> Board:
    tiles = full_set()
    rng.shuffle(tiles)
    board: list[list[str]] = []
    for _ in range(9):
        n = rng.randint(2, 8)
        board.append(tiles[:n])
        tiles = tiles[n:]
    for word in planted:
        options = [sp for sp in spellings(word) if 7 <= len(sp) <= 9]
        sp = rng.choice(options)
        lines = sorted(rng.sample(range(9), len(sp)))
        for t, i in zip(sp, lines, strict=True):
            board[i].insert(rng.randrange(len(board[i]) + 1), t)
    return [tuple(ln) for ln in board]


@pytest.fixture(scope="module")
def long_words(enable: Lexicon) -> list[str]:
    from games.engine.lexicon import DEFAULT_PATH, WordListText

    words = WordListText.from_path(DEFAULT_PATH).words
    return [w for w in words if 7 <= len(w) <= 11 and any(7 <= len(s) <= 9 for s in spellings(w))]


@pytest.mark.parametrize("seed", range(12))
def test_search_agrees_with_brute_force(long_words: list[str], seed: int) -> None:
    rng = random.Random(seed)
    chosen = rng.sample(long_words, 190)
    planted = chosen[:4]
    with_tiles = [w for w in long_words if any(f in w for f in ("TH", "ER", "ST", "QU", "ED"))]
    chosen += rng.sample(with_tiles, 10)
    lex = lexicon_from_words(chosen)
    board = random_board(rng, long_words, planted)
    expected = {
        sp
        for w in chosen
        for sp in spellings(w)
        if 7 <= len(sp) <= 9 and runs_down(board, sp) is not None
    }
    found = check_found(board, lex)
    assert found == expected
    for w in planted:
        assert any("".join(sp) == w for sp in found)
