"""A record's own word list: never expanded beyond what can be played."""

from __future__ import annotations

import pytest

import games.engine.lexicon as lexicon_module
from games.engine import WordListText
from games.engine.lexicon import MAX_WORD_LETTERS, build_lexicon
from games.engine.tiles import Tiles


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
