"""A step of a JUMBULAYA replay, as the replay page shows it: the board and
every rack after the step (nothing is secret in a record), the log in words with
the step marked, the lines the step changed, and where the replay ends.  The
replay itself (a game's log, or an uploaded record's) is the core's
(:mod:`games.core.records`); the replay page reaches this through the kind's
presentation."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import (
    Event,
    GameStarted,
    GameState,
    JumbulayaVerified,
    WordBuilt,
    evolve,
    start,
)
from games.kinds.base import Steps
from games.kinds.jumbulaya.presenters import BoardView, board_view, history, player_names


@dataclass(frozen=True)
class LogEntry:
    step: int
    words: str
    move: str  # the turn in the notation ("" for the deal)
    current: bool


@dataclass(frozen=True)
class RackView:
    seat: int
    name: str
    tiles: tuple[str, ...]
    score: int
    resigned: bool
    to_move: bool


@dataclass(frozen=True)
class StepView:
    step: int
    last: int
    board: BoardView  # at this step
    racks: list[RackView]  # every rack at this step: nothing is secret in a record
    words: str  # what happened at this step
    changed: frozenset[int]  # the numbers (1-9) of the lines this step built on or called down
    log: list[LogEntry]
    final: BoardView  # where the replay ends
    refused: str | None

    @property
    def prev(self) -> int:
        return max(self.step - 1, 0)

    @property
    def next(self) -> int:
        return min(self.step + 1, self.last)

    @property
    def final_scores(self) -> list[tuple[str, int]]:
        return list(zip(self.final.players, self.final.scores, strict=True))

    @property
    def at_start(self) -> bool:
        return self.step == 0

    @property
    def at_end(self) -> bool:
        return self.step == self.last


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
    started = replay.events[0]
    assert isinstance(started, GameStarted), "a log starts with game_started"
    state = start(started)
    at_step = state
    for n, event in enumerate(replay.events[1:], start=1):
        state = evolve(state, event)
        if n == step:
            at_step = state
    words = history(replay.events, replay.sources)
    log = [
        LogEntry(n, entry.words, replay.moves[n - 1] if n else "", n == step)
        for n, entry in enumerate(words)
    ]
    return StepView(
        step=step,
        last=replay.last_step,
        board=board_view(at_step, None),
        racks=_racks(at_step),
        words=log[step].words,
        changed=changed_lines(replay.events[step]),
        log=log,
        final=board_view(state, None),
        refused=replay.refused,
    )
