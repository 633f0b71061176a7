"""The crossword kind's index of a word list: the list's DAWG with the rule
sheet's bonus words in it (they are always acceptable), under the list's name."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.dawg import Dawg, load_dawg
from games.engine.lexicon import LexiconStore


@dataclass(frozen=True, slots=True)
class CrosswordWords:
    """A word list as a crossword game plays it: ``word in words`` for the
    rules, ``dawg`` for the move generator, and the list's ``name`` and
    ``sha256`` for the deal, the records and the core."""

    name: str
    dawg: Dawg

    @property
    def sha256(self) -> str:
        return self.dawg.sha256

    def __contains__(self, word: object) -> bool:
        return word in self.dawg


def installed(store: LexiconStore, name: str) -> CrosswordWords:
    """The list installed in ``store`` as ``name``: its DAWG from this process,
    the disk cache beside the list's other indexes, or built once."""
    return CrosswordWords(name, load_dawg(store, name, BONUS_WORDS))


def inline(words: tuple[str, ...], name: str = "inline") -> CrosswordWords:
    """A few words given inline (a record's or a seat view's own list)."""
    bad = [w for w in words if not (w.isascii() and w.isalpha())]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a word of letters A-Z")
    return CrosswordWords(name, Dawg.build([*(w.upper() for w in words), *BONUS_WORDS]))
