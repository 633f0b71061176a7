"""The crossword game's robots as a kind's :class:`~games.kinds.base.Robots`:
the levels of :mod:`games.engine.crossword.robots` (beginner to strong), the
``crossword-view/1`` seat view they decide from (docs/crossword-view.md), read
here into their plain :class:`~games.engine.crossword.robots.Position`, hints,
the match runner, and the analysis (:mod:`.analysis`).  This module wraps
them; it copies none of their play.

A robot plays on its own turn, and in a game with ``async`` challenges it
first challenges an open play whose words its list lacks (it knows the list,
so it never challenges a play that stands).  Off its turn it is asked too,
after every play it may challenge (the kind's ``Progress.answerers``), and
challenges the same way or waits.  Asked to answer a play that would end the
game, it challenges the same way, and otherwise accepts the end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from games.engine.common.matches import Timing
from games.engine.crossword import events, robots, view
from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.commands import acceptable
from games.engine.crossword.robots.match import MatchResult, match
from games.engine.crossword.state import GameState
from games.kinds.crossword.word_index import CrosswordWords

from ..robots_alike import RobotLevels
from . import analysis
from .moves import scored_moves
from .view_reading import CrosswordView, read_view


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    description: str


#: The levels offered, weakest first; the last is the strongest, the default.
LEVELS: Mapping[str, Level] = {
    name: Level(name, cls.description) for name, cls in robots.LEVELS.items()
}
STRONGEST = list(LEVELS)[-1]


def _words(lexicon: object) -> CrosswordWords:
    if not isinstance(lexicon, CrosswordWords):
        raise ValueError("the crossword robots play with a word list")
    return lexicon


def answer(
    level: str,
    seen: CrosswordView,
    words: CrosswordWords,
    rng: random.Random,
    budget_ms: float | None = None,
) -> str:
    """What the robot of ``level`` answers to a read view: ``challenge``, a
    move on its turn (``accept`` when it answers a play that would end the
    game), or ``wait``."""
    if level not in LEVELS:
        raise LookupError(f"unknown robot level {level!r} (levels: {', '.join(LEVELS)})")
    if seen.over or seen.seat is None:
        return "wait"
    if seen.may_challenge and any(not acceptable(w, words.dawg) for w in seen.open_words):
        return "challenge"
    if seen.may_accept:
        return "accept"
    if seen.next != seen.seat:
        return "wait"
    chosen = robots.robot(level, words.dawg).choose(seen.position(), rng, budget_ms)
    return chosen.notation


def _lexicon_name(log: Sequence[events.Event]) -> str:
    started = log[0]
    assert isinstance(started, events.GameStarted)
    return started.lexicon


@dataclass(frozen=True, slots=True)
class Hint:
    """One of the best word moves for a rack: its notation and points (what
    the hints' template and email read)."""

    notation: str
    points: int

    @property
    def gain(self) -> int:
        return self.points


@dataclass(frozen=True)
class Match:
    """A match's result as ``manage.py robot match`` prints it: the engine's
    result with each level's decision times and the games cut off at the cap."""

    result: MatchResult
    times: dict[str, Timing] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.result, name)

    @property
    def capped(self) -> int:
        return sum(1 for g in self.result.games if g.capped)


class CrosswordRobots(RobotLevels[Level]):
    """The crossword game's robot levels, weakest first; no baseline."""

    levels = LEVELS
    strongest = STRONGEST
    ladder = MappingProxyType(
        {"beginner": "beginner", "casual": "casual", "club": "greedy", "expert": "strong"}
    )
    view_format = view.FORMAT
    analysis_format = analysis.FORMAT

    def read_view(self, data: object) -> CrosswordView:
        return read_view(data)

    def view_word_list(self, seen: CrosswordView) -> str | tuple[str, ...]:
        return seen.lexicon

    def answer(
        self,
        level: str,
        seen: CrosswordView,
        lexicon: Any,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        return answer(level, seen, _words(lexicon), rng, budget_ms)

    def seat_view(
        self,
        log: Sequence[events.Event],
        state: GameState,
        seat: int | None,
        *,
        lexicon: str | dict[str, list[str]],
        claim_window: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        doc = view.seat_view(log, state, seat, lexicon=_lexicon_name(log))
        doc["lexicon"] = lexicon
        return doc

    def play(
        self,
        log: Sequence[events.Event],
        state: GameState,
        seat: int,
        lexicon: Any,
        level: str,
        rng: random.Random,
    ) -> str:
        doc = view.seat_view(log, state, seat, lexicon=_lexicon_name(log))
        return answer(self.playing(level), read_view(doc), _words(lexicon), rng)

    def hints(
        self, log: Sequence[events.Event], state: GameState, seat: int, lexicon: Any, n: int
    ) -> list[Hint]:
        # The board and the seat's own rack: all a seat's view shows of its moves.
        return [
            Hint(move, points) for move, points in scored_moves(state, seat, _words(lexicon))[:n]
        ]

    def analyse(
        self,
        log: Sequence[events.Event],
        lexicon: Any,
        level: str | None,
        budget_ms: float,
        seed: int,
    ) -> analysis.GameAnalysis:
        return analysis.analyse(log, _words(lexicon), level, budget_ms, seed)

    def analysis_from_json(self, data: Any) -> analysis.GameAnalysis:
        return analysis.GameAnalysis.from_json(data)

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
    ) -> Match:
        dawg = _words(lexicon).dawg
        result = match(
            robots.robot(a, dawg),
            robots.robot(b, dawg),
            games,
            seed,
            progress,
            bonus=BONUS_WORDS,
            budget_ms=budget_ms,
        )
        times = {
            side_name: Timing.of(result.turn_ms(side)) for side, side_name in (("a", a), ("b", b))
        }
        if a == b:
            times = {a: Timing.of([*result.turn_ms("a"), *result.turn_ms("b")])}
        return Match(result, times)


#: The one instance the crossword kind holds.
CROSSWORD_ROBOTS = CrosswordRobots()

__all__ = ["CROSSWORD_ROBOTS", "LEVELS", "STRONGEST", "CrosswordView", "Hint", "read_view"]
