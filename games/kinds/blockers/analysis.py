"""The analysis of a finished Blockers game (``blockers-analysis/1``).

For every turn a seat took (a tile placed, a timeout, a pass) it holds the move
played and the score it left the mover with right after it, the move that
would have left the mover's score lowest then (``best``: the greedy choice,
ties broken by the canonical order), and, when a robot level is given, that
robot's choice (made from the seat's view only, as it would have played) with
the score it would have left.  Scores are a cost: the fewest points win, so
``difference`` (played minus the robot's) above zero means the robot's choice
would have left the mover that many points fewer at once.  It says nothing of
later turns: a move that costs a point now may pay later, and the page says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.engine import blockers as engine
from games.engine.blockers.robots.levels import Costs, Level

FORMAT = "blockers-analysis/1"

#: A robot's answer to a seat view document (``wait``, ``pass`` or a move).
RobotChoice = Callable[[engine.SeatView], str]


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    seq: int  # the event's number in the log (the deal is 1)
    seat: int
    played: str  # the notation, "pass", or "timeout: 7 at C7"
    score: int  # the mover's score right after it
    best: str | None  # the greedy choice, None when there was no legal move
    best_score: int
    robot: str | None  # the robot's choice, None without a robot
    robot_score: int | None

    @property
    def difference(self) -> int | None:
        """Points the robot's choice would have saved at once (negative: the
        move played left fewer)."""
        return None if self.robot_score is None else self.score - self.robot_score


@dataclass(frozen=True)
class BlockersAnalysis:
    players: tuple[str, ...]
    robot_level: str | None
    turns: tuple[TurnAnalysis, ...]
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]

    def of_seat(self, seat: int) -> list[TurnAnalysis]:
        return [t for t in self.turns if t.seat == seat]

    def given_away(self, seat: int) -> int:
        """The points ``seat``'s moves cost against the robot's choices, summed
        over the turns where the robot's choice would have left fewer."""
        return sum(d for t in self.of_seat(seat) if (d := t.difference) is not None and d > 0)

    def agreed(self, seat: int) -> int:
        """The turns on which ``seat`` played as the robot would have."""
        return sum(1 for t in self.of_seat(seat) if t.robot is not None and t.robot == t.played)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": list(self.players),
            "robot_level": self.robot_level,
            "turns": [asdict(t) for t in self.turns],
            "final_scores": list(self.final_scores),
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: Any) -> BlockersAnalysis:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} analysis")
        return cls(
            players=tuple(data["players"]),
            robot_level=data["robot_level"],
            turns=tuple(TurnAnalysis(**t) for t in data["turns"]),
            final_scores=tuple(data["final_scores"]),
            winners=tuple(data["winners"]),
        )


def _score_after(state: engine.BlockersState, seat: int, move: str) -> int:
    for event in engine.decide(state, seat, move):
        state = engine.evolve(state, event)
    return state.scores()[seat]


def _played(event: engine.Event) -> tuple[int, str] | None:
    match event:
        case engine.TilePlaced(seat, tile, square):
            return seat, f"{tile} at {square}"
        case engine.TimedOut(seat, tile, square):
            return seat, "timeout" if tile is None else f"timeout: {tile} at {square}"
        case engine.Passed(seat):
            return seat, "pass"
    return None


def analyse(
    events: Sequence[engine.Event], robot: RobotChoice | None, level: str | None = None
) -> BlockersAnalysis:
    """Every turn of a game's log (the deal first) against the greedy choice
    and, with ``robot`` (of level ``level``), the robot's."""
    started = events[0]
    assert isinstance(started, engine.GameStarted)
    state = engine.start(started)
    turns: list[TurnAnalysis] = []
    for i, event in enumerate(events[1:], start=1):
        found = _played(event)
        if found is not None:
            seat, played = found
            moves = engine.legal_moves(state, seat)
            costs = Costs(state, seat)
            best = min(moves, key=costs.after) if moves else None
            robot_move, robot_score = None, None
            if robot is not None:
                view = engine.read_view(engine.seat_view(events[:i], state, seat))
                robot_move = robot(view)
                robot_score = _score_after(state, seat, robot_move)
            after = engine.evolve(state, event)
            turns.append(
                TurnAnalysis(
                    seq=after.seq,
                    seat=seat,
                    played=played,
                    score=after.scores()[seat],
                    best=None if best is None else best.notation(),
                    best_score=after.scores()[seat] if best is None else costs.after(best),
                    robot=robot_move,
                    robot_score=robot_score,
                )
            )
            state = after
        else:
            state = engine.evolve(state, event)
    return BlockersAnalysis(
        players=state.players,
        robot_level=level if robot is not None else None,
        turns=tuple(turns),
        final_scores=tuple(state.scores()),
        winners=tuple(state.winners()),
    )


def robot_of(level: Level, budget_ms: float, seed: int) -> RobotChoice:
    """``level`` choosing from a view, with a generator seeded by ``seed``."""

    def choose(view: engine.SeatView) -> str:
        return level.answer(view, random.Random(seed), budget_ms)

    return choose
