"""Tumble-Words' robots as a kind's :class:`~games.kinds.base.Robots`: the
levels of :mod:`games.engine.tumble.robots` (beginner, casual, strong), the
``tumble-view/1`` seat view they decide from (docs/tumble-view.md), hints (the
strong robot's crossword for the seat's roll), the analysis (:mod:`.analysis`)
and the match runner.  This module wraps them; it copies none of their play.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from games.engine import tumble as engine
from games.engine.common.matches import Timing
from games.engine.tumble.robots import LEVELS, STRONGEST
from games.engine.tumble.robots.levels import Level
from games.engine.tumble.robots.match import MatchResult, match
from games.engine.tumble.view import FORMAT
from games.kinds.tumble.word_index import words_of

from ..robots_alike import MatchOutcome, RobotLevels
from . import analysis


@dataclass(frozen=True, slots=True)
class Hint:
    """A crossword to consider for the roll: its one-line notation and the
    points it scores (``gain``: the same, nothing else changes)."""

    notation: str
    points: int
    gain: int


@dataclass(frozen=True)
class MatchSummary(MatchOutcome):
    """A two-player match as ``manage.py robot match`` reads one: ``a``'s wins,
    shared wins and losses, the games stopped at the round cap, each side's
    average score and each level's decision times."""

    result: MatchResult

    def outcome(self, game: Any, seat: int) -> float:
        """The game's own count: a game stopped at the round cap is shared."""
        return float(game.result(seat))

    @property
    def capped(self) -> int:
        return sum(1 for g in self.result.games if g.capped)

    @property
    def average_scores(self) -> tuple[float, float]:
        """``a``'s average final score and ``b``'s."""
        pairs = [
            (g.state.scores()[s], g.state.scores()[1 - s])
            for g, s in zip(self.result.games, self.result.a_seat, strict=True)
        ]
        if not pairs:
            return (0.0, 0.0)
        return (statistics.fmean(p[0] for p in pairs), statistics.fmean(p[1] for p in pairs))

    @property
    def times(self) -> dict[str, Timing]:
        """Each level's decision times on its own answers (one entry when a
        level plays itself)."""
        games = list(zip(self.result.games, self.result.a_seat, strict=True))
        a_ms = [ms for g, s in games for seat, ms in g.times_ms if seat == s]
        b_ms = [ms for g, s in games for seat, ms in g.times_ms if seat != s]
        if self.result.a == self.result.b:
            return {self.result.a: Timing.of([*a_ms, *b_ms])}
        return {self.result.a: Timing.of(a_ms), self.result.b: Timing.of(b_ms)}


def _view(state: engine.TumbleState, seat: int, lexicon: object) -> engine.SeatView:
    return engine.read_view(engine.seat_view(state, seat, lexicon=words_of(lexicon).name))


class TumbleRobots(RobotLevels[Level]):
    """Tumble-Words' robot levels, weakest first; no baseline."""

    levels = LEVELS
    strongest = STRONGEST
    #: Three levels: no club.
    ladder = MappingProxyType({"beginner": "beginner", "casual": "casual", "expert": "strong"})
    view_format = FORMAT
    analysis_format = analysis.FORMAT

    def read_view(self, data: object) -> engine.SeatView:
        return engine.read_view(data)

    def view_word_list(self, view: engine.SeatView) -> str | tuple[str, ...]:
        return view.lexicon

    def answer(
        self,
        level: str,
        view: engine.SeatView,
        lexicon: Any,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        return self.level(level).answer(view, words_of(lexicon), rng, budget_ms)

    def seat_view(
        self,
        events: Sequence[engine.Event],
        state: engine.TumbleState,
        seat: int | None,
        *,
        lexicon: str | dict[str, list[str]],
        claim_window: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        return engine.seat_view(state, seat, lexicon=lexicon)

    def play(
        self,
        events: Sequence[engine.Event],
        state: engine.TumbleState,
        seat: int,
        lexicon: Any,
        level: str,
        rng: random.Random,
    ) -> str:
        return LEVELS[self.playing(level)].answer(
            _view(state, seat, lexicon), words_of(lexicon), rng
        )

    def hints(
        self,
        events: Sequence[engine.Event],
        state: engine.TumbleState,
        seat: int,
        lexicon: Any,
        n: int,
    ) -> list[Hint]:
        """The strong robot's crossword for ``seat``'s roll (one: a roll allows
        far too many crosswords to rank), from its view only."""
        view = _view(state, seat, lexicon)
        if not view.to_play or view.roll is None or n < 1:
            return []
        found = analysis.best_crossword(view.roll, words_of(lexicon))
        if found is None:
            return []
        return [Hint(f"submit {found.text}", found.score, found.score)]

    def analyse(
        self,
        events: Sequence[engine.Event],
        lexicon: Any,
        level: str | None,
        budget_ms: float,
        seed: int,
    ) -> analysis.TumbleAnalysis:
        """Each round against ``level``'s crossword; the strongest searches as
        it does for a hint, whatever ``budget_ms`` (:mod:`.analysis`)."""
        search = None
        if level is not None and lexicon is not None:
            search = analysis.search_of(self.level(level), words_of(lexicon), budget_ms, seed)
        return analysis.analyse(events, search, level)

    def analysis_from_json(self, data: Any) -> analysis.TumbleAnalysis:
        return analysis.TumbleAnalysis.from_json(data)

    def match(
        self,
        a: str,
        b: str,
        games: int,
        seed: int,
        lexicon: Any,
        progress: Callable[[int, int], None] | None = None,
        *,
        lexicon_name: str | None = None,
        budget_ms: float | None = None,
    ) -> MatchSummary:
        return MatchSummary(
            match(
                self.level(a),
                self.level(b),
                games,
                seed,
                words_of(lexicon),
                progress,
                budget_ms=budget_ms,
            )
        )


#: The one instance the Tumble-Words kind holds.
TUMBLE_ROBOTS = TumbleRobots()
