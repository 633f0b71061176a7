"""One step of a crossword replay: the board and every rack after it (nothing
is secret in a record), the log with the step marked, and the end."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.crossword import events
from games.engine.crossword.fold import evolve, start

from ..base import Steps
from .board_view import CrosswordBoardView, Square, board_view, squares
from .log_words import describe


@dataclass(frozen=True)
class StepEntry:
    step: int
    words: str
    move: str
    current: bool


@dataclass(frozen=True)
class RackRow:
    seat: int
    name: str
    score: int
    rack: str


@dataclass(frozen=True)
class Step:
    step: int
    last: int
    words: str
    rows: list[tuple[int, list[Square]]]
    columns: str
    racks: list[RackRow]
    bag: int
    log: list[StepEntry]
    final: CrosswordBoardView
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


def replay_step(replay: Steps, step: int) -> Step:
    log = list(replay.events)
    started = log[0]
    assert isinstance(started, events.GameStarted)
    states = [start(started)]
    for event in log[1:]:
        states.append(evolve(states[-1], event))
    words = [describe(states[0], started, states[0])] + [
        describe(states[i], log[i + 1], states[i + 1]) for i in range(len(log) - 1)
    ]
    moves = ("", *replay.moves)
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
        log=[StepEntry(i, words[i], moves[i], i == step) for i in range(len(states))],
        final=board_view(states[-1], None),
        refused=replay.refused,
    )
