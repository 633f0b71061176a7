"""The word list indexed for the robots: by letter multiset, for anagram lookup.

The words a roll can spell are found by looking up every sub-multiset of its
faces (at most 2¹³ of them) in the index, and, for a blank, each of those with
one more letter A–Z.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from string import ascii_uppercase

from ..cubes import BLANK, CUBE_COUNT

#: The index of the last word list indexed, by the list's identity: a robot
#: is asked again and again with the same list.
_CACHE: dict[int, tuple[object, WordIndex]] = {}


class WordIndex:
    """Words of 2 to 13 letters by their sorted letters."""

    def __init__(self, words: Iterable[str]) -> None:
        by_key: dict[str, list[str]] = {}
        for word in words:
            if 2 <= len(word) <= CUBE_COUNT and word.isalpha() and word.isupper():
                by_key.setdefault("".join(sorted(word)), []).append(word)
        self.by_key = by_key
        self._memo: dict[tuple[str, str], tuple[tuple[str, str | None], ...]] = {}

    def spellable(self, faces: str, extra: str = "") -> tuple[tuple[str, str | None], ...]:
        """Every word spelled with ``extra`` (letters already on the board, all
        used) and some of ``faces`` (a blank ``_`` standing for one letter at
        most), as ``(word, letter the blank stands for or None)``."""
        key = ("".join(sorted(faces)), extra)
        found = self._memo.get(key)
        if found is None:
            found = tuple(self._spell(key[0], extra))
            if len(self._memo) > 50_000:
                self._memo.clear()
            self._memo[key] = found
        return found

    def _spell(self, faces: str, extra: str) -> list[tuple[str, str | None]]:
        letters = faces.replace(BLANK, "")
        blank = BLANK in faces
        counts: dict[str, int] = {}
        for ch in letters:
            counts[ch] = counts.get(ch, 0) + 1
        distinct = sorted(counts)
        out: list[tuple[str, str | None]] = []
        seen: set[str] = set()
        for picks in product(*(range(counts[ch] + 1) for ch in distinct)):
            chosen = "".join(ch * k for ch, k in zip(distinct, picks, strict=True)) + extra
            plain = "".join(sorted(chosen))
            for word in self.by_key.get(plain, ()):
                if word not in seen:
                    seen.add(word)
                    out.append((word, None))
            if blank:
                for x in ascii_uppercase:
                    for word in self.by_key.get("".join(sorted(chosen + x)), ()):
                        out.append((word, x))
        return out


def index_of(words: Iterable[str]) -> WordIndex:
    """The index of ``words``, built once per list."""
    held = _CACHE.get(id(words))
    if held is not None and held[0] is words:
        return held[1]
    index = WordIndex(words)
    _CACHE.clear()
    _CACHE[id(words)] = (words, index)
    return index
