"""Every legal placement of a rack's tiles, with its score (Appel and Jacobson's
anchors and cross-checks over a :class:`~.dawg.Dawg`).

A board is plain data: :data:`SIZE` strings of :data:`SIZE` characters, row 1
first; ``.`` is an empty square, an upper-case letter a tile, a lower-case
letter a blank standing for that letter.  A rack is a string of upper-case
letters and ``?`` for a blank.

How the search runs:

* Both directions are searched at once over one flat array of "line cells":
  row ``r`` of the board is cells ``16 r`` to ``16 r + 14``, column ``c`` is
  cells ``240 + 16 c`` onwards, and every sixteenth cell is an edge sentinel,
  so stepping along a line is ``k + 1`` whichever way it runs.
* An *anchor* is an empty square next to a tile (the centre on an empty board).
  Each anchor's *cross-check* is the set of letters (a 26-bit mask) that form a
  listed word with the tiles just above and below it (left and right, for a
  column), with the points those tiles bring to that cross-word; the graph
  remembers the sets it has worked out (:meth:`~.dawg.Dawg.cross_set`).
* A move is found from its first anchor along the line.  The tiles left of that
  anchor are either board tiles, walked through the DAWG, or rack tiles on the
  empty squares back to the previous anchor: those squares touch nothing, so
  what goes there is only a word prefix the rack can spell.  The prefixes are
  enumerated once per rack and each one is tried at every anchor with room for
  it; from the anchor rightwards, each letter must be a DAWG edge, pass the
  square's cross-check and come from the rack (a blank can be any letter).
* The score is kept as the search goes: the main word's letter sum (premium
  letters on new squares only) and word multiplier, and the cross-words' total,
  so recording a move is one multiply-add.

A single tile forms a word in both directions or one; it is one move, written
in the direction of its longer word (across when they are equally long).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import NamedTuple

from ..errors import BadRecord, Refusal
from .dawg import ALL_LETTERS, TERMINAL, Dawg
from .layout import (
    ALL_TILES_BONUS,
    BLANK,
    CENTRE,
    COLUMNS,
    LETTER_MULTIPLIER,
    SIZE,
    VALUES,
    WORD_MULTIPLIER,
)

Board = tuple[str, ...]

#: The move sizes that earn :data:`~.layout.ALL_TILES_BONUS`: exactly seven in the
#: standard game; seven, eight or nine in "Sharing the Word".
STANDARD_BINGO: frozenset[int] = frozenset({7})
SHARING_BINGO: frozenset[int] = frozenset({7, 8, 9})
#: The longest rack a search accepts ("Sharing the Word" racks hold nine).
MAX_RACK = 9

EMPTY_BOARD: Board = ("." * SIZE,) * SIZE

_STRIDE = SIZE + 1
_DOWN = SIZE * _STRIDE  # the first cell of the columns' half
_CELLS = 2 * _DOWN
_EDGE = -2
_EMPTY = -1
_A = ord("A")
_UPPER = [chr(_A + L) for L in range(26)]
_LOWER = [c.lower() for c in _UPPER]
_VALUE = [VALUES[c] for c in _UPPER]
#: A board or word character's points: a blank (lower-case) is worth nothing.
CHAR_VALUE: dict[str, int] = {**{c: VALUES[c] for c in _UPPER}, **dict.fromkeys(_LOWER, 0)}


class Move(NamedTuple):
    """One legal placement.

    ``word`` is the whole word along the line as the notation writes it: each
    new tile upper-case, or lower-case for a blank, and each board tile as the
    board holds it.  ``tiles`` are the rack tiles it uses, in the word's order,
    ``?`` for a blank."""

    row: int
    col: int
    across: bool
    word: str
    tiles: str
    score: int

    @property
    def square(self) -> str:
        """``8H`` across, ``H8`` down."""
        if self.across:
            return f"{self.row + 1}{COLUMNS[self.col]}"
        return f"{COLUMNS[self.col]}{self.row + 1}"

    @property
    def notation(self) -> str:
        return f"{self.square} {self.word}"

    def squares(self) -> list[tuple[int, int]]:
        """The squares the whole word covers, in order."""
        if self.across:
            return [(self.row, self.col + i) for i in range(len(self.word))]
        return [(self.row + i, self.col) for i in range(len(self.word))]


def check_board(board: Board) -> Board:
    """``board`` if it has the shape of a board, else a :class:`BadRecord` saying why."""
    if not isinstance(board, tuple) or len(board) != SIZE:
        raise BadRecord(f"a board is a tuple of {SIZE} rows")
    for r, row in enumerate(board, 1):
        if not isinstance(row, str) or len(row) != SIZE:
            raise BadRecord(f"board row {r} is not a string of {SIZE} squares")
        for c, ch in enumerate(row):
            if ch != "." and not ("A" <= ch <= "Z" or "a" <= ch <= "z"):
                raise BadRecord(
                    f"board square {r}{COLUMNS[c]} holds {ch!r}: use '.', a letter, or a "
                    "lower-case letter for a blank"
                )
    return board


def check_rack(rack: str, most: int = MAX_RACK) -> str:
    """``rack`` if it is at most ``most`` tiles of A–Z and ``?``, else a :class:`Refusal`."""
    for ch in rack:
        if ch != BLANK and not "A" <= ch <= "Z":
            raise Refusal("unknown_tile", f"{ch!r} is not a tile: racks hold A–Z and ? (a blank)")
    if len(rack) > most:
        raise Refusal("too_many_rack_tiles", f"a rack holds at most {most} tiles, not {len(rack)}")
    return rack


def placements(board: Board, move: Move) -> list[tuple[int, int, str]]:
    """The squares ``move`` newly covers and what goes on each (as on the board:
    lower-case for a blank)."""
    return [
        (r, c, ch)
        for (r, c), ch in zip(move.squares(), move.word, strict=True)
        if board[r][c] == "."
    ]


def play(board: Board, move: Move) -> Board:
    """The board after ``move``."""
    rows = [list(row) for row in board]
    for r, c, ch in placements(board, move):
        rows[r][c] = ch
    return tuple("".join(row) for row in rows)


def _cell_squares() -> list[tuple[int, int] | None]:
    """Each line cell's square, ``None`` for the edge sentinels."""
    out: list[tuple[int, int] | None] = [None] * _CELLS
    for r in range(SIZE):
        for c in range(SIZE):
            out[r * _STRIDE + c] = (r, c)
            out[_DOWN + c * _STRIDE + r] = (r, c)
    return out


