"""Tumble-Words' index of a word list: the same DAWG the crossword game
builds of an installed list (without its bonus words), under the list's name.
The rules need ``word in words``; the robots also read every word once, to
index them by their letters."""

from __future__ import annotations

from collections.abc import Iterator

from games.engine.crossword.dawg import Dawg, load_dawg
from games.engine.lexicon import LexiconStore


class TumbleWords:
    """A word list as a Tumble-Words game plays it: ``word in words`` for the
    rules, iteration for the robots' index, and the list's ``name`` and
    ``sha256`` for the records and the core."""

    def __init__(self, name: str, dawg: Dawg) -> None:
        self.name = name
        self.dawg = dawg
        self._words: tuple[str, ...] | None = None

    @property
    def sha256(self) -> str:
        return self.dawg.sha256

    def __contains__(self, word: object) -> bool:
        return word in self.dawg

    def __len__(self) -> int:
        return len(self.dawg)

    def __iter__(self) -> Iterator[str]:
        if self._words is None:  # read once: the robots index them by their letters
            self._words = tuple(self.dawg.words())
        return iter(self._words)


def installed(store: LexiconStore, name: str) -> TumbleWords:
    """The list installed in ``store`` as ``name``: its DAWG from this process,
    the disk cache, or built once (shared with the crossword game's)."""
    return TumbleWords(name, load_dawg(store, name))


def inline(words: tuple[str, ...], name: str = "inline") -> TumbleWords:
    """A few words given inline (a record's or a seat view's own list)."""
    bad = [w for w in words if not (w.isascii() and w.isalpha())]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a word of letters A-Z")
    return TumbleWords(name, Dawg.build(w.upper() for w in words))


def words_of(lexicon: object) -> TumbleWords:
    """The game's word list, as the core hands it over."""
    if not isinstance(lexicon, TumbleWords):
        raise ValueError("Tumble-Words is played with a word list")
    return lexicon
