"""One step of a Blockers replay: the board and every rack after it (nothing
is secret in a record), the log with the step marked, and the final result."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import blockers as engine
from games.engine.blockers.board import sort_tiles
from games.engine.common.fold import fold_states
from games.kinds.base import Steps
from games.kinds.blockers.log_words import describe
from games.kinds.blockers.seat_view import (
    BlockersView,
    BoardRow,
    SeatSide,
    board_rows,
    seat_view,
    sides,
)
from games.kinds.replay_steps import ReplayStep, step_log, step_words


@dataclass(frozen=True)
class RackRow:
    side: SeatSide
    tiles: tuple[str, ...]
    to_move: bool
    resigned: bool


@dataclass(frozen=True)
class Step(ReplayStep[BlockersView]):
    rows: list[BoardRow]
    racks: list[RackRow]
    changed: str | None  # the square this step's move changed


def _square(event: engine.Event) -> str | None:
    if isinstance(event, engine.TilePlaced | engine.TimedOut):
        return event.square
    return None


def replay_step(replay: Steps, step: int) -> Step:
    events = replay.events
    states = fold_states(events, engine.GameStarted, engine.start, engine.evolve)
    words = step_words(events, states, lambda before, event, _after: describe(before, event))
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
        log=step_log(words, replay.moves, step),
        final=seat_view(states[-1], None),
        refused=replay.refused,
    )
