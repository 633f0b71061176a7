"""What one seat (or a spectator) sees of a JUMBULAYA game, for pages and
emails: the nine lines with their owners and points, every seat's score and
rack size, and the viewer's own rack only.

Nothing here holds another seat's rack nor the bag's order: the bag is shown
by its size alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from accounts.names import shown_site_name
from games.engine.jumbulaya import GameState, line_points

END_WORDS = {
    "jumbulaya": "a JUMBULAYA was found",
    "ten_tiles": "a line reached 10 tiles",
    "all_lines": "one player claimed all nine lines",
    "stalled": "no word was built for too long",
    "resigned": "fewer than two players remain",
}


@dataclass(frozen=True)
class LineView:
    number: int  # 1..9
    tiles: tuple[str, ...]
    word: str | None
    owner: int | None
    owner_name: str | None
    points: int  # what the line scores for its owner


@dataclass(frozen=True)
class BoardView:
    lines: list[LineView]
    players: list[str]
    scores: list[int]
    rack_sizes: list[int]
    rack: tuple[str, ...] | None  # the viewer's own rack; None for a spectator
    bag: int
    turn: int | None
    turn_name: str | None
    over: bool
    end: str | None
    end_words: str | None
    winners: list[int]  # seats
    winner_names: list[str]
    resigned: list[int]
    jumbulaya_open: bool
    seq: int

    @property
    def hand_sizes(self) -> list[int]:
        """Each seat's rack size: the pieces it holds hidden."""
        return self.rack_sizes

    @property
    def hand(self) -> tuple[str, ...] | None:
        """The viewer's own rack (``None`` for a spectator)."""
        return self.rack


def player_names(players: Sequence[str]) -> list[str]:
    """The players' names as pages and emails show them.  A game's log keeps
    the names its players had when it began (pages and emails swap in the
    current ones: :mod:`games.core.seat_names`); one that the name rules refuse
    (kept from before they did: a line break, a link) shows as its seat.  The
    names are the site's writing (a robot's, a bot's with its mark pass)."""
    return [shown_site_name(name) or f"Seat {i + 1}" for i, name in enumerate(players)]


def board_view(state: GameState, seat: int | None) -> BoardView:
    """The board for ``seat`` (``None``: a spectator)."""
    players = player_names(state.players)
    return BoardView(
        lines=[
            LineView(
                number=i + 1,
                tiles=ln.tiles,
                word=ln.word,
                owner=ln.owner,
                owner_name=None if ln.owner is None else players[ln.owner],
                points=line_points(ln.tiles) if ln.owner is not None else 0,
            )
            for i, ln in enumerate(state.lines)
        ],
        players=players,
        scores=state.scores(),
        rack_sizes=[len(r) for r in state.racks],
        rack=None if seat is None else state.racks[seat],
        bag=len(state.bag),
        turn=state.turn,
        turn_name=None if state.turn is None else players[state.turn],
        over=state.over,
        end=state.end,
        end_words=END_WORDS.get(state.end or ""),
        winners=state.winners(),
        winner_names=[players[s] for s in state.winners()],
        resigned=sorted(state.resigned),
        jumbulaya_open=state.jumbulaya_open(),
        seq=state.seq,
    )


def board_text(board: BoardView) -> str:
    """The nine lines in a monospace block, e.g. ``3  F A C T S   (Ann, 5)``."""
    cells = [" ".join(line.tiles) or "-" for line in board.lines]
    width = max(len(c) for c in cells)
    rows = []
    for line, cell in zip(board.lines, cells, strict=True):
        owner = f"   ({line.owner_name}, {line.points})" if line.owner_name is not None else ""
        rows.append(f"{line.number}  {cell.ljust(width)}{owner}".rstrip())
    return "\n".join(rows)
