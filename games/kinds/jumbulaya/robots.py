"""JUMBULAYA's robots as a kind's :class:`~games.kinds.base.Robots`: the
levels of :mod:`games.engine.jumbulaya.robots` and the benchmark's baseline, the
``jumbulaya-view/1`` seat view they decide from (seat-view.md), and the match
runner.  This module wraps them; it copies none of their play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from games.engine import jumbulaya as engine
from games.engine.jumbulaya import analysis, hints, robots
from games.engine.jumbulaya.robots.base import Level
from games.engine.jumbulaya.robots.boardspace import BOARDSPACE
from games.engine.jumbulaya.robots.match import MatchResult, match
from games.engine.jumbulaya.view import FORMAT, SeatView, read_view, seat_view
from games.engine.lexicon import Lexicon

from ..robots_alike import RobotLevels

_BASELINES: Mapping[str, Level] = {BOARDSPACE.name: BOARDSPACE}


def _words(lexicon: Lexicon | None) -> Lexicon:
    if lexicon is None:
        raise ValueError("JUMBULAYA's robots play with a word list")
    return lexicon


class JumbulayaRobots(RobotLevels[Level]):
    """JUMBULAYA's robot levels, weakest first, and the Boardspace baseline."""

    levels = robots.LEVELS
    strongest = robots.STRONGEST
    #: Greedy stands on no rung: its account keeps the seats it holds.
    ladder = MappingProxyType(
        {"beginner": "beginner", "casual": "casual", "club": "club", "expert": "expert"}
    )
    baselines = _BASELINES
    view_format = FORMAT

    def read_view(self, data: object) -> SeatView:
        return read_view(data)

    def view_word_list(self, view: SeatView) -> str | tuple[str, ...]:
        return view.lexicon

    def answer(
        self,
        level: str,
        view: SeatView,
        lexicon: Lexicon | None,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        return self.level(level).answer(view, _words(lexicon), rng, budget_ms)

    def seat_view(
        self,
        events: Sequence[engine.Event],
        state: engine.GameState,
        seat: int | None,
        *,
        lexicon: str | dict[str, list[str]],
        claim_window: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        return seat_view(events, state, seat, lexicon=lexicon, claim_window=claim_window)

    def play(
        self,
        events: Sequence[engine.Event],
        state: engine.GameState,
        seat: int,
        lexicon: Lexicon | None,
        level: str,
        rng: random.Random,
    ) -> str:
        words = _words(lexicon)
        doc = seat_view(events, state, seat, lexicon=words.name)
        return robots.answer(read_view(doc), words, self.playing(level), rng)

    def hints(
        self,
        events: Sequence[engine.Event],
        state: engine.GameState,
        seat: int,
        lexicon: Lexicon | None,
        n: int,
    ) -> list[hints.Hint]:
        words = _words(lexicon)
        doc = seat_view(events, state, seat, lexicon=words.name)
        return hints.hints(read_view(doc), words, n)

    analysis_format = analysis.FORMAT

    def analyse(
        self,
        events: Sequence[engine.Event],
        lexicon: Lexicon | None,
        level: str | None,
        budget_ms: float,
        seed: int,
    ) -> analysis.GameAnalysis:
        words = _words(lexicon)
        robot = None
        if level is not None:
            chosen = self.level(level)

            def robot(view: SeatView) -> str:
                return chosen.answer(view, words, random.Random(seed), budget_ms)

        return analysis.analyse(events, words, robot)

    def analysis_from_json(self, data: Any) -> analysis.GameAnalysis:
        return analysis.GameAnalysis.from_json(data)

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
    ) -> MatchResult:
        return match(
            self.level(a),
            self.level(b),
            games,
            seed,
            _words(lexicon),
            progress,
            lexicon_name=lexicon_name,
            budget_ms=budget_ms,
        )


#: The one instance the JUMBULAYA kind holds.
JUMBULAYA_ROBOTS = JumbulayaRobots()
