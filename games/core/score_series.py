"""Each seat's score after every turn of a log, for the score chart (pages)
and the game-over email's table.

The scores come from folding the log through the game's kind
(:meth:`~games.kinds.base.GameKind.evolve`, then
:meth:`~games.kinds.base.GameKind.scores_from_state` of
:meth:`~games.kinds.base.GameKind.state_to_json`), so any kind has a chart.
Only scores, names and what kind of turn each was are kept: nothing hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.projection import kind_of
from games.core.seat_names import shown_events
from games.kinds.base import GameKind, KindEvent
from games.models import Game

#: What a turn is marked as: a seat's missed deadline, and a sealed call
#: (JUMBULAYA's) made, verified or not.
AUTO_PASS = "auto-pass"
CALL = "call"


@dataclass(frozen=True, slots=True)
class ScoredTurn:
    """The scores after one event: its turn number (0: the deal), the seat that
    made it (``None`` for the deal), and its mark (:data:`AUTO_PASS`,
    :data:`CALL`, or ``None``)."""

    seq: int
    seat: int | None
    scores: tuple[int, ...]
    mark: str | None = None


@dataclass(frozen=True, slots=True)
class ScoreSeries:
    players: tuple[str, ...]
    turns: tuple[ScoredTurn, ...]

    @property
    def final(self) -> tuple[int, ...]:
        return self.turns[-1].scores if self.turns else ()


def _mark(kind: GameKind, event: KindEvent) -> str | None:
    if kind.is_timeout(event):
        return AUTO_PASS
    if kind.window is not None and kind.event_type(event).startswith(kind.window.verb):
        return CALL
    return None


def series_of(kind: GameKind, events: Sequence[KindEvent]) -> ScoreSeries:
    """The scores after the deal and after every later event of ``events``
    (a log, the deal first), folded through ``kind``."""
    if not events:
        return ScoreSeries((), ())
    state = kind.start(events[0])
    players = tuple(kind.players(state))
    seats = len(players)

    def scores() -> tuple[int, ...]:
        return tuple(kind.scores_from_state(kind.state_to_json(state), seats))

    turns = [ScoredTurn(0, None, scores())]
    for n, event in enumerate(events[1:], start=1):
        state = kind.evolve(state, event)
        turns.append(ScoredTurn(n, kind.event_seat(event), scores(), _mark(kind, event)))
    return ScoreSeries(players, tuple(turns))


def game_series(game: Game) -> ScoreSeries:
    """:func:`series_of` a game's log, naming the players as they are now."""
    return series_of(kind_of(game), shown_events(game))
