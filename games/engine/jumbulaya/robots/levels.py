"""The robot levels, from a beginner a child can beat to the strongest we have.

The weaker levels play like people: they know only the game's words that are
common in English (:mod:`.vocabulary`), keep to short words, and do not always
play their best word (a weighted choice among their few best).  They call a
JUMBULAYA whenever they see one, but they see only the words they know.

``club`` knows every word and weighs each move by what it does to both scores
(a stolen line costs its owner), what it leaves on the rack (:mod:`.leave`),
and whether it ends the game or opens the JUMBULAYA race for the next seat.

``expert`` adds a look at the next seat's reply (:mod:`.simulate`): for its
best candidates, over racks dealt at random from the tiles it cannot see (or
the one rack there is, once the bag is empty), the worst reply each move hands
over: a ten-tile word that ends the game, a stolen line, every line taken.  It
calls a JUMBULAYA only when the call wins, and answers within a time budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ...lexicon import Lexicon
from ..movegen import WordMove, legal_moves
from ..notation import explicit_word
from ..runs import Found
from ..state import GameState, line_points
from ..view import SeatView
from .base import Level, best_jumbulaya, fallback
from .leave import leave_value
from .simulate import (
    WIN,
    after_word,
    best_jumbulaya_points,
    final_value,
    line_replies,
    margin,
    merged,
    replies,
    sample_racks,
    state_value,
    worst_reply,
)
from .vocabulary import vocabulary


def _word(move: WordMove) -> str:
    return f"{move.line + 1} {explicit_word(move.tiles)}"


def _gain(state: GameState, seat: int, move: WordMove, steals: bool) -> int:
    """What ``move`` adds to ``seat``'s score (and, with ``steals``, what it
    takes from the line's owner)."""
    held = state.lines[move.line]
    old = line_points(held.tiles) if held.owner is not None else 0
    if held.owner == seat:
        return move.points - old
    return move.points + (old if steals else 0)


