"""One step of a Tumble-Words replay: every roll and every crossword handed in
so far (nothing is secret in a record, sealed submissions included), the
totals, the log with the step marked, and the final result."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import tumble as engine
from games.engine.common.fold import fold_states
from games.kinds.base import Steps
from games.kinds.replay_steps import ReplayStep, step_log, step_words
from games.kinds.tumble.seat_view import (
    ClosedRound,
    RoundSeat,
    TumbleView,
    closed_rounds,
    cubes_of,
    seat_view,
    shown,
)

from .log_words import describe


@dataclass(frozen=True)
class Step(ReplayStep[TumbleView]):
    round: int
    open_round: tuple[RoundSeat, ...]  # with every sealed crossword shown
    last_round: ClosedRound | None
    totals: list[tuple[str, int]]


def _open_round(state: engine.TumbleState) -> tuple[RoundSeat, ...]:
    waiting = state.waiting()
    out = []
    for s, roll, sub in zip(state.seats_in_round, state.rolls, state.sealed, strict=True):
        out.append(
            RoundSeat(
                seat=s,
                name=state.players[s],
                cubes=cubes_of(roll),
                roll=roll,
                submitted=s not in waiting,
                crossword=None if sub is None else shown(sub.crossword),
                points=None if sub is None else sub.points,
                is_me=False,
            )
        )
    return tuple(out)


def replay_step(replay: Steps, step: int) -> Step:
    events = replay.events
    states = fold_states(events, engine.GameStarted, engine.start, engine.evolve)
    words = step_words(events, states, lambda before, event, _after: describe(before, event))
    at = states[step]
    rounds = closed_rounds(at, None)
    return Step(
        step=step,
        last=replay.last_step,
        words=words[step],
        round=at.round,
        open_round=_open_round(at),
        last_round=rounds[0] if rounds else None,
        totals=list(zip(at.players, at.totals, strict=True)),
        log=step_log(words, replay.moves, step),
        final=seat_view(states[-1], None),
        refused=replay.refused,
    )
