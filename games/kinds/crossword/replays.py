"""One step of a crossword replay: the board and every rack after it (nothing
is secret in a record), the log with the step marked, and the end."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.common.fold import fold_states
from games.engine.crossword import events
from games.engine.crossword.fold import evolve, start
from games.kinds.crossword.seat_view import CrosswordBoardView, Square, board_view, squares

from ..base import Steps
from ..replay_steps import ReplayStep, step_log, step_words
from .log_words import describe


@dataclass(frozen=True)
class RackRow:
    seat: int
    name: str
    score: int
    rack: str


@dataclass(frozen=True)
class Step(ReplayStep[CrosswordBoardView]):
    rows: list[tuple[int, list[Square]]]
    columns: str
    racks: list[RackRow]
    bag: int


def replay_step(replay: Steps, step: int) -> Step:
    states = fold_states(replay.events, events.GameStarted, start, evolve)
    words = step_words(replay.events, states, describe)
    at = states[step]
    scores = at.scores()
    return Step(
        step=step,
        last=replay.last_step,
        words=words[step],
        rows=squares(at),
        columns=board_view(at, None).columns,
        racks=[RackRow(s, at.players[s], scores[s], at.racks[s]) for s in range(at.seats)],
        bag=len(at.bag),
        log=step_log(words, replay.moves, step),
        final=board_view(states[-1], None),
        refused=replay.refused,
    )
