"""The state of a Blockers game: what every event folds into.

The board is two tuples of 81 entries in reading order: ``owners`` (the seat
whose tile is on each square, -1 for an empty one) and ``faces`` (the tile's
face, ``""`` for an empty one).  A seat's colour is its seat; ``captures[s][c]``
counts the tiles of seat ``c`` that seat ``s`` has taken, ``taken[s]`` lists
their faces and colours in the order taken (they lie face up).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .board import SQUARE_NAMES, SQUARES, TURNS_EACH
from .groups import group_counts
from .options import Options, options_from_json

EndReason = Literal["complete", "resigned"]
Tiles = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BlockersState:
    """A position.  ``turn`` is the seat to move (``None`` once over);
    ``turns_taken[s]`` counts the turns seat ``s`` has taken (24 each in all)."""

    options: Options
    players: tuple[str, ...]
    owners: tuple[int, ...]
    faces: tuple[str, ...]
    racks: tuple[Tiles, ...]
    piles: tuple[Tiles, ...]
    captures: tuple[tuple[int, ...], ...]
    taken: tuple[tuple[tuple[str, int], ...], ...]
    turns_taken: tuple[int, ...]
    turn: int | None
    resigned: frozenset[int] = frozenset()
    end: EndReason | None = None
    seq: int = field(default=0, compare=False)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def colours(self) -> tuple[str, ...]:
        return self.options.colours_for(self.seats)

    def in_game(self, seat: int) -> bool:
        return seat not in self.resigned

    def groups(self) -> list[int]:
        """Each seat's number of groups on the board."""
        return group_counts(self.owners, self.seats)

    def scores(self) -> list[int]:
        """Each seat's score if the game ended now (reading 9): its groups plus
        its captures of the one colour it has taken most."""
        groups = self.groups()
        return [g + max(c, default=0) for g, c in zip(groups, self.captures, strict=True)]

    def total_captures(self) -> list[int]:
        return [sum(c) for c in self.captures]

    def winners(self) -> list[int]:
        """Once over: the seats still in the game with the fewest points, and among
        them the fewest captures in all (a tie on both is a shared win)."""
        if not self.over:
            return []
        scores = self.scores()
        totals = self.total_captures()
        live = [s for s in range(self.seats) if s not in self.resigned]
        best = min((scores[s], totals[s]) for s in live)
        return [s for s in live if (scores[s], totals[s]) == best]

    def turns_left(self, seat: int) -> int:
        return TURNS_EACH - self.turns_taken[seat]

    def tile_count(self, seat: int) -> int:
        """Seat ``seat``'s tiles on the board, in its rack and pile, and taken by
        others (always 28)."""
        on_board = sum(1 for o in self.owners if o == seat)
        taken = sum(c[seat] for c in self.captures)
        return on_board + len(self.racks[seat]) + len(self.piles[seat]) + taken


def empty_board() -> tuple[tuple[int, ...], tuple[str, ...]]:
    return (-1,) * SQUARES, ("",) * SQUARES


def board_json(state: BlockersState) -> dict[str, dict[str, Any]]:
    """The occupied squares: ``{"C7": {"tile": "7", "seat": 0}, ...}``."""
    return {
        SQUARE_NAMES[i]: {"tile": state.faces[i], "seat": owner}
        for i, owner in enumerate(state.owners)
        if owner >= 0
    }


def state_to_json(state: BlockersState) -> dict[str, Any]:
    """The whole state as JSON-ready data (racks and piles included: for the
    server's own cache, never for a player)."""
    return {
        "options": state.options.to_json(),
        "players": list(state.players),
        "board": board_json(state),
        "racks": [list(r) for r in state.racks],
        "piles": [list(p) for p in state.piles],
        "taken": [[[face, seat] for face, seat in t] for t in state.taken],
        "turns_taken": list(state.turns_taken),
        "turn": state.turn,
        "resigned": sorted(state.resigned),
        "end": state.end,
        "seq": state.seq,
    }


def state_from_json(data: dict[str, Any]) -> BlockersState:
    """Read what :func:`state_to_json` wrote."""
    players = tuple(data["players"])
    owners = [-1] * SQUARES
    faces = [""] * SQUARES
    for name, cell in data["board"].items():
        i = SQUARE_NAMES.index(name)
        owners[i] = cell["seat"]
        faces[i] = cell["tile"]
    taken = tuple(tuple((face, seat) for face, seat in t) for t in data["taken"])
    captures = tuple(
        tuple(sum(1 for _, c in t if c == colour) for colour in range(len(players))) for t in taken
    )
    return BlockersState(
        options=options_from_json(data["options"]),
        players=players,
        owners=tuple(owners),
        faces=tuple(faces),
        racks=tuple(tuple(r) for r in data["racks"]),
        piles=tuple(tuple(p) for p in data["piles"]),
        captures=captures,
        taken=taken,
        turns_taken=tuple(data["turns_taken"]),
        turn=data["turn"],
        resigned=frozenset(data["resigned"]),
        end=data["end"],
        seq=data["seq"],
    )