_SQUARE = _cell_squares()
_LM = [LETTER_MULTIPLIER[s[0]][s[1]] if s else 1 for s in _SQUARE]
_WM = [WORD_MULTIPLIER[s[0]][s[1]] if s else 1 for s in _SQUARE]


def legal_moves(
    board: Board,
    rack: str,
    dawg: Dawg,
    *,
    bingo_sizes: Set[int] = STANDARD_BINGO,
    bonus: Mapping[str, int] | None = None,
) -> list[Move]:
    """Every legal move for ``rack`` on ``board``: every formed word in ``dawg``,
    touching the tiles already played (through the centre, with two tiles or
    more, on an empty board).  ``bingo_sizes``: the tile counts that earn the
    50-point bonus; ``bonus``: a flat bonus for each formed word (main or cross)
    that is exactly one of its words, whatever tiles spell it."""
    check_board(board)
    check_rack(rack)
    bonus = bonus or {}
    mask, first, kids = dawg.mask, dawg.first, dawg.kids

    # The board as line cells: letter numbers, characters, points.
    tile = [_EDGE] * _CELLS
    chars = [""] * _CELLS
    points = [0] * _CELLS
    occupied = False
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            a, d = r * _STRIDE + c, _DOWN + c * _STRIDE + r
            if ch == ".":
                tile[a] = tile[d] = _EMPTY
            else:
                occupied = True
                tile[a] = tile[d] = ord(ch.upper()) - _A
                chars[a] = chars[d] = ch
                points[a] = points[d] = CHAR_VALUE[ch]

    # Anchors, and each empty cell's cross-check, cross-word points and length.
    cross = [ALL_LETTERS] * _CELLS
    cross_points = [-1] * _CELLS  # -1: no cross-word
    cross_len = [1] * _CELLS
    cross_bonus: list[dict[int, int] | None] = [None] * _CELLS
    anchors: list[int] = []
    if not occupied:
        r, c = CENTRE
        anchors = [r * _STRIDE + c, _DOWN + c * _STRIDE + r]
    else:
        for k in range(_CELLS):
            if tile[k] != _EMPTY:
                continue
            # The perpendicular line's cell for the same square.
            r, c = _SQUARE[k]  # type: ignore[misc]
            p = _DOWN + c * _STRIDE + r if k < _DOWN else r * _STRIDE + c
            before = tile[p - 1] >= 0
            after = tile[p + 1] >= 0
            if before or after:
                _cross_check(k, p, tile, chars, dawg, cross, cross_points, cross_len)
                if bonus:
                    cross_bonus[k] = _cross_bonuses(p, tile, chars, cross[k], bonus)
            if before or after or tile[k - 1] >= 0 or tile[k + 1] >= 0:
                anchors.append(k)

    rack_count = [0] * 27  # 26 letters, then blanks
    for ch in rack:
        rack_count[26 if ch == BLANK else ord(ch) - _A] += 1
    have = 0
    for L in range(26):
        if rack_count[L]:
            have |= 1 << L
    remaining = len(rack)
    moves: list[Move] = []
    bingo = {n: ALL_TILES_BONUS for n in bingo_sizes}

    def record(end: int, word: str, tiles: str, score: int, n: int) -> None:
        start = end - len(word)
        if n == 1:
            # One tile: kept in the direction of its longer word (across on a tie).
            k = next(i for i in range(start, end) if tile[i] == _EMPTY)
            if (len(word) < cross_len[k]) if k < _DOWN else (len(word) <= cross_len[k]):
                return
        if bonus:
            score += bonus.get(word.upper(), 0)
        row, col = _SQUARE[start]  # type: ignore[misc]
        moves.append(Move(row, col, start < _DOWN, word, tiles, score + bingo.get(n, 0)))

    def extend(k: int, node: int, word: str, tiles: str, msum: int, wmul: int, xsum: int) -> None:
        """Place a rack tile on the empty cell ``k`` (and go on rightwards)."""
        nonlocal have, remaining
        mk = mask[node]
        m = mk & cross[k]
        if not rack_count[26]:
            m &= have
        if not m:
            return
        base = first[node]
        lm = _LM[k]
        wm = _WM[k]
        xp = cross_points[k]
        xb = cross_bonus[k]
        n = len(tiles) + 1
        for blank in (False, True):
            if blank:
                if not rack_count[26]:
                    return
                todo = m
            else:
                todo = m & have
            while todo:
                low = todo & -todo
                todo ^= low
                L = low.bit_length() - 1
                child = kids[base + (mk & (low - 1)).bit_count()]
                if blank:
                    v = 0
                    ch = _LOWER[L]
                    t = BLANK
                    rack_count[26] -= 1
                else:
                    v = _VALUE[L]
                    ch = t = _UPPER[L]
                    rack_count[L] -= 1
                    if not rack_count[L]:
                        have ^= low
                remaining -= 1
                nm = msum + v * lm
                nw = wmul * wm
                nx = xsum
                if xp >= 0:
                    nx += (xp + v * lm) * wm
                    if xb is not None:
                        nx += xb.get(L, 0)
                # Walk the board tiles that follow.
                j = k + 1
                nd = child
                w = word + ch
                tj = tile[j]
                while tj >= 0:
                    mj = mask[nd]
                    bit = 1 << tj
                    if not mj & bit:
                        nd = -1
                        break
                    nd = kids[first[nd] + (mj & (bit - 1)).bit_count()]
                    w += chars[j]
                    nm += points[j]
                    j += 1
                    tj = tile[j]
                if nd >= 0:
                    if mask[nd] & TERMINAL:
                        record(j, w, tiles + t, nm * nw + nx, n)
                    if tj == _EMPTY and remaining and mask[nd] & cross[j]:
                        extend(j, nd, w, tiles + t, nm, nw, nx)
                remaining += 1
                if blank:
                    rack_count[26] += 1
                else:
                    if not rack_count[L]:
                        have |= low
                    rack_count[L] += 1

    # Anchors after board tiles: the tiles are the left part.
    free: list[tuple[int, int]] = []  # (anchor, room for a left part of rack tiles)
    is_anchor = set(anchors)
    for k in anchors:
        if not cross[k]:
            continue
        if tile[k - 1] >= 0:
            s = k - 1
            while tile[s - 1] >= 0:
                s -= 1
            node = dawg.walk("".join(chars[s:k]).upper())
            if node >= 0:
                extend(k, node, "".join(chars[s:k]), "", sum(points[s:k]), 1, 0)
        else:
            room = 0
            s = k - 1
            while tile[s] == _EMPTY and s not in is_anchor and room < len(rack) - 1:
                room += 1
                s -= 1
            free.append((k, room))
    free.sort(key=lambda a: -a[1])

    def left(node: int, word: str, tiles: str) -> None:
        """Try the left part ``word`` at every anchor with room for it, then
        every longer left part the rack can spell."""
        nonlocal have, remaining
        size = len(word)
        reach = mask[node]
        for k, room in free:
            if room < size:
                break
            if not reach & cross[k]:
                continue
            start = k - size
            msum = 0
            wmul = 1
            for i, ch in enumerate(word):
                msum += CHAR_VALUE[ch] * _LM[start + i]
                wmul *= _WM[start + i]
            extend(k, node, word, tiles, msum, wmul, 0)
        if not free or size >= free[0][1] or remaining < 2:
            return
        mk = mask[node]
        m = mk & ALL_LETTERS
        base = first[node]
        while m:
            low = m & -m
            m ^= low
            L = low.bit_length() - 1
            child = kids[base + (mk & (low - 1)).bit_count()]
            if rack_count[L]:
                rack_count[L] -= 1
                if not rack_count[L]:
                    have ^= low
                remaining -= 1
                left(child, word + _UPPER[L], tiles + _UPPER[L])
                remaining += 1
                if not rack_count[L]:
                    have |= low
                rack_count[L] += 1
            if rack_count[26]:
                rack_count[26] -= 1
                remaining -= 1
                left(child, word + _LOWER[L], tiles + BLANK)
                remaining += 1
                rack_count[26] += 1

    if free and rack:
        left(0, "", "")
    return moves


