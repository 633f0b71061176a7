"""High card's robots, as a kind's :class:`~games.kinds.base.Robots`: two
levels on the ladder's first rungs (a beginner that plays any card of its
hand, a greedy one that plays the lowest card that takes the round, else its
lowest), deciding from the ``highcard-view/1`` seat view only; the hints (the
cards that take the round first, lowest first) and a small analysis (each
card played beside the greedy robot's choice).

The robot accounts of its rungs come into being when a game first seats them
(:mod:`accounts.robots`): the kind brings no migration.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from games.engine.common.matches import wilson_interval
from games.kinds.robots_alike import RobotLevels

from . import engine
from .engine import Event, State

VIEW_FORMAT = "highcard-view/1"
ANALYSIS_FORMAT = "highcard-analysis/1"


@dataclass(frozen=True, slots=True)
class View:
    """What a seat knows: its own hand, the cards played in this round so far
    and whose turn it is (never another hand)."""

    seat: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    my_turn: bool


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """The ``highcard-view/1`` document of ``state`` as ``seat`` sees it."""
    return {
        "format": VIEW_FORMAT,
        "seat": seat,
        "players": list(state.players),
        "scores": list(state.scores),
        "hand_sizes": [len(h) for h in state.hands],
        "hand": None if seat is None else list(state.hands[seat]),
        "table": [card for _, card in state.table if card is not None],
        "turn": state.turn,
        "over": state.over,
    }


def read_view(data: object) -> View:
    """A seat view document, checked (``ValueError`` naming what is wrong)."""
    if not isinstance(data, dict) or data.get("format") != VIEW_FORMAT:
        raise ValueError(f"'format' must be exactly {VIEW_FORMAT!r}")
    seat, hand, table = data.get("seat"), data.get("hand"), data.get("table")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ValueError("'seat' must be the seat the view is of")
    for name, cards in (("hand", hand), ("table", table)):
        if not isinstance(cards, list) or not all(isinstance(c, int) for c in cards):
            raise ValueError(f"{name!r} must list cards")
    assert isinstance(hand, list) and isinstance(table, list)
    my_turn = data.get("turn") == seat and not data.get("over")
    return View(seat, tuple(hand), tuple(table), my_turn)


def beginner(view: View, rng: random.Random) -> str:
    """Any card of the hand."""
    return f"play {rng.choice(view.hand)}" if view.hand else "pass"


def greedy(view: View, rng: random.Random) -> str:
    """The lowest card that beats the table, else the lowest card."""
    if not view.hand:
        return "pass"
    best = max(view.table, default=0)
    taking = [c for c in view.hand if c > best]
    return f"play {min(taking or view.hand)}"


@dataclass(frozen=True, slots=True)
class Level:
    description: str
    choose: Callable[[View, random.Random], str]

    def answer(self, view: View, rng: random.Random) -> str:
        return self.choose(view, rng) if view.my_turn else "wait"


LEVELS = MappingProxyType(
    {
        "beginner": Level("plays any card of its hand", beginner),
        "greedy": Level("plays the lowest card that takes the round", greedy),
    }
)


@dataclass(frozen=True, slots=True)
class Hint:
    """A card to play: ``points`` and ``gain`` are the round's point it takes
    (1) or not (0)."""

    notation: str
    points: int
    gain: int


@dataclass(frozen=True)
class Turn:
    seat: int
    played: str
    robot: str | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "played": self.played, "robot": self.robot}


@dataclass(frozen=True)
class Analysis:
    """Each card played, with the greedy robot's choice in its place."""

    players: tuple[str, ...]
    turns: tuple[Turn, ...]
    robot_level: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": ANALYSIS_FORMAT,
            "players": list(self.players),
            "turns": [t.to_json() for t in self.turns],
            "robot_level": self.robot_level,
        }

    @classmethod
    def from_json(cls, data: Any) -> Analysis:
        if data.get("format") != ANALYSIS_FORMAT:
            raise ValueError(f"not a {ANALYSIS_FORMAT} analysis")
        turns = tuple(Turn(t["seat"], t["played"], t["robot"]) for t in data["turns"])
        return cls(tuple(data["players"]), turns, data["robot_level"])


def _view(state: State, seat: int) -> View:
    return read_view(seat_view(state, seat))


