"""The analysis of a finished Tumble-Words game (``tumble-analysis/1``): for
every seat of every closed round, the points its crossword scored against what
a robot of the given level lays with the same roll (from that seat's view
only).  Honest about what it is: a robot's crossword, not the best one there
is, and a search with a time budget; a round the player beat the robot in
shows a negative difference.

The strongest level searches here as it does for a hint (:func:`best_crossword`,
its own full time and one seed), whatever budget the analysis is given: the
analysis then sets each round against the crossword a hint would have offered
(cut to the analysis' 20 ms, it found a 5-point crossword where the hint had
found one of 35)."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.engine import tumble as engine
from games.engine.tumble.robots import LEVELS, STRONGEST
from games.engine.tumble.robots.levels import Level
from games.engine.tumble.robots.search import Found

FORMAT = "tumble-analysis/1"
#: The seed of the strongest search, for hints and the analysis alike.
SEARCH_SEED = 0

#: A robot's crossword for a roll in a given round (``None``: no word at all).
Search = Callable[[str, int], Found | None]


def best_crossword(roll: str, words: Collection[str]) -> Found | None:
    """The strongest level's crossword for ``roll``, searched for its full
    time: what a hint offers, and what the analysis compares each round with."""
    return LEVELS[STRONGEST].crossword(roll, words, random.Random(SEARCH_SEED))


def search_of(robot: Level, words: Collection[str], budget_ms: float, seed: int) -> Search:
    """How the analysis asks ``robot`` for a round's crossword: the strongest
    level as a hint does (:func:`best_crossword`), any other within
    ``budget_ms``, its generator seeded by ``seed`` and the round."""
    if robot.name == STRONGEST:
        return lambda roll, _round: best_crossword(roll, words)
    return lambda roll, number: robot.crossword(
        roll, words, random.Random(seed + number), budget_ms
    )


@dataclass(frozen=True, slots=True)
class RoundAnalysis:
    round: int
    seat: int
    roll: str
    played: str | None  # the crossword submitted (one-line form), None: nothing
    points: int
    robot: str | None  # the robot's crossword, None without a robot or a word
    robot_points: int | None

    @property
    def difference(self) -> int | None:
        """Points the robot's crossword would have scored more (negative: fewer)."""
        return None if self.robot_points is None else self.robot_points - self.points


@dataclass(frozen=True)
class TumbleAnalysis:
    players: tuple[str, ...]
    robot_level: str | None
    rounds: tuple[RoundAnalysis, ...]
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]

    def of_seat(self, seat: int) -> list[RoundAnalysis]:
        return [r for r in self.rounds if r.seat == seat]

    def given_away(self, seat: int) -> int:
        """The points ``seat``'s rounds scored below the robot's, summed
        (rounds it beat the robot in count nothing)."""
        return sum(max(0, r.difference or 0) for r in self.of_seat(seat))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": list(self.players),
            "robot_level": self.robot_level,
            "rounds": [asdict(r) for r in self.rounds],
            "final_scores": list(self.final_scores),
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: Any) -> TumbleAnalysis:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} analysis")
        return cls(
            tuple(data["players"]),
            data["robot_level"],
            tuple(RoundAnalysis(**r) for r in data["rounds"]),
            tuple(data["final_scores"]),
            tuple(data["winners"]),
        )


def _robot_points(roll: str, number: int, search: Search) -> tuple[str, int]:
    """The robot's crossword for ``roll`` in round ``number`` and its score
    (the empty crossword, every cube unused, when the roll spells no word)."""
    found = search(roll, number)
    if found is None:
        return ".", engine.NOTHING_SUBMITTED
    return found.text, found.score


def analyse(
    events: Sequence[engine.Event], search: Search | None, level: str | None
) -> TumbleAnalysis:
    """Every closed round of ``events`` (a whole log), each seat's crossword
    against the robot's for the same roll (``search``; ``None``: no robot)."""
    state = engine.replay(events)
    out: list[RoundAnalysis] = []
    for closed in state.history:
        for seat, roll, crossword, points in zip(
            closed.seats, closed.rolls, closed.crosswords, closed.points, strict=True
        ):
            mine: str | None = None
            theirs: int | None = None
            if search is not None:
                mine, theirs = _robot_points(roll, closed.round, search)
            out.append(RoundAnalysis(closed.round, seat, roll, crossword, points, mine, theirs))
    return TumbleAnalysis(
        state.players, level, tuple(out), tuple(state.totals), tuple(state.winners())
    )
