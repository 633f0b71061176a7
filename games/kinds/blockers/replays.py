"""One step of a Blockers replay: the board and every rack after it (nothing
is secret in a record), the log with the step marked, and the final result."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import blockers as engine
from games.engine.blockers.board import sort_tiles
from games.kinds.base import Steps

from .seat_views import BlockersView, BoardRow, SeatSide, board_rows, seat_view, sides
from .words import describe


@dataclass(frozen=True)
class StepEntry:
    step: int
    words: str
    move: str
    current: bool


@dataclass(frozen=True)
class RackRow:
    side: SeatSide
    tiles: tuple[str, ...]
    to_move: bool
    resigned: bool


@dataclass(frozen=True)
class Step:
    step: int
    last: int
    words: str
    rows: list[BoardRow]
    racks: list[RackRow]
    changed: str | None  # the square this step's move changed
    log: list[StepEntry]
    final: BlockersView
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


def _square(event: engine.Event) -> str | None:
    if isinstance(event, engine.TilePlaced | engine.TimedOut):
        return event.square
    return None


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
    return Step(
        step=step,
        last=replay.last_step,
        words=words[step],
        rows=board_rows(at),
        racks=[
            RackRow(
                side,
                sort_tiles(at.racks[side.seat]),
                at.turn == side.seat,
                side.seat in at.resigned,
            )
            for side in sides(at)
        ],
        changed=_square(events[step]) if step > 0 else None,
        log=[StepEntry(i, words[i], moves[i], i == step) for i in range(len(states))],
        final=seat_view(states[-1], None),
        refused=replay.refused,
    )
