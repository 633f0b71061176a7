"""Blockers' robots as a kind's :class:`~games.kinds.base.Robots`: the levels
of :mod:`games.engine.blockers.robots` (beginner, greedy, strong), the
``blockers-view/1`` seat view they decide from (docs/blockers-view.md), hints,
the analysis (:mod:`.analysis`) and the match runner.  This module wraps them;
it copies none of their play.  Blockers has no word list: every ``lexicon``
here is ignored.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from games.engine import blockers as engine
from games.engine.blockers.robots import LEVELS, match
from games.engine.blockers.robots.levels import Costs, Level, room, room_gain
from games.engine.blockers.robots.match import MatchResult
from games.engine.blockers.view import FORMAT, view_state
from games.engine.lexicon import Lexicon

from ..robots_alike import MatchOutcome, RobotLevels
from . import analysis

#: The strongest level, the default of robot seats, takeovers and analyses.
STRONGEST = "strong"


@dataclass(frozen=True, slots=True)
class Hint:
    """A move to consider: the score it leaves (``points``, a cost: lower is
    better) and ``gain``, the same number (Blockers gains nothing: the page
    and the email show the score the move leaves)."""

    notation: str
    points: int
    gain: int
    captures: bool


@dataclass(frozen=True)
class MatchSummary(MatchOutcome):
    """A Blockers match (level ``a`` seated once among ``b``s) as ``manage.py
    robot match`` reads one: ``wins`` are ``a``'s sole wins, ``draws`` its
    shared ones, ``losses`` the games another seat won."""

    result: MatchResult

    def outcome(self, game: Any, seat: int) -> float:
        winners = game.state.winners()
        if seat not in winners:
            return 0.0
        return 1.0 if len(winners) == 1 else 0.5

    capped = 0


def _view(
    events: Sequence[engine.Event], state: engine.BlockersState, seat: int
) -> engine.SeatView:
    return engine.read_view(engine.seat_view(events, state, seat))


class BlockersRobots(RobotLevels[Level]):
    """Blockers' robot levels, weakest first; no baseline."""

    levels = LEVELS
    strongest = STRONGEST
    #: Three levels: no club.
    ladder = MappingProxyType({"beginner": "beginner", "casual": "greedy", "expert": "strong"})
    view_format = FORMAT
    analysis_format = analysis.FORMAT

    def read_view(self, data: object) -> engine.SeatView:
        return engine.read_view(data)

    def view_word_list(self, view: engine.SeatView) -> tuple[str, ...]:
        return ()

    def answer(
        self,
        level: str,
        view: engine.SeatView,
        lexicon: Lexicon | None,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        return self.level(level).answer(view, rng, budget_ms)

    def seat_view(
        self,
        events: Sequence[engine.Event],
        state: engine.BlockersState,
        seat: int | None,
        *,
        lexicon: str | dict[str, list[str]],
        claim_window: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        return engine.seat_view(events, state, seat)

    def play(
        self,
        events: Sequence[engine.Event],
        state: engine.BlockersState,
        seat: int,
        lexicon: Lexicon | None,
        level: str,
        rng: random.Random,
    ) -> str:
        return LEVELS[self.playing(level)].answer(_view(events, state, seat), rng)

    def hints(
        self,
        events: Sequence[engine.Event],
        state: engine.BlockersState,
        seat: int,
        lexicon: Lexicon | None,
        n: int,
    ) -> list[Hint]:
        """The ``n`` moves that leave ``seat``'s score lowest at once, from its
        view only; among equals, those that leave its groups most room to grow."""
        view = _view(events, state, seat)
        if not view.my_turn:
            return []
        seen = view_state(view)
        moves = engine.legal_moves(seen, seat)
        costs = Costs(seen, seat)
        near = room(seen, seat)
        ranked = sorted(moves, key=lambda m: (costs.after(m), -room_gain(seen, near, m.square)))
        return [
            Hint(m.notation(), costs.after(m), costs.after(m), m.captured is not None)
            for m in ranked[:n]
        ]

    def analyse(
        self,
        events: Sequence[engine.Event],
        lexicon: Lexicon | None,
        level: str | None,
        budget_ms: float,
        seed: int,
    ) -> analysis.BlockersAnalysis:
        robot = None if level is None else analysis.robot_of(self.level(level), budget_ms, seed)
        return analysis.analyse(events, robot, level)

    def analysis_from_json(self, data: Any) -> analysis.BlockersAnalysis:
        return analysis.BlockersAnalysis.from_json(data)

    def match(
        self,
        a: str,
        b: str,
        games: int,
        seed: int,
        lexicon: Lexicon | None,
        progress: Callable[[int, int], None] | None = None,
        *,
        lexicon_name: str | None = None,
        budget_ms: float | None = None,
    ) -> MatchSummary:
        """``a`` seated once among two ``b``s: ``games`` deals rounded up to
        whole rounds of three (each deal played from every seat)."""
        deals = max(1, -(-games // 3))
        return MatchSummary(
            match(
                self.level(a), self.level(b), deals, seed, 3, progress=progress, budget_ms=budget_ms
            )
        )


#: The one instance the Blockers kind holds.
BLOCKERS_ROBOTS = BlockersRobots()