@dataclass(frozen=True)
class Style:
    """How a person-like level plays."""

    min_zipf: float  # the rarest words it knows (wordfreq's Zipf scale)
    max_tiles: int  # the longest word it builds
    weights: tuple[float, ...]  # how often it picks its best, second best, ... move
    steals: bool  # counts what a stolen line costs its owner
    careful: bool  # never ends the game losing; always ends it winning

    def choose(
        self,
        view: SeatView,
        state: GameState,
        lexicon: Lexicon,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        me = view.seat
        known = vocabulary(lexicon, self.min_zipf)
        scored: list[tuple[float, str]] = []
        for move in legal_moves(state, me, known):
            if len(move.code) > self.max_tiles:
                continue
            value = float(_gain(state, me, move, self.steals))
            if self.careful:
                after = after_word(state, me, move)
                if after.over:
                    value = state_value(after, me)
            scored.append((value, _word(move)))
        scored.sort(key=lambda vm: (-vm[0], vm[1]))
        top = [vm for vm in scored[: len(self.weights)] if vm[0] > -WIN]
        if not top or top[0][0] <= 0:
            return fallback(view)
        pick = rng.choices(top, weights=self.weights[: len(top)])[0]
        return pick[1]

    def spot(
        self, view: SeatView, state: GameState, lexicon: Lexicon, rng: random.Random
    ) -> Found | None:
        return best_jumbulaya(view, state, vocabulary(lexicon, self.min_zipf), rng)


def person(name: str, description: str, style: Style) -> Level:
    return Level(name=name, description=description, choose=style.choose, spot=style.spot)


BEGINNER = person(
    "beginner",
    "A child can beat it: common words of at most five tiles, often not its best.",
    Style(
        min_zipf=4.0, max_tiles=5, weights=(0.4, 0.25, 0.15, 0.1, 0.1), steals=False, careful=False
    ),
)

CASUAL = person(
    "casual",
    "The twenty thousand commonest words, up to seven tiles, usually its best.",
    Style(min_zipf=3.0, max_tiles=7, weights=(0.7, 0.2, 0.1), steals=True, careful=True),
)


# --- the levels that know every word --------------------------------------------


def winning_jumbulaya(
    view: SeatView, state: GameState, lexicon: Lexicon, rng: random.Random
) -> Found | None:
    """The best JUMBULAYA on the board when calling it wins (or ties) the game."""
    found = best_jumbulaya(view, state, lexicon, rng)
    if found is None:
        return None
    scores = state.scores()
    scores[view.seat] += found.points
    live = [state.in_game(s) for s in range(state.seats)]
    return found if margin(scores, view.seat, live) >= 0 else None


def next_seat(state: GameState, me: int) -> int:
    """The seat that plays after ``me`` (``me`` itself when no other is left)."""
    opp = (me + 1) % state.seats
    while not state.in_game(opp) and opp != me:
        opp = (opp + 1) % state.seats
    return opp


@dataclass(slots=True)
class Candidate:
    move: WordMove | None  # None: pass or exchange
    after: GameState
    value: float  # static value: margin (or the game's end) plus the leave
    final: bool  # the value is the game's end: no reply to look at
    total: float = 0.0
    samples: int = 0


#: What a pass or exchange is worth less than building nothing costs: the game
#: has to move on (official rules never end a game of passes).
PASS_COST = 1.5


def _candidates(
    view: SeatView, state: GameState, lexicon: Lexicon, leave_scale: float
) -> list[Candidate]:
    me = view.seat
    out: list[Candidate] = []
    for move in legal_moves(state, me, lexicon):
        after = after_word(state, me, move)
        if after.over:
            out.append(Candidate(move, after, state_value(after, me), True))
            continue
        value = state_value(after, me) + leave_value(after.racks[me], leave_scale)
        out.append(Candidate(move, after, value, False))
    out.append(Candidate(None, state, state_value(state, me) - PASS_COST, False))  # pass / exchange
    return out


def _race(cands: Sequence[Candidate], me: int, lexicon: Lexicon) -> None:
    """A move that leaves a JUMBULAYA open hands it to the next seat, which
    calls it: the game ends with its points."""
    for c in cands:
        if c.final or c.move is None:
            continue
        points = best_jumbulaya_points(c.after, lexicon)
        if points:
            scores = c.after.scores()
            opp = next_seat(c.after, me)
            scores[opp] += points
            live = [c.after.in_game(s) for s in range(c.after.seats)]
            c.value = final_value(margin(scores, me, live))
            c.final = True


def _answer(view: SeatView, best: Candidate) -> str:
    if best.move is None:
        return fallback(view)
    return _word(best.move)


def _pick(cands: Sequence[Candidate], key: str, rng: random.Random) -> Candidate:
    def score(c: Candidate) -> float:
        return c.value if key == "value" or c.final or not c.samples else c.total / c.samples

    top = max(score(c) for c in cands)
    return rng.choice([c for c in cands if score(c) >= top - 1e-9])


#: The chance, by a line's tile count, that the next seat can make it ten tiles
#: (a rough guess for the club level, which does not simulate).
TEN_RISK: dict[int, float] = {8: 0.3, 9: 0.5}


def _ten_risk(cands: Sequence[Candidate], me: int) -> None:
    """Weigh each move by the chance the next seat ends the game with a ten-tile
    word on a line the move leaves at eight or nine tiles."""
    for c in cands:
        if c.final:
            continue
        after = c.after
        opp = next_seat(after, me)
        live = [after.in_game(s) for s in range(after.seats)]
        for ln in after.lines:
            risk = TEN_RISK.get(len(ln.tiles))
            if risk is None:
                continue
            scores = after.scores()
            if ln.owner is not None:
                scores[ln.owner] -= line_points(ln.tiles)
            scores[opp] += 20
            ended = final_value(margin(scores, me, live))
            c.value = (1 - risk) * c.value + risk * min(ended, c.value)


def choose_club(
    view: SeatView,
    state: GameState,
    lexicon: Lexicon,
    rng: random.Random,
    budget_ms: float | None = None,
) -> str:
    """The move worth most right after it is made (both scores, the leave, the
    game's end), counting the JUMBULAYA it would hand over."""
    cands = _candidates(view, state, lexicon, 1.0)
    _ten_risk(cands, view.seat)
    cands.sort(key=lambda c: -c.value)
    _race(cands[:30], view.seat, lexicon)
    return _answer(view, _pick(cands, "value", rng))


#: The strongest level's time budget when the caller names none.
EXPERT_BUDGET_MS = 180.0
#: How many candidate moves the strongest level looks past.
EXPERT_WIDTH = 16
#: Most guesses at the next seat's rack per decision.
EXPERT_SAMPLES = 24


def choose_expert(
    view: SeatView,
    state: GameState,
    lexicon: Lexicon,
    rng: random.Random,
    budget_ms: float | None = None,
) -> str:
    """The best candidates by their value right after the move (the club level's
    value without its rough ten-tile guess), each judged by the worst reply it
    hands the next seat, averaged over guesses at that seat's rack; within
    ``budget_ms`` (default :data:`EXPERT_BUDGET_MS`).  Passing is a candidate
    only when it ranks among them."""
    start = time.perf_counter()
    budget = (EXPERT_BUDGET_MS if budget_ms is None else budget_ms) / 1000
    me = view.seat
    cands = _candidates(view, state, lexicon, 1.0)
    cands.sort(key=lambda c: -c.value)
    width = cands[: max(EXPERT_WIDTH, 1)]
    _race(width, me, lexicon)
    live = [c for c in width if not c.final]
    opp = next_seat(state, me)
    if not live or opp == me:
        return _answer(view, _pick(cands, "value", rng))
    leaves = [c.value - state_value(c.after, me) for c in live]
    racks = sample_racks(view.unseen, view.rack_sizes[opp], EXPERT_SAMPLES, rng)
    for rack in racks:
        base = replies(state, opp, rack, lexicon)
        for c, leave in zip(live, leaves, strict=True):
            if c.move is None:
                table = base
            else:
                line = c.after.lines[c.move.line]
                table = merged(base, c.move.line, line_replies(state, line, opp, rack, lexicon))
            c.total += worst_reply(c.after, me, opp, table) + leave
            c.samples += 1
        if time.perf_counter() - start > budget:
            break
    return _answer(view, _pick(width, "sampled", rng))


CLUB = Level(
    name="club",
    description="Every word; weighs both scores, its leave, the game's end and the JUMBULAYA race.",
    choose=choose_club,
    spot=winning_jumbulaya,
)

EXPERT = Level(
    name="expert",
    description="The strongest: every word; simulates the replies each move hands the next seat.",
    choose=choose_expert,
    spot=winning_jumbulaya,
)


__all__ = ["BEGINNER", "CASUAL", "CLUB", "EXPERT", "Style"]
