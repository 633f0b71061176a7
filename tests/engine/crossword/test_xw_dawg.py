"""The crossword game's DAWG: the words it holds, its minimization, its cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.crossword import dawg as dawg_module
from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.dawg import Dawg, cache_path, extras_digest, load_dawg
from games.engine.lexicon import LexiconStore, UnknownWordList

WORDS = ["CAT", "CATS", "BAT", "BATS", "AT", "ZA", "QI", "STRENGTHLESSNESS", "X"]


def test_it_holds_exactly_the_playable_words() -> None:
    d = Dawg.build(WORDS)
    # 2–15 letters: X (one letter) and STRENGTHLESSNESS (16) are left out.
    assert d.words() == ["AT", "BAT", "BATS", "CAT", "CATS", "QI", "ZA"]
    assert len(d) == 7
    assert "CAT" in d and "cats" in d and "Za" in d
    assert "CA" not in d and "CATSS" not in d and "X" not in d and "" not in d
    assert "C4T" not in d and "ÇAT" not in d and 3 not in d


def test_shared_suffixes_are_one_path() -> None:
    # CAT, CATS, BAT, BATS: root, one node after C or B, then A, T (a word), S (a word).
    assert Dawg.build(["CAT", "CATS", "BAT", "BATS"]).node_count == 5


def test_bytes_round_trip_and_refuse_another_format() -> None:
    d = Dawg.build(WORDS, "abc", "def")
    back = Dawg.from_bytes(d.to_bytes())
    assert back.words() == d.words() and (back.sha256, back.extras_digest) == ("abc", "def")
    with pytest.raises(ValueError):
        Dawg.from_bytes(b"\x00garbage")


def _store(tmp_path: Path, words: list[str]) -> LexiconStore:
    source = tmp_path / "source.txt"
    source.write_text("\n".join(words) + "\n")
    store = LexiconStore(tmp_path / "lists")
    store.install("small", source)
    return store


def test_load_builds_once_then_reads_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path, ["cat", "cats", "dog"])
    built = load_dawg(store, "small", ["Mary"])
    assert "MARY" in built and "DOG" in built and "MAR" not in built
    path = cache_path(store, built.sha256, extras_digest(["MARY"]))
    assert path.exists()
    assert built.sha256 == LexiconStore(tmp_path / "lists").load("small").sha256

    def no_build(*args: object, **kwargs: object) -> Dawg:
        raise AssertionError("built again")

    monkeypatch.setattr(dawg_module, "_LOADED", {})
    monkeypatch.setattr(Dawg, "build", no_build)
    again = load_dawg(store, "small", ["MARY"])
    assert again.words() == ["CAT", "CATS", "DOG", "MARY"]


def test_other_extras_are_another_graph(tmp_path: Path) -> None:
    store = _store(tmp_path, ["cat"])
    assert "ZION" not in load_dawg(store, "small")
    assert "ZION" in load_dawg(store, "small", ["zion"])


def test_a_damaged_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path, ["cat", "dog"])
    first = load_dawg(store, "small")
    path = cache_path(store, first.sha256, extras_digest([]))
    path.write_bytes(b"not a dawg")
    monkeypatch.setattr(dawg_module, "_LOADED", {})
    assert load_dawg(store, "small").words() == ["CAT", "DOG"]
    assert Dawg.from_bytes(path.read_bytes()).words() == ["CAT", "DOG"]


def test_unknown_lists_and_bad_extras_are_refused(tmp_path: Path) -> None:
    store = _store(tmp_path, ["cat"])
    with pytest.raises(UnknownWordList):
        load_dawg(store, "missing")
    with pytest.raises(UnknownWordList):
        load_dawg(store, "../etc")
    with pytest.raises(ValueError, match="2–15 letters"):
        load_dawg(store, "small", ["X"])


def test_cross_sets_are_the_letters_that_make_a_word() -> None:
    d = Dawg.build(["CAT", "CUT", "COT", "AT", "TA"])
    bits = d.cross_set("C", "T")
    assert [chr(65 + L) for L in range(26) if bits >> L & 1] == ["A", "O", "U"]
    assert d.cross_set("", "T") == 1 << 0  # AT
    assert d.cross_set("T", "") == 1 << 0  # TA
    assert d.cross_set("X", "") == 0
    assert d.cross_set("C", "T") == bits  # remembered, the same answer


def test_the_bonus_words_are_playable_with_enable(enable_dawg: Dawg) -> None:
    # ENABLE lacks MARY, ZION, LUKE, RACHEL, EGYPT, DAVID, MATTHEW, ABRAHAM,
    # GABRIEL and JESUS: they are passed in as extra words.
    assert all(word in enable_dawg for word in BONUS_WORDS)
    assert len(enable_dawg) == 168_548 + 10  # ENABLE's words of 2–15 letters, and those ten
    assert "QAT" in enable_dawg and "QI" not in enable_dawg
