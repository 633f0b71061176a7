"""One step of a Tumble-Words replay: every roll and every crossword handed in
so far (nothing is secret in a record, sealed submissions included), the
totals, the log with the step marked, and the final result."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import tumble as engine
from games.kinds.base import Steps

from .log_words import describe
from .seat_views import (
    ClosedRound,
    RoundSeat,
    TumbleView,
    closed_rounds,
    cubes_of,
    seat_view,
    shown,
)


@dataclass(frozen=True)
class StepEntry:
    step: int
    words: str
    move: str
    current: bool


@dataclass(frozen=True)
class Step:
    step: int
    last: int
    words: str
    round: int
    open_round: tuple[RoundSeat, ...]  # with every sealed crossword shown
    last_round: ClosedRound | None
    totals: list[tuple[str, int]]
    log: list[StepEntry]
    final: TumbleView
    refused: str | None

    @property
    def prev(self) -> int:
        return max(self.step - 1, 0)

    @property
    def next(self) -> int:
        return min(self.step + 1, self.last)

    @property
    def at_start(self) -> bool:
        return self.step == 0

    @property
    def at_end(self) -> bool:
        return self.step == self.last

    @property
    def final_scores(self) -> list[tuple[str, int]]:
        return list(zip(self.final.players, self.final.scores, strict=True))


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
    events = list(replay.events)
    started = events[0]
    assert isinstance(started, engine.GameStarted)
    states = [engine.start(started)]
    for event in events[1:]:
        states.append(engine.evolve(states[-1], event))
    words = [describe(states[0], started)] + [
        describe(states[i], events[i + 1]) for i in range(len(events) - 1)
    ]
    moves = ("", *replay.moves)
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
        log=[StepEntry(i, words[i], moves[i], i == step) for i in range(len(states))],
        final=seat_view(states[-1], None),
        refused=replay.refused,
    )
