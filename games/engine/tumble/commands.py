"""Commands: ``decide(state, seat, move, words, roll) -> events``.

Checks run in this order: ``game_over`` → ``not_in_game`` → ``not_your_turn``
(read from the move's verb: ``resign`` may be sent at any time) → ``bad_move``
→ the crossword's own checks (:mod:`.score`, in the spec's
order: ``bad_grid``, ``face_not_rolled``, ``cube_used_twice``, ``not_a_word``,
``lone_letter``, ``disconnected``, ``colours_not_rolled``).  The roller is the
only source of chance: it rolls the next round when a move closes one.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Container

from ..common.turns import check_in_game
from ..errors import Refusal
from .cubes import CUBE_COUNT, roll_cubes
from .events import Event, Resigned, Rolled, RoundClosed, Submitted, TimedOut
from .fold import evolve, next_seat
from .notation import Command, Resign, Submit, Timeout, parse_move, verb_of
from .score import check
from .state import TumbleState

#: ``roll(count)`` rolls ``count`` sets of cubes (one a seat of the next round).
Roller = Callable[[int], tuple[str, ...]]

#: What a round scores for a seat that submitted nothing: every cube unused.
NOTHING_SUBMITTED = -CUBE_COUNT


def roller(rng: random.Random) -> Roller:
    """A roller drawing every face with ``rng``."""

    def roll(count: int) -> tuple[str, ...]:
        return tuple(roll_cubes(rng) for _ in range(count))

    return roll


_SYSTEM = secrets.SystemRandom()
#: Rolls from the operating system's generator, at the moment of rolling.
roll_random: Roller = roller(_SYSTEM)


def _round_checks(state: TumbleState, seat: int, verb: str) -> None:
    if seat in state.seats_in_round:
        if verb == "timeout" and state.submission_of(seat) is not None:
            raise Refusal(
                "not_your_turn",
                f"{state.players[seat]} has already submitted for round {state.round}: a "
                "deadline is written for a seat that has not.",
            )
        return
    assert state.turn is not None
    raise Refusal(
        "not_your_turn",
        f"It is {state.players[state.turn]}'s turn, not yours: with three or more players "
        "each plays the cubes in turn.",
    )


def decide(
    state: TumbleState,
    seat: int,
    move: str | Command,
    words: Container[str],
    roll: Roller = roll_random,
) -> list[Event]:
    """The events that record ``seat`` making ``move``, or a :class:`Refusal`."""
    check_in_game(state, seat)
    if isinstance(move, str):
        verb = verb_of(move)
        if verb != "resign":
            _round_checks(state, seat, verb)
        command = parse_move(move)
    else:
        command = move
        if not isinstance(command, Resign):
            _round_checks(state, seat, "timeout" if isinstance(command, Timeout) else "submit")
    if isinstance(command, Resign):
        return _resign(state, seat, roll)
    if isinstance(command, Timeout):
        events: list[Event] = [TimedOut(s) for s in state.waiting()]
        return events + _close(state, {}, roll)
    assert isinstance(command, Submit)
    roll_of = state.roll_of(seat)
    assert roll_of is not None
    scored = check(command.crossword, roll_of, words, state.options.younger)
    submitted = Submitted(seat, scored.crossword.text(), scored.total)
    if set(state.waiting()) <= {seat}:
        return [submitted, *_close(state, {seat: submitted}, roll)]
    return [submitted]


def _close(state: TumbleState, new: dict[int, Submitted], roll: Roller) -> list[Event]:
    """The round's reveal and score, then the next round's rolls unless the
    game is over."""
    crosswords: list[str | None] = []
    points: list[int] = []
    for seat, sub in zip(state.seats_in_round, state.sealed, strict=True):
        if seat in new:
            crosswords.append(new[seat].crossword)
            points.append(new[seat].points)
        elif sub is not None:
            crosswords.append(sub.crossword)
            points.append(sub.points)
        else:
            crosswords.append(None)
            points.append(NOTHING_SUBMITTED)
    closed = RoundClosed(state.round, state.seats_in_round, tuple(crosswords), tuple(points))
    after = evolve(state, closed)
    if after.over:
        return [closed]
    return [closed, _next_round(after, state.seats_in_round[-1], roll)]


def _next_round(after: TumbleState, last: int, roll: Roller) -> Rolled:
    seats = (0, 1) if after.sealed_rounds else (next_seat(after, last),)
    rolls = tuple(roll(len(seats)))
    if len(rolls) != len(seats):
        raise ValueError(f"the roller rolled {len(rolls)} sets, not {len(seats)}")
    return Rolled(after.round + 1, seats, rolls)


def _resign(state: TumbleState, seat: int, roll: Roller) -> list[Event]:
    resigned = Resigned(seat)
    after = evolve(state, resigned)
    if after.over or seat not in state.seats_in_round:
        return [resigned]
    return [resigned, _next_round(after, seat, roll)]