def _cross_word(p: int, tile: list[int], chars: list[str]) -> tuple[str, str]:
    """The board characters just before and just after line cell ``p``."""
    s = p
    while tile[s - 1] >= 0:
        s -= 1
    e = p + 1
    while tile[e] >= 0:
        e += 1
    return "".join(chars[s:p]), "".join(chars[p + 1 : e])


def _cross_check(
    k: int,
    p: int,
    tile: list[int],
    chars: list[str],
    dawg: Dawg,
    cross: list[int],
    cross_points: list[int],
    cross_len: list[int],
) -> None:
    """Fill in cell ``k``'s cross-check: the letters that make the tiles around
    ``p`` (the same square, on the perpendicular line) a listed word."""
    before, after = _cross_word(p, tile, chars)
    cross_points[k] = sum(CHAR_VALUE[ch] for ch in before + after)
    cross_len[k] = len(before) + len(after) + 1
    cross[k] = dawg.cross_set(before.upper(), after.upper())


def _cross_bonuses(
    p: int, tile: list[int], chars: list[str], allowed: int, bonus: Mapping[str, int]
) -> dict[int, int] | None:
    """The bonus each allowed letter's cross-word earns at line cell ``p``'s square."""
    before, after = _cross_word(p, tile, chars)
    before, after = before.upper(), after.upper()
    out = {}
    for L in range(26):
        if allowed >> L & 1:
            points = bonus.get(before + _UPPER[L] + after, 0)
            if points:
                out[L] = points
    return out or None
