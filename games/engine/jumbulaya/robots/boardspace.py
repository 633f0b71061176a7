"""A baseline built from Boardspace's JUMBULAYA robot, as it works (issue 12).

It is the benchmark's yardstick, not one of :data:`~games.engine.jumbulaya.robots.LEVELS`.
On its turn, in this order:

1. it calls the best JUMBULAYA on the board when calling it makes it win (only
   on its own turn, never off turn);
2. it builds a 10-tile word (which ends the game) when that makes it win; it
   never builds one that does not;
3. it claims the last unclaimed line when that opens the JUMBULAYA race for it:
   after the word every line is claimed, one holds 7+ tiles, and the board
   holds a JUMBULAYA that would make it win;
4. otherwise it values every word the rack and a line can make (at most
   ``rack_limit`` rack tiles, at least one line tile, not shorter, new: the
   set :func:`~games.engine.jumbulaya.movegen.scan_moves` finds by scanning the word list,
   found here by :func:`~games.engine.jumbulaya.movegen.legal_moves`, which gives the same
   set faster): the word's score, minus the line's old score if it owns the
   line, plus 10 for an unclaimed line when it is ahead, plus its lead.  Words
   of 8 or more tiles are skipped unless it would then lead by 20.  It plays the
   word of highest value (ties at random);
5. with no word, it discards its whole rack (``exchange all``; ``pass`` when
   the bag holds fewer tiles than the rack).

It uses whatever word list it is given: give it the full list (the issue notes
Boardspace's own robot appears to use a small vocabulary at every level).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...lexicon import Lexicon
from ...tiles import JUMBULAYA_MIN, MAX_LINE_TILES
from ..movegen import WordMove, legal_moves
from ..notation import explicit_word
from ..runs import Found, search
from ..state import GameState, line_points
from ..view import SeatView
from .base import Level, fallback

#: Bonus for claiming an unclaimed line while ahead.
UNCLAIMED_BONUS = 10
#: Words of this many tiles or more need the lead below after them.
LONG_WORD = 8
LONG_WORD_LEAD = 20


def lead_of(scores: Sequence[int], seat: int, in_game: Sequence[bool]) -> int:
    """``seat``'s score less the best other score still in the game."""
    others = [s for i, s in enumerate(scores) if i != seat and in_game[i]]
    return scores[seat] - max(others, default=0)


def scores_after(scores: Sequence[int], state: GameState, move: WordMove, seat: int) -> list[int]:
    """Every seat's score once ``seat`` has made ``move`` (the line changes hands)."""
    out = list(scores)
    held = state.lines[move.line]
    if held.owner is not None:
        out[held.owner] -= line_points(held.tiles)
    out[seat] += move.points
    return out


def _keeps_a_line_tile(move: WordMove, limit: int) -> bool:
    # A word built only from rack tiles needs a line of at most ``limit`` tiles.
    return len(move.line_tiles) > limit or len(move.from_rack) < len(move.tiles)


def _notation(move: WordMove) -> str:
    return f"{move.line + 1} {explicit_word(move.tiles)}"


def _opens_race_for(
    state: GameState, lexicon: Lexicon, move: WordMove, seat: int, after: list[int]
) -> bool:
    """After ``move`` on the last unclaimed line the race is open and the board
    holds a JUMBULAYA that would make ``seat`` win."""
    lines = [ln.tiles for ln in state.lines]
    lines[move.line] = move.tiles
    if max(len(t) for t in lines) < JUMBULAYA_MIN:
        return False
    found = search(lines, lexicon, state.rules)
    if not found:
        return False
    mine = list(after)
    mine[seat] += found[0].points
    return lead_of(mine, seat, [state.in_game(s) for s in range(state.seats)]) > 0


def choose_boardspace(
    view: SeatView,
    state: GameState,
    lexicon: Lexicon,
    rng: random.Random,
    budget_ms: float | None = None,
) -> str:
    """Boardspace's choice on its own turn (see the module's docstring); it
    searches one ply only, so it ignores the time budget."""
    seat = view.seat
    scores = list(view.scores)
    lead = lead_of(scores, seat, view.in_game)
    limit = state.rules.rack_limit
    unclaimed = [i for i, ln in enumerate(state.lines) if ln.owner is None]
    last_line = unclaimed[0] if len(unclaimed) == 1 else None
    winning_ten: list[tuple[int, WordMove]] = []
    race: list[tuple[int, WordMove]] = []
    valued: list[tuple[int, WordMove]] = []
    for move in legal_moves(state, seat, lexicon):
        if not _keeps_a_line_tile(move, limit):
            continue
        after = scores_after(scores, state, move, seat)
        after_lead = lead_of(after, seat, view.in_game)
        size = len(move.tiles)
        if size == MAX_LINE_TILES:
            if after_lead > 0:
                winning_ten.append((after_lead, move))
            continue
        if size >= LONG_WORD and after_lead < LONG_WORD_LEAD:
            continue
        held = state.lines[move.line]
        value = move.points + lead
        if held.owner == seat:
            value -= line_points(held.tiles)
        elif held.owner is None and lead > 0:
            value += UNCLAIMED_BONUS
        valued.append((value, move))
        if move.line == last_line and _opens_race_for(state, lexicon, move, seat, after):
            race.append((value, move))
    for group in (winning_ten, race, valued):
        if group:
            top = max(v for v, _ in group)
            return _notation(rng.choice([m for v, m in group if v == top]))
    return fallback(view)


def spot_on_turn(
    view: SeatView, state: GameState, lexicon: Lexicon, rng: random.Random
) -> Found | None:
    """The best JUMBULAYA, on its own turn only, and only when it makes it win."""
    if view.next != view.seat or not view.in_game[view.seat] or view.barred[view.seat]:
        return None
    if not state.jumbulaya_open():
        return None
    found = search([ln.tiles for ln in state.lines], lexicon, state.rules)
    if not found:
        return None
    scores = list(view.scores)
    scores[view.seat] += found[0].points
    return found[0] if lead_of(scores, view.seat, view.in_game) > 0 else None


BOARDSPACE = Level(
    name="boardspace",
    description="Boardspace's robot as it works: one-ply word values with its own "
    "adjustments, a discard when no word fits (the benchmark's baseline).",
    choose=choose_boardspace,
    spot=spot_on_turn,
)
