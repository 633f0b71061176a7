"""The one fold: ``evolve(state, event) -> state``, and the end of the game.

The end (spec reading 7): with two players, after a round the top total at or
above the target wins when one player holds it alone; a tie at the top plays
another round.  With three or more, a player wins as soon as his own turn
takes him to the target; with ``play_out`` the round is finished first (until
the turn would come back round to the first player), and the top total wins,
a tie at the top playing another round.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..common import fold as common
from .events import Event, GameStarted, Resigned, Rolled, RoundClosed, Submitted, TimedOut
from .state import ClosedRound, Submission, TumbleState


def start(event: GameStarted) -> TumbleState:
    seats = (0, 1) if len(event.players) == 2 else (event.first,)
    return TumbleState(
        options=event.options,
        players=event.players,
        rolloff=event.rolloff,
        first=event.first,
        round=1,
        seats_in_round=seats,
        rolls=event.rolls,
        sealed=(None,) * len(seats),
        totals=(0,) * len(event.players),
        seq=1,
    )


def next_seat(state: TumbleState, after: int) -> int:
    """The next seat to the left of ``after`` still in the game."""
    n = state.seats
    seat = (after + 1) % n
    while seat in state.resigned:
        seat = (seat + 1) % n
    return seat


def _copy(s: TumbleState) -> TumbleState:
    return TumbleState(
        s.options,
        s.players,
        s.rolloff,
        s.first,
        s.round,
        s.seats_in_round,
        s.rolls,
        s.sealed,
        s.totals,
        s.resigned,
        s.history,
        s.end,
        s.seq,
    )


def _sole_top(d: TumbleState) -> bool:
    """Whether one player alone holds the top total, at or above the target."""
    live = [d.totals[s] for s in range(d.seats) if s not in d.resigned]
    top = max(live)
    return top >= d.options.target and live.count(top) == 1


def _lap_ends(d: TumbleState, seat: int) -> bool:
    """Whether the turn after ``seat`` starts a new round of turns (it comes
    back round to the first player, or past him if he has left)."""
    n = d.seats
    nxt = next_seat(d, seat)
    return (nxt - d.first) % n <= (seat - d.first) % n


def _turn_over(d: TumbleState, seat: int) -> None:
    """The end check after ``seat``'s turn (three or more players)."""
    if d.options.play_out:
        if _lap_ends(d, seat) and _sole_top(d):
            d.end = "target"
    elif seat not in d.resigned and d.totals[seat] >= d.options.target:
        d.end = "target"


def evolve(state: TumbleState, event: Event) -> TumbleState:
    """The state after ``event``.  Events come from ``decide`` and are trusted."""
    d = _copy(state)
    d.seq += 1
    match event:
        case Submitted(seat, crossword, points):
            sealed = list(d.sealed)
            sealed[d.seats_in_round.index(seat)] = Submission(crossword, points)
            d.sealed = tuple(sealed)
        case TimedOut():
            pass  # the round's close that follows says what it cost
        case RoundClosed(number, seats, crosswords, points):
            totals = list(d.totals)
            for seat, p in zip(seats, points, strict=True):
                totals[seat] += p
            d.totals = tuple(totals)
            d.history = (*d.history, ClosedRound(number, seats, d.rolls, crosswords, points))
            d.seats_in_round, d.rolls, d.sealed = (), (), ()
            if d.sealed_rounds:
                if _sole_top(d):
                    d.end = "target"
            else:
                _turn_over(d, seats[0])
        case Rolled(number, seats, rolls):
            d.round = number
            d.seats_in_round = seats
            d.rolls = rolls
            d.sealed = (None,) * len(seats)
        case Resigned(seat):
            on_turn = seat in d.seats_in_round
            d.resigned = d.resigned | {seat}
            if d.seats - len(d.resigned) < 2:
                d.end = "resigned"
            elif on_turn:  # three or more: his turn is lost, the next seat rolls
                d.seats_in_round, d.rolls, d.sealed = (), (), ()
                _turn_over(d, seat)
        case GameStarted():
            raise ValueError("a game starts only once")
        case _:
            raise TypeError(f"not an event: {event!r}")
    if d.end is not None:
        d.seats_in_round, d.rolls, d.sealed = (), (), ()
    return d


def replay(events: Iterable[Event]) -> TumbleState:
    """Fold a whole log (its first event is :class:`GameStarted`)."""
    return common.replay(events, GameStarted, start, evolve)
