"""A step of a JUMBULAYA replay, as the replay page shows it: the board and
every rack after the step (nothing is secret in a record), the log in words with
the step marked, the lines the step changed, and where the replay ends.  The
replay itself (a game's log, or an uploaded record's) is the core's
(:mod:`games.core.records`); the replay page reaches this through the kind's
presentation."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.common.fold import fold_states
from games.engine.jumbulaya import (
    Event,
    GameStarted,
    GameState,
    JumbulayaVerified,
    WordBuilt,
    evolve,
    start,
)
from games.kinds.base import Steps
from games.kinds.jumbulaya.log_words import history
from games.kinds.jumbulaya.seat_view import BoardView, board_view, player_names
from games.kinds.replay_steps import ReplayStep, step_log


@dataclass(frozen=True)
class RackView:
    seat: int
    name: str
    tiles: tuple[str, ...]
    score: int
    resigned: bool
    to_move: bool


@dataclass(frozen=True)
class StepView(ReplayStep[BoardView]):
    board: BoardView  # at this step
    racks: list[RackView]  # every rack at this step: nothing is secret in a record
    changed: frozenset[int]  # the numbers (1-9) of the lines this step built on or called down


def _racks(state: GameState) -> list[RackView]:
    scores = state.scores()
    return [
        RackView(
            seat=seat,
            name=name,
            tiles=state.racks[seat],
            score=scores[seat],
            resigned=seat in state.resigned,
            to_move=state.turn == seat,
        )
        for seat, name in enumerate(player_names(state.players))
    ]


def changed_lines(event: Event) -> frozenset[int]:
    """The lines (numbered 1-9) an event built on, or a JUMBULAYA ran down."""
    match event:
        case WordBuilt(line=line):
            return frozenset({line + 1})
        case JumbulayaVerified(lines=lines):
            return frozenset(i + 1 for i in lines)
    return frozenset()


def step_view(replay: Steps, step: int) -> StepView:
    """The replay at ``step`` (in range): the board and every rack after that
    step, the log with that step marked, and where the replay ends."""
    states = fold_states(replay.events, GameStarted, start, evolve)
    words = [entry.words for entry in history(replay.events, replay.sources)]
    return StepView(
        step=step,
        last=replay.last_step,
        board=board_view(states[step], None),
        racks=_racks(states[step]),
        words=words[step],
        changed=changed_lines(replay.events[step]),
        log=step_log(words, replay.moves, step),
        final=board_view(states[-1], None),
        refused=replay.refused,
    )
