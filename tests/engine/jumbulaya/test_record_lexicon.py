"""A record's own word list: checked by its SHA-256 before anything is built,
built once into a small cache, and never expanded beyond what can be played."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import games.engine.jumbulaya.record as record_module
import games.engine.lexicon as lexicon_module
from games.engine.jumbulaya import (
    PRESETS,
    Lexicon,
    WordListText,
    deal,
    lexicon_from_words,
    replay_json,
    write_record,
)
from games.engine.jumbulaya.record import INLINE_CACHE_SIZE
from games.engine.lexicon import MAX_WORD_LETTERS, build_lexicon
from games.engine.tiles import Tiles

WORDS = ["ACT", "CAT", "FACT", "FACTS"]


def no_list(name: str) -> Lexicon:
    raise LookupError(name)


def record_text(words: list[str], sha256: str | None = None) -> str:
    started = deal(
        ("ann", "bob"), PRESETS["official"], lexicon_from_words(["CAT"]), random.Random(3)
    )
    record: dict[str, Any] = write_record([started], lexicon={"words": words})
    record["turns"] = [{"seat": 0, "move": "pass"}]
    record["lexicon_sha256"] = sha256 or WordListText.from_lines(words).sha256
    return json.dumps(record)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The SHA-256 of every inline list the record reader builds, from an empty cache."""
    built: list[str] = []

    def counting(text: WordListText, name: str) -> Lexicon:
        built.append(text.sha256)
        return build_lexicon(text, name)

    record_module._inline_lexicon.cache_clear()
    monkeypatch.setattr(record_module, "build_lexicon", counting)
    yield built
    record_module._inline_lexicon.cache_clear()


def test_a_wrong_sha256_is_refused_before_the_list_is_built(builds: list[str]) -> None:
    result = replay_json(record_text(WORDS, sha256="0" * 64), no_list)
    assert result.exit_code == 2 and result.error is not None
    assert result.error.code == "bad_record"
    assert f"list whose SHA-256 is {'0' * 64}" in result.error.message
    assert WordListText.from_lines(WORDS).sha256 in result.error.message
    assert builds == []


def test_a_right_sha256_builds_the_list_once(builds: list[str]) -> None:
    for _ in range(3):
        assert replay_json(record_text(WORDS), no_list).exit_code == 0
    assert builds == [WordListText.from_lines(WORDS).sha256]


def test_the_cache_keeps_only_the_most_recently_used_lists(builds: list[str]) -> None:
    lists = [[*WORDS, "X" * (n + 1)] for n in range(INLINE_CACHE_SIZE + 1)]
    for words in lists:
        assert replay_json(record_text(words), no_list).exit_code == 0
    assert len(builds) == INLINE_CACHE_SIZE + 1
    assert replay_json(record_text(lists[-1]), no_list).exit_code == 0  # still cached
    assert len(builds) == INLINE_CACHE_SIZE + 1
    assert replay_json(record_text(lists[0]), no_list).exit_code == 0  # evicted: built again
    assert builds[-1] == WordListText.from_lines(lists[0]).sha256
    assert record_module._inline_lexicon.cache_info().currsize == INLINE_CACHE_SIZE


def test_a_word_too_long_for_any_line_is_not_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    """``"ST" * 30`` has 2**30 spellings, none of them 10 tiles or fewer: building
    a list holding it must not enumerate them."""
    expanded: list[str] = []
    spellings = lexicon_module.spellings

    def recording(word: str) -> tuple[Tiles, ...]:
        expanded.append(word)
        return spellings(word) if len(word) <= MAX_WORD_LETTERS else ()  # not 2**30 of them

    recording.cache_clear = spellings.cache_clear  # type: ignore[attr-defined]
    monkeypatch.setattr(lexicon_module, "spellings", recording)
    longest = "ST" * (MAX_WORD_LETTERS // 2)
    lex = build_lexicon(WordListText.from_lines(["CAT", longest, "ST" * 30]), "long")
    assert expanded == ["CAT", longest]
    assert len(lex) == 3  # still listed, so the list keeps its identity
    assert lex.contains(("C", "A", "T")) and lex.contains(("ST",) * (MAX_WORD_LETTERS // 2))