class HighCardRobots(RobotLevels[Level]):
    """High card's levels, weakest first, on the ladder's two first rungs."""

    levels = LEVELS
    strongest = "greedy"
    ladder = MappingProxyType({"beginner": "beginner", "casual": "greedy"})
    view_format = VIEW_FORMAT
    analysis_format = ANALYSIS_FORMAT

    def read_view(self, data: object) -> View:
        return read_view(data)

    def view_word_list(self, view: View) -> tuple[str, ...]:
        return ()

    def answer(
        self,
        level: str,
        view: View,
        lexicon: object,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        return self.level(level).answer(view, rng)

    def seat_view(
        self,
        events: Sequence[Event],
        state: State,
        seat: int | None,
        *,
        lexicon: str | dict[str, list[str]],
        claim_window: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        return seat_view(state, seat)

    def play(
        self,
        events: Sequence[Event],
        state: State,
        seat: int,
        lexicon: object,
        level: str,
        rng: random.Random,
    ) -> str:
        return LEVELS[self.playing(level)].answer(_view(state, seat), rng)

    def hints(
        self, events: Sequence[Event], state: State, seat: int, lexicon: object, n: int
    ) -> list[Hint]:
        """The cards that take the round as it stands, lowest first, then the
        others, lowest first (none off the seat's turn)."""
        view = _view(state, seat)
        if not view.my_turn:
            return []
        best = max(view.table, default=0)
        ranked = sorted(view.hand, key=lambda c: (c <= best, c))
        return [Hint(f"play {c}", int(c > best), int(c > best)) for c in ranked[:n]]

    def analyse(
        self,
        events: Sequence[Event],
        lexicon: object,
        level: str | None,
        budget_ms: float,
        seed: int,
    ) -> Analysis:
        dealt = events[0]
        assert isinstance(dealt, engine.Dealt)
        state = engine.start(dealt)
        rng = random.Random(seed)
        turns = []
        for event in events[1:]:
            turn = engine.turn_of(event)
            if turn is not None and turn[1] != "resign":
                robot = None if level is None else LEVELS[level].answer(_view(state, turn[0]), rng)
                turns.append(Turn(turn[0], turn[1], robot))
            state = engine.evolve(state, event)
        return Analysis(dealt.players, tuple(turns), level)

    def analysis_from_json(self, data: Any) -> Analysis:
        return Analysis.from_json(data)

    def match(
        self,
        a: str,
        b: str,
        games: int,
        seed: int,
        lexicon: object,
        progress: Callable[[int, int], None] | None = None,
        *,
        lexicon_name: str | None = None,
        budget_ms: float | None = None,
    ) -> MatchResult:
        """``a`` against ``b`` in two-player games of the standard preset,
        each deal played twice, once from each seat."""
        rng = random.Random(seed)
        deals = max(1, -(-games // 2))
        outcomes: list[float] = []
        scores = {a: 0, b: 0}
        for n in range(deals):
            dealt = engine.deal(("a", "b"), engine.PRESETS["standard"], rng)
            for a_seat in (0, 1):
                levels = (a, b) if a_seat == 0 else (b, a)
                state = _played_out(dealt, levels, rng)
                winners = state.winners()
                outcomes.append(1.0 if winners == [a_seat] else 0.5 if a_seat in winners else 0.0)
                scores[a] += state.scores[a_seat]
                scores[b] += state.scores[1 - a_seat]
            if progress is not None:
                progress(2 * (n + 1), 2 * deals)
        played = len(outcomes)
        return MatchResult(
            a, b, played, outcomes.count(1.0), outcomes.count(0.5),
            (scores[a] / played, scores[b] / played),
        )  # fmt: skip


def _played_out(dealt: engine.Dealt, levels: tuple[str, str], rng: random.Random) -> State:
    """The end of ``dealt`` played by the robots of ``levels`` (by seat)."""
    state = engine.start(dealt)
    while not state.over:
        assert state.turn is not None
        move = LEVELS[levels[state.turn]].answer(_view(state, state.turn), rng)
        for event in engine.decide(state, state.turn, move):
            state = engine.evolve(state, event)
    return state


@dataclass(frozen=True)
class MatchResult:
    """A match as ``manage.py robot match`` prints one: ``a``'s sole and
    shared wins of ``played`` games, and each side's average score."""

    a: str
    b: str
    played: int
    wins: int
    draws: int
    average_scores: tuple[float, float]
    capped = 0
    times: Mapping[str, Any] = MappingProxyType({})

    @property
    def losses(self) -> int:
        return self.played - self.wins - self.draws

    @property
    def win_rate(self) -> float:
        return (self.wins + self.draws / 2) / self.played

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins + self.draws / 2, self.played)


HIGH_CARD_ROBOTS = HighCardRobots()
