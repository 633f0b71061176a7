"""Smaller vocabularies for the weaker levels: the game's words people use often.

A level that plays like a person knows only the words of the game's list whose
frequency in English (the ``wordfreq`` package's Zipf scale: 3 is about once per
million words, 6 once per thousand) is at or above a threshold.  Its
vocabulary is a :class:`~games.engine.lexicon.Lexicon` of its own, so it finds
moves and JUMBULAYAs with the same code as the strongest level, only fewer.

``wordfreq``'s data ships inside its wheel: nothing is downloaded.  Reading its
frequency table once is faster than asking :func:`wordfreq.zipf_frequency` word
by word (the Zipf value is ``log10`` of the frequency per billion words, which
is what :func:`zipf` computes, rounded as ``zipf_frequency`` rounds it).
"""

from __future__ import annotations

import math
from functools import cache

from ...lexicon import CODE_LETTERS, Lexicon, WordListText, build_lexicon

_CACHE: dict[tuple[str, float], Lexicon] = {}


@cache
def _frequencies() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("en", wordlist="best")


def zipf(word: str) -> float:
    """The Zipf frequency of ``word`` in English, as ``wordfreq.zipf_frequency``
    gives it for a single word of letters (0 for a word it does not know).

    >>> zipf("the") > 7 > zipf("cat") > 4 > zipf("zymurgy")
    True
    """
    freq = _frequencies().get(word.lower(), 0.0)
    if freq <= 0:
        return 0.0
    return round(math.log10(freq) + 9, 2)


_WORDS: dict[str, list[str]] = {}


def words_of(lexicon: Lexicon) -> list[str]:
    """Every word of ``lexicon``, upper-case, sorted (read once per list)."""
    found = _WORDS.get(lexicon.sha256)
    if found is None:
        blob = lexicon.table.blob
        found = _WORDS[lexicon.sha256] = sorted({c.translate(CODE_LETTERS) for c in blob.split()})
    return found


def vocabulary(lexicon: Lexicon, min_zipf: float) -> Lexicon:
    """The words of ``lexicon`` with a Zipf frequency of at least ``min_zipf``, as
    a lexicon; built once per process for each list (keyed by its SHA-256) and
    threshold.  A threshold of 0 or less is the whole list."""
    if min_zipf <= 0:
        return lexicon
    key = (lexicon.sha256, min_zipf)
    found = _CACHE.get(key)
    if found is None:
        kept = [w for w in words_of(lexicon) if zipf(w) >= min_zipf]
        text = WordListText.from_lines(kept)
        found = _CACHE[key] = build_lexicon(text, f"{lexicon.name}@zipf{min_zipf:g}")
    return found
