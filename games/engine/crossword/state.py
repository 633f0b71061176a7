"""The state of a crossword game: what every event folds into.

States are treated as immutable: :func:`~games.engine.crossword.fold.evolve`
makes a new one per event.  Racks and the bag are strings of tiles (``?`` a
blank), the board a flat string (:mod:`.board`).  The bag is kept sorted
(:func:`as_bag`): draws are picked at random, so its order could only tell how
tiles came into it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .board import CENTRE_SQUARE, EMPTY
from .options import Options, options_from_json

#: How a game ended: a player went out with the bag empty, six scoreless turns
#: in a row, a player reached their target (Translating the Word), or too few
#: players are left.
EndReason = Literal["went_out", "scoreless", "target", "resigned"]

#: The scoreless turns in a row that end the game.
SCORELESS_LIMIT = 6


def as_bag(tiles: str) -> str:
    """``tiles`` as the bag keeps them: sorted, a multiset with no order, so
    that nothing in it says which tiles were dealt, given back or drawn when."""
    return "".join(sorted(tiles))


@dataclass(frozen=True, slots=True)
class OpenPlay:
    """The last play while it is open to a challenge (``async`` mode): what a
    withdrawal needs to put everything back exactly as it was.  ``rack`` is the
    mover's rack before the play (private), ``scoreless`` the count of
    scoreless turns before it."""

    seat: int
    squares: tuple[int, ...]
    words: tuple[str, ...]
    points: int
    drawn: str
    rack: str
    scoreless: int


@dataclass(slots=True)
class GameState:
    """A position.  ``turn`` is the seat to move (``None`` once over).

    ``points`` are the scores made in play; ``adjustments`` the unplayed
    letters' adjustments made at the end (all 0 until then).  The class is not
    frozen because building frozen instances costs more and replaying logs is a
    hot path; :func:`evolve` never changes the state it is given.
    """

    options: Options
    players: tuple[str, ...]
    board: str
    racks: tuple[str, ...]
    bag: str
    turn: int | None
    points: tuple[int, ...]
    adjustments: tuple[int, ...]
    targets: tuple[int, ...] | None = None
    resigned: frozenset[int] = frozenset()
    skips: tuple[int, ...] = ()  # turns each seat must still lose (wrong challenges)
    scoreless: int = 0  # scoreless turns in a row, over all players
    open_play: OpenPlay | None = None
    end: EndReason | None = None
    finisher: int | None = None  # who went out, or reached their target
    seq: int = field(default=0, compare=False)
    #: The squares of the latest play still on the board (none after a
    #: withdrawal), for the board to mark.
    last_play: tuple[int, ...] = ()
    #: ``async`` mode: the end (``went_out`` or ``target``) the open play would
    #: make.  The game waits on ``turn``, who may challenge the play or accept
    #: the end (``pass``); any other seat may challenge it too.
    pending_end: EndReason | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def ending(self) -> bool:
        """Whether the open play would end the game, once accepted."""
        return self.pending_end is not None

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def first_play(self) -> bool:
        """Whether the next play is the first: the centre square is empty."""
        return self.board[CENTRE_SQUARE] == EMPTY

    def in_game(self, seat: int) -> bool:
        return seat not in self.resigned

    def scores(self) -> list[int]:
        """Each seat's score: its points, plus the adjustments once over."""
        return [p + a for p, a in zip(self.points, self.adjustments, strict=True)]

    def winners(self) -> list[int]:
        """Once over, the seats still in the game that win.

        Reaching the target wins outright; otherwise the highest score wins, a
        tie going to the highest score before the adjustments, and players
        still tied all win.
        """
        if not self.over:
            return []
        if self.end == "target" and self.finisher is not None:
            return [self.finisher]
        live = [s for s in range(self.seats) if s not in self.resigned]
        scores = self.scores()
        ranked = {s: (scores[s], self.points[s]) for s in live}
        top = max(ranked.values())
        return [s for s in live if ranked[s] == top]

    def tile_count(self) -> int:
        """Every tile on the board, in racks and in the bag (always 100)."""
        on_board = len(self.board) - self.board.count(EMPTY)
        return on_board + sum(map(len, self.racks)) + len(self.bag)


def _open_to_json(made: OpenPlay | None) -> dict[str, Any] | None:
    if made is None:
        return None
    return {
        "seat": made.seat,
        "squares": list(made.squares),
        "words": list(made.words),
        "points": made.points,
        "drawn": made.drawn,
        "rack": made.rack,
        "scoreless": made.scoreless,
    }


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state as JSON-ready data (racks and bag included: for the
    server's own cache, never for a player)."""
    return {
        "options": state.options.to_json(),
        "players": list(state.players),
        "board": state.board,
        "racks": list(state.racks),
        "bag": state.bag,
        "turn": state.turn,
        "points": list(state.points),
        "adjustments": list(state.adjustments),
        "targets": None if state.targets is None else list(state.targets),
        "resigned": sorted(state.resigned),
        "skips": list(state.skips),
        "scoreless": state.scoreless,
        "open_play": _open_to_json(state.open_play),
        "end": state.end,
        "finisher": state.finisher,
        "seq": state.seq,
        "last_play": list(state.last_play),
        "pending_end": state.pending_end,
    }


def state_from_json(data: dict[str, Any]) -> GameState:
    """Read what :func:`state_to_json` wrote."""
    made = data["open_play"]
    targets = data["targets"]
    return GameState(
        options=options_from_json(data["options"]),
        players=tuple(data["players"]),
        board=data["board"],
        racks=tuple(data["racks"]),
        bag=as_bag(data["bag"]),
        turn=data["turn"],
        points=tuple(data["points"]),
        adjustments=tuple(data["adjustments"]),
        targets=None if targets is None else tuple(targets),
        resigned=frozenset(data["resigned"]),
        skips=tuple(data["skips"]),
        scoreless=data["scoreless"],
        open_play=None
        if made is None
        else OpenPlay(
            made["seat"],
            tuple(made["squares"]),
            tuple(made["words"]),
            made["points"],
            made["drawn"],
            made["rack"],
            made["scoreless"],
        ),
        end=data["end"],
        finisher=data["finisher"],
        seq=data["seq"],
        last_play=tuple(data.get("last_play", ())),
        pending_end=data.get("pending_end"),
    )
