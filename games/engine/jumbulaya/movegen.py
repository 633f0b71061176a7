"""Legal move generation: every legal word move for a seat, exhaustively.

For each line, the new word keeps all but at most ``rack_limit`` of the line's
tiles (a line never shrinks, and every dropped tile must be made up by a rack
tile) and adds at most ``rack_limit`` rack tiles.  Each such multiset is one
probe of the lexicon's anagram table, its key made by adding and subtracting
precomputed tile sums.  Nothing is greedy and nothing is sampled: every
spelling of every word is found, two-letter tiles included.

:func:`scan_moves` finds the same moves the slow way, scanning every spelling
in the word list with face masks for every line; it is the reference the tests
check :func:`legal_moves` against, and the benchmark's baseline.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from ..lexicon import (
    CODE_LETTERS,
    EXACT,
    FACE_BIT,
    FACE_INDEX,
    KEY_MASK,
    WEIGHT,
    Lexicon,
    decode,
    encode,
    exact_key,
    exact_key_of_code,
    multiset_key,
)
from ..tiles import MAX_LINE_TILES, Tiles, letters
from .fold import split_word_tiles
from .notation import format_word
from .state import GameState, line_points


@dataclass(frozen=True, slots=True)
class WordMove:
    """A legal word move: the word stored as ``code`` (one character per tile)
    built on ``line`` (0-based); ``line_tiles`` are the line's tiles before it."""

    line: int
    code: str
    line_tiles: Tiles

    @property
    def tiles(self) -> Tiles:
        return decode(self.code)

    @property
    def word(self) -> str:
        return self.code.translate(CODE_LETTERS)

    @property
    def from_rack(self) -> Tiles:
        """The rack tiles that enter the line."""
        return tuple(split_word_tiles(self.line_tiles, self.tiles)[0])

    @property
    def to_rack(self) -> Tiles:
        """The line tiles that go to the mover's rack (a trade)."""
        return tuple(split_word_tiles(self.line_tiles, self.tiles)[1])

    @property
    def points(self) -> int:
        """What the line scores for its new owner."""
        return line_points(self.tiles)

    def notation(self) -> str:
        return f"{self.line + 1} {format_word(self.tiles)}"


SubMultiset = tuple[int, int, int, tuple[str, ...], int]


def _sub_multisets(tiles: Iterable[str], most: int) -> list[SubMultiset]:
    """Every distinct sub-multiset of at most ``most`` tiles:
    (key, exact key, size, tiles, face mask)."""
    ordered = sorted(tiles)
    w = WEIGHT
    x = EXACT
    bit = FACE_BIT
    out: list[SubMultiset] = [(0, 0, 0, (), 0)]
    if most >= 1:
        for t in dict.fromkeys(ordered):
            out.append((w[t], x[t], 1, (t,), bit[t]))
    if most >= 2:
        pairs: set[tuple[str, str]] = set()
        for i, a in enumerate(ordered):
            wa, xa, ba = w[a], x[a], bit[a]
            for b in ordered[i + 1 :]:
                if (a, b) not in pairs:
                    pairs.add((a, b))
                    out.append((wa + w[b], xa + x[b], 2, (a, b), ba | bit[b]))
    for k in range(3, min(most, len(ordered)) + 1):
        for combo in dict.fromkeys(combinations(ordered, k)):
            mask = 0
            for t in combo:
                mask |= bit[t]
            out.append((multiset_key(combo), exact_key(combo), k, combo, mask))
    return out


def legal_moves(state: GameState, seat: int, lexicon: Lexicon) -> list[WordMove]:
    """Every legal word move ``seat`` could make now (whether or not it is that
    seat's turn), line by line.

    A probe drops some line tiles and adds some rack tiles.  Pairs that drop and
    add the same face are skipped: each equals a smaller pair, so every multiset
    is probed exactly once.  A probe that finds its 64-bit key is confirmed with
    the exact key of what it found, so no move is ever listed by a hash accident.
    """
    limit = state.rules.rack_limit
    adds_by_size: list[list[tuple[int, int, int]]] = [[] for _ in range(limit + 1)]
    for key, exact, size, _, mask in _sub_multisets(state.racks[seat], limit):
        adds_by_size[size].append((key, exact, mask))
    table = lexicon.table
    slots, slot_mask, get = table.keys, table.mask, table.get
    history = state.rules.new_word == "history"
    moves: list[WordMove] = []
    for index, line in enumerate(state.lines):
        tiles = line.tiles
        n = len(tiles)
        old = line.history if history else ({line.word} if line.word else set())
        line_key = multiset_key(tiles)
        line_exact = exact_key(tiles)
        for drop_key, drop_exact, dropped, _, drop_mask in _sub_multisets(tiles, limit):
            base = line_key - drop_key
            base_exact = line_exact - drop_exact
            for added in range(dropped, min(limit, MAX_LINE_TILES - n + dropped) + 1):
                for add_key, add_exact, add_mask in adds_by_size[added]:
                    if drop_mask & add_mask:
                        continue
                    key = (base + add_key) & KEY_MASK
                    if not slots[key & slot_mask]:
                        continue  # most probes end here, at an empty slot
                    entry = get(key)
                    if not entry:
                        continue  # None, or the empty word an empty line's probe finds
                    codes = entry.split()
                    if exact_key_of_code(codes[0]) != base_exact + add_exact:
                        continue  # another multiset's key: never seen, checked all the same
                    for code in codes:
                        if not old or code.translate(CODE_LETTERS) not in old:
                            moves.append(WordMove(index, code, tiles))
    return moves


def _is_new(state: GameState, index: int, word: str) -> bool:
    line = state.lines[index]
    if state.rules.new_word == "history":
        return word not in line.history
    return word != line.word


_SCAN_LISTS: dict[str, tuple[list[Tiles], list[int]]] = {}


def _scan_list(lexicon: Lexicon) -> tuple[list[Tiles], list[int]]:
    """Every spelling in the list with its face mask, made once per list."""
    found = _SCAN_LISTS.get(lexicon.sha256)
    if found is None:
        spellings = [decode(code) for code in lexicon.table.blob.split()]
        masks = []
        for sp in spellings:
            m = 0
            for t in sp:
                m |= 1 << FACE_INDEX[t]
            masks.append(m)
        found = _SCAN_LISTS[lexicon.sha256] = (spellings, masks)
    return found


def scan_moves(state: GameState, seat: int, lexicon: Lexicon) -> list[WordMove]:
    """The same moves as :func:`legal_moves`, found by scanning the whole word
    list for every line with face masks (the word-list scan a simple robot does).
    Slow on purpose: it is the reference implementation."""
    limit = state.rules.rack_limit
    rack = state.racks[seat]
    spellings, masks = _scan_list(lexicon)
    moves: list[WordMove] = []
    for index, line in enumerate(state.lines):
        tiles = line.tiles
        avail = 0
        for t in (*tiles, *rack):
            avail |= 1 << FACE_INDEX[t]
        lo, hi = len(tiles), min(MAX_LINE_TILES, len(tiles) + limit)
        for sp, m in zip(spellings, masks, strict=True):
            if m & ~avail or not lo <= len(sp) <= hi:
                continue
            from_rack, _ = split_word_tiles(tiles, sp)
            if len(from_rack) > limit:
                continue
            left = list(rack)
            try:
                for t in from_rack:
                    left.remove(t)
            except ValueError:
                continue
            if _is_new(state, index, letters(sp)):
                moves.append(WordMove(index, encode(sp), tiles))
    return moves
