"""The one fold: ``evolve(state, event) -> state``, and :func:`replay` of a log.

Everything that follows from an event without a choice is worked out here: the
rack and pile bookkeeping, the captured tile going face up to its taker, the
turn count, whose turn is next (seats that resigned or have taken their 24
turns are skipped) and the end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..common import fold as common
from .board import SQUARE_INDEX, TURNS_EACH
from .events import Event, GameStarted, Passed, Resigned, TilePlaced, TimedOut
from .state import BlockersState, empty_board


def start(event: GameStarted) -> BlockersState:
    owners, faces = empty_board()
    n = len(event.players)
    return BlockersState(
        options=event.options,
        players=event.players,
        owners=owners,
        faces=faces,
        racks=event.racks,
        piles=event.piles,
        captures=((0,) * n,) * n,
        taken=((),) * n,
        turns_taken=(0,) * n,
        turn=event.first,
        seq=1,
    )


def _next_turn(state: BlockersState, after: int) -> int | None:
    """The next seat round from ``after`` still in the game with turns left."""
    n = state.seats
    for k in range(1, n + 1):
        seat = (after + k) % n
        if seat not in state.resigned and state.turns_taken[seat] < TURNS_EACH:
            return seat
    return None


def _set(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _placed(
    state: BlockersState, seat: int, tile: str, square: str, drawn: str | None
) -> BlockersState:
    i = SQUARE_INDEX[square]
    owner = state.owners[i]
    captures, taken = state.captures, state.taken
    if owner >= 0:
        captures = (
            *captures[:seat],
            _set(captures[seat], owner, captures[seat][owner] + 1),
            *captures[seat + 1 :],
        )
        taken = (*taken[:seat], (*taken[seat], (state.faces[i], owner)), *taken[seat + 1 :])
    rack = list(state.racks[seat])
    rack.remove(tile)
    piles = state.piles
    if drawn is not None:
        rack.append(drawn)
        left = tuple(t for t in piles[seat] if t != drawn)  # each tile is once in a pile
        piles = (*piles[:seat], left, *piles[seat + 1 :])
    return replace(
        state,
        owners=_set(state.owners, i, seat),
        faces=(*state.faces[:i], tile, *state.faces[i + 1 :]),
        racks=(*state.racks[:seat], tuple(rack), *state.racks[seat + 1 :]),
        piles=piles,
        captures=captures,
        taken=taken,
    )


def _turn_done(state: BlockersState, seat: int) -> BlockersState:
    counted = replace(state, turns_taken=_set(state.turns_taken, seat, state.turns_taken[seat] + 1))
    after = _next_turn(counted, seat)
    if after is None:
        return replace(counted, turn=None, end="complete")
    return replace(counted, turn=after)


def evolve(state: BlockersState, event: Event) -> BlockersState:
    """The state after ``event``.  Events come from :func:`~.commands.decide` and
    are trusted: the fold checks nothing, and never changes ``state``."""
    match event:
        case TilePlaced(seat, tile, square, _, drawn):
            new = _turn_done(_placed(state, seat, tile, square, drawn), seat)
        case TimedOut(seat, tile, square, _, drawn):
            if tile is not None and square is not None:
                state = _placed(state, seat, tile, square, drawn)
            new = _turn_done(state, seat)
        case Passed(seat):
            new = _turn_done(state, seat)
        case Resigned(seat):
            resigned = state.resigned | {seat}
            new = replace(state, resigned=resigned)
            if state.seats - len(resigned) < 2:
                new = replace(new, turn=None, end="resigned")
            elif state.turn == seat:
                after = _next_turn(new, seat)
                new = replace(new, turn=after, end=None if after is not None else "complete")
        case GameStarted():
            raise ValueError("a game starts only once")
        case _:
            raise TypeError(f"not an event: {event!r}")
    return replace(new, seq=state.seq + 1)


def replay(events: Iterable[Event]) -> BlockersState:
    """Fold a whole log (its first event is :class:`GameStarted`)."""
    return common.replay(events, GameStarted, start, evolve)
