"""The one fold: ``evolve(state, event) -> state``.

Everything that follows from an event without a choice is worked out here:
racks and the bag, the open play (``async`` challenges) and its withdrawal,
the turns a wrong challenge costs, whose turn is next, the end of the game and
the unplayed letters' adjustments.  In ``async`` mode a play that would end
the game (going out, reaching a target) leaves it pending: the next seat
challenges it or accepts the end (``pass``, or a ``timeout``).  The fold
copies the state once per event and changes only the copy; the state it is
given never changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..common import fold as common
from .board import lift, place, rack_value
from .commands import rack_tiles, take
from .events import (
    ChallengeFailed,
    Event,
    Exchanged,
    GameStarted,
    Passed,
    Played,
    PlayWithdrawn,
    Resigned,
    TimedOut,
)
from .state import SCORELESS_LIMIT, EndReason, GameState, OpenPlay, as_bag


def start(event: GameStarted) -> GameState:
    n = len(event.players)
    return GameState(
        options=event.options,
        players=event.players,
        board=event.board,
        racks=event.racks,
        bag=as_bag(event.bag),
        turn=event.first,
        points=(0,) * n,
        adjustments=(0,) * n,
        targets=event.options.targets(n),
        skips=(0,) * n,
        seq=1,
    )


def _copy(s: GameState) -> GameState:
    return GameState(
        s.options,
        s.players,
        s.board,
        s.racks,
        s.bag,
        s.turn,
        s.points,
        s.adjustments,
        s.targets,
        s.resigned,
        s.skips,
        s.scoreless,
        s.open_play,
        s.end,
        s.finisher,
        s.seq,
        s.last_play,
        s.pending_end,
    )


def _finish(d: GameState, end: EndReason, finisher: int | None = None) -> None:
    """End the game; going out or running out of scoring turns adjusts the
    scores by the unplayed letters.  Nothing stays open once it is over."""
    d.end = end
    d.turn = None
    d.finisher = finisher
    d.open_play = None
    d.pending_end = None
    if end in ("went_out", "scoreless"):
        left = [rack_value(r) for r in d.racks]
        adjust = [-v for v in left]
        if finisher is not None:
            adjust[finisher] += sum(left)
        d.adjustments = tuple(adjust)


def _scoreless_turn(d: GameState) -> bool:
    """Count one scoreless turn; end the game (and say so) at the limit."""
    d.scoreless += 1
    if d.scoreless >= SCORELESS_LIMIT:
        _finish(d, "scoreless")
        return True
    return False


def _pass_turn(d: GameState, after: int) -> None:
    """Give the turn to the next seat after ``after`` still in the game, taking
    the turns seats must lose on the way (each one a scoreless turn)."""
    n = len(d.players)
    seat = after
    while True:
        seat = (seat + 1) % n
        if seat in d.resigned:
            continue
        if d.skips[seat]:
            skips = list(d.skips)
            skips[seat] -= 1
            d.skips = tuple(skips)
            if _scoreless_turn(d):
                return
            continue
        d.turn = seat
        return


def _await_answer(d: GameState, after: int) -> None:
    """While an end is pending, give the turn to the next seat after ``after``
    still in the game, the mover aside.  Answering is no turn of play, so no
    lost turn is taken on the way."""
    assert d.open_play is not None
    n = len(d.players)
    seat = after
    while True:
        seat = (seat + 1) % n
        if seat not in d.resigned and seat != d.open_play.seat:
            d.turn = seat
            return


def _accept(d: GameState) -> None:
    """End the game as the open play made it."""
    assert d.open_play is not None and d.pending_end is not None
    _finish(d, d.pending_end, d.open_play.seat)


def _turn_without_score(d: GameState, seat: int) -> None:
    if not _scoreless_turn(d):
        _pass_turn(d, seat)


def _played(d: GameState, event: Played) -> None:
    seat = event.seat
    before = d.racks[seat]
    racks = list(d.racks)
    racks[seat] = take(before, rack_tiles(event.letters)) + event.drawn
    d.racks = tuple(racks)
    d.board = place(d.board, event.squares, event.letters)
    d.last_play = event.squares
    d.bag = take(d.bag, event.drawn)
    points = list(d.points)
    points[seat] += event.points
    d.points = tuple(points)
    d.open_play = (
        OpenPlay(seat, event.squares, event.words, event.points, event.drawn, before, d.scoreless)
        if d.options.challenge == "async"
        else None
    )
    d.scoreless = 0 if event.points > 0 else d.scoreless + 1
    ends: EndReason | None = None
    if d.targets is not None and d.points[seat] >= d.targets[seat]:
        ends = "target"
    elif not racks[seat] and not d.bag:
        ends = "went_out"
    if ends is not None and d.open_play is not None:
        d.pending_end = ends
        _await_answer(d, seat)
    elif ends is not None:
        _finish(d, ends, seat)
    elif d.scoreless >= SCORELESS_LIMIT:
        _finish(d, "scoreless")
    else:
        _pass_turn(d, seat)


def _withdrawn(d: GameState, event: PlayWithdrawn) -> None:
    """Put the open play back: the tiles on the mover's rack as it was, the
    drawn tiles mixed into the bag (the next draw is as random as any), the
    points off; its turn becomes a scoreless one.  A play that would have
    ended the game ends nothing: the game goes on from the seat after the
    mover."""
    made = d.open_play
    assert made is not None
    mover = made.seat
    ending = d.ending
    d.open_play = None
    d.pending_end = None
    d.board = lift(d.board, made.squares)
    d.last_play = ()
    racks = list(d.racks)
    racks[mover] = made.rack
    d.racks = tuple(racks)
    d.bag = as_bag(d.bag + made.drawn)
    points = list(d.points)
    points[mover] -= made.points
    d.points = tuple(points)
    if made.points > 0:  # the play had reset the count: count it again, with what followed
        d.scoreless = made.scoreless + 1 + d.scoreless
    if d.scoreless >= SCORELESS_LIMIT:
        _finish(d, "scoreless")
    elif ending:
        _pass_turn(d, mover)


def _failed(d: GameState, seat: int) -> None:
    """A wrong challenge: the challenger loses a turn, unless the play ends
    the game, which it now does."""
    if d.ending:
        _accept(d)
        return
    d.open_play = None
    if d.turn == seat:
        _turn_without_score(d, seat)
    else:
        skips = list(d.skips)
        skips[seat] += 1
        d.skips = tuple(skips)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``.  Events come from :func:`decide` and are
    trusted: the fold checks nothing."""
    d = _copy(state)
    d.seq += 1
    match event:
        case Played():
            _played(d, event)
        case Passed(seat) | TimedOut(seat):
            if d.ending:
                _accept(d)
            else:
                d.open_play = None
                _turn_without_score(d, seat)
        case Exchanged(seat, tiles, drawn):
            d.open_play = None
            racks = list(d.racks)
            racks[seat] = take(racks[seat], tiles) + drawn
            d.racks = tuple(racks)
            d.bag = as_bag(take(d.bag, drawn) + tiles)
            _turn_without_score(d, seat)
        case PlayWithdrawn():
            _withdrawn(d, event)
        case ChallengeFailed(seat):
            _failed(d, seat)
        case Resigned(seat):
            d.resigned = d.resigned | {seat}
            if len(d.players) - len(d.resigned) < 2:
                _finish(d, "resigned")
            elif d.turn == seat and d.ending:
                _await_answer(d, seat)
            elif d.turn == seat:
                _pass_turn(d, seat)
        case GameStarted():
            raise ValueError("a game starts only once")
        case _:
            raise TypeError(f"not an event: {event!r}")
    return d


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole log (its first event is :class:`GameStarted`)."""
    return common.replay(events, GameStarted, start, evolve)
