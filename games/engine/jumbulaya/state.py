"""The state of a game: what every event folds into.

States are immutable; :mod:`games.engine.jumbulaya.fold` makes a new one per event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..tiles import JUMBULAYA_MIN, Tiles, two_letter_count
from .options import Rules, rules_from_json

EndReason = Literal["jumbulaya", "ten_tiles", "all_lines", "stalled", "resigned"]

#: Points for a claimed line by its tile count (fewer than 3 tiles score 0).
LINE_TIERS: dict[int, int] = {3: 3, 4: 4, 5: 5, 6: 6, 7: 10, 8: 12, 9: 15, 10: 20}
#: Points for a verified JUMBULAYA by its tile count.
JUMBULAYA_TIERS: dict[int, int] = {7: 10, 8: 12, 9: 15}


def line_points(tiles: Tiles) -> int:
    """What a claimed line scores: its tier plus 1 per two-letter tile on it.

    >>> line_points(("F", "A", "C", "T", "S")), line_points(("E", "QU", "A", "L", "LY"))
    (5, 7)
    """
    return LINE_TIERS.get(len(tiles), 0) + two_letter_count(tiles)


def jumbulaya_points(tiles: Tiles, rules: Rules) -> int:
    bonus = two_letter_count(tiles) if rules.jumbulaya_bonus else 0
    return JUMBULAYA_TIERS[len(tiles)] + bonus


@dataclass(frozen=True, slots=True)
class Line:
    tiles: Tiles
    word: str | None = None  # the letters of the current word; None until one is built
    owner: int | None = None
    history: frozenset[str] = frozenset()  # every word this line has held


@dataclass(frozen=True, slots=True)
class JumbulayaMade:
    seat: int
    tiles: Tiles
    lines: tuple[int, ...]  # the line index each tile was taken from
    points: int


@dataclass(slots=True)
class GameState:
    """A position.  ``turn`` is the seat to move (``None`` once over).

    Treat a state as immutable: :func:`~games.engine.jumbulaya.fold.evolve` never changes
    the state it is given, it returns a new one (a test holds it to that).  The
    class is not frozen because building frozen instances costs several times
    more, and replaying logs is a hot path.
    """

    rules: Rules
    players: tuple[str, ...]
    lines: tuple[Line, ...]
    racks: tuple[Tiles, ...]
    bag: Tiles
    turn: int | None
    resigned: frozenset[int] = frozenset()
    skips: tuple[int, ...] = ()  # turns each seat must still lose (after failed calls)
    barred: frozenset[int] = frozenset()  # seats that may not call JUMBULAYA yet
    idle: int = 0  # turns in a row without a word
    end: EndReason | None = None
    jumbulaya: JumbulayaMade | None = None
    seq: int = field(default=0, compare=False)  # events folded so far

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def seats(self) -> int:
        return len(self.players)

    def in_game(self, seat: int) -> bool:
        return seat not in self.resigned

    def jumbulaya_open(self) -> bool:
        """All nine lines claimed and one holds 7 or more tiles."""
        return all(ln.owner is not None for ln in self.lines) and any(
            len(ln.tiles) >= JUMBULAYA_MIN for ln in self.lines
        )

    def scores(self) -> list[int]:
        """What each seat would score if the game ended now."""
        out = [0] * self.seats
        for ln in self.lines:
            if ln.owner is not None:
                out[ln.owner] += line_points(ln.tiles)
        if self.jumbulaya is not None:
            out[self.jumbulaya.seat] += self.jumbulaya.points
        return out

    def winners(self) -> list[int]:
        """The seats still in the game with the top score, once the game is over."""
        if not self.over:
            return []
        scores = self.scores()
        live = [s for s in range(self.seats) if s not in self.resigned]
        top = max(scores[s] for s in live)
        return [s for s in live if scores[s] == top]

    def tile_count(self) -> int:
        """Every tile on the board, in racks and in the bag (always 100)."""
        return sum(len(ln.tiles) for ln in self.lines) + sum(map(len, self.racks)) + len(self.bag)


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state as JSON-ready data (racks and bag included: for the
    server's own cache, never for a player)."""
    made = state.jumbulaya
    return {
        "rules": state.rules.to_json(),
        "players": list(state.players),
        "lines": [
            {
                "tiles": list(ln.tiles),
                "word": ln.word,
                "owner": ln.owner,
                "history": sorted(ln.history),
            }
            for ln in state.lines
        ],
        "racks": [list(r) for r in state.racks],
        "bag": list(state.bag),
        "turn": state.turn,
        "resigned": sorted(state.resigned),
        "skips": list(state.skips),
        "barred": sorted(state.barred),
        "idle": state.idle,
        "end": state.end,
        "jumbulaya": None
        if made is None
        else {
            "seat": made.seat,
            "tiles": list(made.tiles),
            "lines": list(made.lines),
            "points": made.points,
        },
        "seq": state.seq,
    }


def state_from_json(data: dict[str, Any]) -> GameState:
    """Read what :func:`state_to_json` wrote."""
    made = data["jumbulaya"]
    return GameState(
        rules=rules_from_json(data["rules"]),
        players=tuple(data["players"]),
        lines=tuple(
            Line(tuple(ln["tiles"]), ln["word"], ln["owner"], frozenset(ln["history"]))
            for ln in data["lines"]
        ),
        racks=tuple(tuple(r) for r in data["racks"]),
        bag=tuple(data["bag"]),
        turn=data["turn"],
        resigned=frozenset(data["resigned"]),
        skips=tuple(data["skips"]),
        barred=frozenset(data["barred"]),
        idle=data["idle"],
        end=data["end"],
        jumbulaya=None
        if made is None
        else JumbulayaMade(
            made["seat"], tuple(made["tiles"]), tuple(made["lines"]), made["points"]
        ),
        seq=data["seq"],
    )
