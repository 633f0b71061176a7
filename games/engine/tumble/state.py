"""The state of a Tumble-Words game: what every event folds into.

With two players every round is sealed: both roll, both submit privately,
and the round closes when both have submitted or its deadline passes.  With
three or more each round is one player's turn with the one set of cubes; the
turn passes to the left (to the next seat number).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .options import Options, options_from_json

EndReason = Literal["target", "resigned"]


@dataclass(frozen=True, slots=True)
class Submission:
    crossword: str
    points: int


@dataclass(frozen=True, slots=True)
class ClosedRound:
    """A revealed round: its seats, their rolls, crosswords (``None``: nothing
    submitted) and points."""

    round: int
    seats: tuple[int, ...]
    rolls: tuple[str, ...]
    crosswords: tuple[str | None, ...]
    points: tuple[int, ...]


@dataclass(slots=True)
class TumbleState:
    """A position.  Treat it as immutable: the fold returns a new one per event.

    ``seats_in_round`` play the open round with ``rolls`` (one each) and have
    handed in ``sealed`` (``None``: not yet); between a round's close and the
    next roll, and once the game is over, no round is open (``seats_in_round``
    is empty)."""

    options: Options
    players: tuple[str, ...]
    rolloff: tuple[str, ...]
    first: int
    round: int
    seats_in_round: tuple[int, ...]
    rolls: tuple[str, ...]
    sealed: tuple[Submission | None, ...]
    totals: tuple[int, ...]
    resigned: frozenset[int] = frozenset()
    history: tuple[ClosedRound, ...] = ()
    end: EndReason | None = None
    seq: int = field(default=0, compare=False)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def sealed_rounds(self) -> bool:
        """Two players: both play every round at once, sealed."""
        return self.seats == 2

    def in_game(self, seat: int) -> bool:
        return seat not in self.resigned

    def waiting(self) -> tuple[int, ...]:
        """The seats the open round still waits for."""
        if self.over:
            return ()
        return tuple(
            s for s, sub in zip(self.seats_in_round, self.sealed, strict=True) if sub is None
        )

    @property
    def turn(self) -> int | None:
        """The seat to move: the first seat the round waits for (``None`` when over)."""
        waiting = self.waiting()
        return waiting[0] if waiting else None

    def roll_of(self, seat: int) -> str | None:
        if seat in self.seats_in_round and not self.over:
            return self.rolls[self.seats_in_round.index(seat)]
        return None

    def submission_of(self, seat: int) -> Submission | None:
        if seat in self.seats_in_round and not self.over:
            return self.sealed[self.seats_in_round.index(seat)]
        return None

    def scores(self) -> list[int]:
        return list(self.totals)

    def winners(self) -> list[int]:
        """The winning seat(s) once over: the top total among the players left."""
        if not self.over:
            return []
        live = [s for s in range(self.seats) if s not in self.resigned]
        top = max(self.totals[s] for s in live)
        return [s for s in live if self.totals[s] == top]


def _submission(data: Any) -> Submission | None:
    return None if data is None else Submission(data["crossword"], data["points"])


def state_to_json(state: TumbleState) -> dict[str, Any]:
    """The whole state as JSON-ready data (sealed submissions included: for
    the server's own cache, never for a player)."""
    return {
        "options": state.options.to_json(),
        "players": list(state.players),
        "rolloff": list(state.rolloff),
        "first": state.first,
        "round": state.round,
        "seats_in_round": list(state.seats_in_round),
        "rolls": list(state.rolls),
        "sealed": [
            None if s is None else {"crossword": s.crossword, "points": s.points}
            for s in state.sealed
        ],
        "totals": list(state.totals),
        "resigned": sorted(state.resigned),
        "history": [
            {
                "round": h.round,
                "seats": list(h.seats),
                "rolls": list(h.rolls),
                "crosswords": list(h.crosswords),
                "points": list(h.points),
            }
            for h in state.history
        ],
        "end": state.end,
        "seq": state.seq,
    }


def state_from_json(data: dict[str, Any]) -> TumbleState:
    """Read what :func:`state_to_json` wrote."""
    return TumbleState(
        options=options_from_json(data["options"]),
        players=tuple(data["players"]),
        rolloff=tuple(data["rolloff"]),
        first=data["first"],
        round=data["round"],
        seats_in_round=tuple(data["seats_in_round"]),
        rolls=tuple(data["rolls"]),
        sealed=tuple(_submission(s) for s in data["sealed"]),
        totals=tuple(data["totals"]),
        resigned=frozenset(data["resigned"]),
        history=tuple(
            ClosedRound(
                h["round"],
                tuple(h["seats"]),
                tuple(h["rolls"]),
                tuple(h["crosswords"]),
                tuple(h["points"]),
            )
            for h in data["history"]
        ),
        end=data["end"],
        seq=data["seq"],
    )
