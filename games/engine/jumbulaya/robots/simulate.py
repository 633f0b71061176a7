"""Looking past the immediate score: positions after a move, and the replies
they hand to the next seat.

Values are in points from one seat's side: its score less the best other
score (the *margin*).  A position where the game is over is worth
:data:`WIN` more (or less) than its margin, so any win beats any margin and any
loss is worse than any margin.

The next seat's rack is hidden; :func:`sample_racks` deals it at random from
the unseen tiles (the bag plus every other rack), and when the bag is empty in
a two-seat game the unseen tiles *are* that rack, so one exact sample is all
there is.  For each sampled rack, :class:`Replies` lists, line by line, the
best word that seat could build there (and the best ten-tile word, which ends
the game); the reply a move hands over is then the worst of those for us.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...lexicon import Lexicon
from ...tiles import MAX_LINE_TILES, Tiles
from ..events import WordBuilt
from ..fold import evolve
from ..movegen import WordMove, legal_moves
from ..runs import search
from ..state import GameState, Line, line_points

#: What a won (lost) game is worth beyond its margin.
WIN = 1000.0


def margin(scores: Sequence[int], seat: int, live: Sequence[bool] | None = None) -> float:
    """``seat``'s score less the best other score (of seats still in the game)."""
    others = [s for i, s in enumerate(scores) if i != seat and (live is None or live[i])]
    return float(scores[seat] - max(others, default=0))


def final_value(diff: float) -> float:
    """The value of a game that ends with ``seat`` ``diff`` points ahead."""
    if diff > 0:
        return WIN + diff
    if diff < 0:
        return -WIN + diff
    return 0.0


def state_value(state: GameState, seat: int) -> float:
    """The margin of ``state`` for ``seat``, with :data:`WIN` added or taken
    away when the game is over."""
    live = [state.in_game(s) for s in range(state.seats)]
    diff = margin(state.scores(), seat, live)
    return final_value(diff) if state.over else diff


def after_word(state: GameState, seat: int, move: WordMove) -> GameState:
    """The position after ``seat`` builds ``move``, before it draws."""
    return evolve(state, WordBuilt(seat, move.line, move.tiles, ()))


_JUMBULAYA_CACHE: dict[tuple[str, tuple[Tiles, ...]], int] = {}


def best_jumbulaya_points(state: GameState, lexicon: Lexicon) -> int:
    """The points of the best JUMBULAYA on the board once a call is allowed, else 0."""
    if not state.jumbulaya_open():
        return 0
    board = tuple(ln.tiles for ln in state.lines)
    key = (lexicon.sha256, board)
    found = _JUMBULAYA_CACHE.get(key)
    if found is None:
        if len(_JUMBULAYA_CACHE) > 20_000:
            _JUMBULAYA_CACHE.clear()
        hits = search(board, lexicon, state.rules)
        found = _JUMBULAYA_CACHE[key] = hits[0].points if hits else 0
    return found


def sample_racks(unseen: Sequence[str], size: int, count: int, rng: random.Random) -> list[Tiles]:
    """``count`` guesses at a rack of ``size`` tiles dealt from ``unseen``; the one
    exact rack when every unseen tile is in it."""
    if size >= len(unseen):
        return [tuple(unseen)]
    pool = list(unseen)
    return [tuple(rng.sample(pool, size)) for _ in range(count)]


@dataclass(slots=True)
class Replies:
    """For one guessed rack of the next seat: the points of its best word on
    each line, and of its best ten-tile word (0: none)."""

    best: list[int]
    ten: list[int]


def _best_by_line(moves: Sequence[WordMove], lines: int) -> Replies:
    best = [0] * lines
    ten = [0] * lines
    for m in moves:
        p = line_points(m.tiles)
        if len(m.code) == MAX_LINE_TILES:
            if p > ten[m.line]:
                ten[m.line] = p
        elif p > best[m.line]:
            best[m.line] = p
    return Replies(best, ten)


def with_rack(state: GameState, seat: int, rack: Tiles) -> GameState:
    """``state`` with ``seat`` holding ``rack``."""
    racks = list(state.racks)
    racks[seat] = rack
    return GameState(
        state.rules,
        state.players,
        state.lines,
        tuple(racks),
        state.bag,
        state.turn,
        state.resigned,
        state.skips,
        state.barred,
        state.idle,
        state.end,
        state.jumbulaya,
    )


def replies(state: GameState, seat: int, rack: Tiles, lexicon: Lexicon) -> Replies:
    """The best words ``seat`` could build on each line of ``state`` with ``rack``."""
    return _best_by_line(legal_moves(with_rack(state, seat, rack), seat, lexicon), len(state.lines))


def line_replies(state: GameState, line: Line, seat: int, rack: Tiles, lexicon: Lexicon) -> Replies:
    """The best words ``seat`` could build on one ``line`` with ``rack``."""
    one = with_rack(state, seat, rack)
    one.lines = (line,)
    return _best_by_line(legal_moves(one, seat, lexicon), 1)


def merged(base: Replies, line: int, single: Replies) -> Replies:
    """``base`` with line ``line``'s entry replaced by ``single``'s only one."""
    best = list(base.best)
    ten = list(base.ten)
    best[line] = single.best[0]
    ten[line] = single.ten[0]
    return Replies(best, ten)


def worst_reply(after: GameState, me: int, opp: int, table: Replies) -> float:
    """The value for ``me`` of ``after`` once ``opp`` makes the reply from
    ``table`` (its best word on each line) that is worst for ``me``; building
    nothing is a reply too.  A ten-tile word ends the game, and so does a word
    that gives ``opp`` every line."""
    scores = after.scores()
    live = [after.in_game(s) for s in range(after.seats)]
    worst = margin(scores, me, live)
    lines = after.lines
    opp_owned = sum(1 for ln in lines if ln.owner == opp)
    for j, ln in enumerate(lines):
        best = table.best[j]
        ten = table.ten[j]
        if not best and not ten:
            continue
        old = line_points(ln.tiles) if ln.owner is not None else 0
        for points, ends in ((ten, True), (best, False)):
            if not points:
                continue
            new = list(scores)
            if ln.owner is not None:
                new[ln.owner] -= old
            new[opp] += points
            diff = margin(new, me, live)
            if ends or opp_owned + (ln.owner != opp) == len(lines):
                diff = final_value(diff)
            worst = min(worst, diff)
    return worst
