"""The analysis of a finished crossword game (``crossword-analysis/1``): per
turn, the move played against the best word move by points for the mover's
rack then, the strongest robot's choice, and the points left on the table.

"Best" is the highest-scoring word move, nothing more: it weighs no rack leave
and no reply, so a turn that kept good tiles or exchanged on purpose shows
points "left" that were a fair price.  A play later withdrawn by a challenge
counts for nothing.  Moves that answer a play are no turns of play: a
challenge that takes the play back leaves the challenger's turn theirs (the
play they then make is the turn weighed), and a pass that accepts the end a
last play makes is shown as ``accept``.  A wrong challenge on one's own turn
loses that turn, and is weighed as one.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.engine.crossword import events, robots, view
from games.engine.crossword.fold import evolve, start
from games.engine.crossword.record import turn_moves
from games.engine.crossword.state import GameState
from games.kinds.crossword.word_index import CrosswordWords

from .moves import scored_moves
from .view_reading import read_view

FORMAT = "crossword-analysis/1"
#: How many missed chances a player's totals name.
BIGGEST = 3


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    turn: int  # the record's turn index
    seat: int
    move: str
    points: int
    best: str | None  # None: no word move, or not the mover's turn (a challenge)
    best_points: int
    robot: str | None
    on_turn: bool

    @property
    def missed(self) -> int:
        return max(0, self.best_points - self.points) if self.on_turn else 0


@dataclass(frozen=True, slots=True)
class MissedChance:
    turn: int
    played: str
    best: str
    missed: int


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    seat: int
    scored: int
    left: int
    biggest: tuple[MissedChance, ...]


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    players: tuple[str, ...]
    robot: str | None  # the level whose choices are shown, if any
    turns: tuple[TurnAnalysis, ...]
    totals: tuple[PlayerTotals, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": list(self.players),
            "robot": self.robot,
            "turns": [asdict(t) for t in self.turns],
            "totals": [
                {**asdict(t), "biggest": [asdict(m) for m in t.biggest]} for t in self.totals
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> GameAnalysis:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not an analysis of format {FORMAT!r}")
        return cls(
            tuple(data["players"]),
            data["robot"],
            tuple(TurnAnalysis(**t) for t in data["turns"]),
            tuple(
                PlayerTotals(
                    t["seat"],
                    t["scored"],
                    t["left"],
                    tuple(MissedChance(**m) for m in t["biggest"]),
                )
                for t in data["totals"]
            ),
        )


def _robot_choice(
    log: Sequence[events.Event],
    state: GameState,
    seat: int,
    words: CrosswordWords,
    level: str,
    budget_ms: float,
    seed: int,
) -> str:
    started = log[0]
    assert isinstance(started, events.GameStarted)
    seen = read_view(view.seat_view(log, state, seat, lexicon=started.lexicon))
    chosen = robots.robot(level, words.dawg).choose(seen.position(), random.Random(seed), budget_ms)
    return chosen.notation


def analyse(
    log: Sequence[events.Event],
    words: CrosswordWords,
    level: str | None,
    budget_ms: float,
    seed: int,
) -> GameAnalysis:
    """The analysis of a game's whole log (the deal first)."""
    started = log[0]
    if not isinstance(started, events.GameStarted):
        raise ValueError("a log starts with game_started")
    moves = turn_moves(log)
    state = start(started)
    turns: list[TurnAnalysis] = []
    for i, event in enumerate(log[1:]):
        seat = events.event_seat(event)
        assert seat is not None
        # Answering a play that would end the game is no turn of play, nor is a
        # challenge that takes the play back (the challenger is still to play).
        on_turn = (
            seat == state.turn
            and not isinstance(event, events.Resigned | events.PlayWithdrawn)
            and not state.ending
        )
        best, best_points, robot = None, 0, None
        if on_turn:
            found = scored_moves(state, seat, words)
            if found:
                best, best_points = found[0]
            if level is not None:
                robot = _robot_choice(log[: i + 2], state, seat, words, level, budget_ms, seed)
        points = event.points if isinstance(event, events.Played) else 0
        move = "accept" if state.ending and isinstance(event, events.Passed) else moves[i]
        turns.append(TurnAnalysis(i, seat, move, points, best, best_points, robot, on_turn))
        if isinstance(event, events.PlayWithdrawn):
            j = max(k for k, t in enumerate(turns) if t.seat == event.mover and t.points)
            made = turns[j]
            turns[j] = dataclasses.replace(made, move=f"{made.move} (withdrawn)", points=0)
        state = evolve(state, event)
    scores = state.scores()
    totals = []
    for seat in range(state.seats):
        mine = [t for t in turns if t.seat == seat]
        worst = sorted((t for t in mine if t.missed > 0), key=lambda t: -t.missed)[:BIGGEST]
        totals.append(
            PlayerTotals(
                seat,
                scores[seat],
                sum(t.missed for t in mine),
                tuple(MissedChance(t.turn, t.move, t.best or "", t.missed) for t in worst),
            )
        )
    return GameAnalysis(state.players, level, tuple(turns), tuple(totals))
