"""What one seat (or a spectator) sees of a Blockers game, for pages and
emails: the board as rows of squares, each tile's colour named in words and
marked by a letter (so it reads without colour), each square's sector, every
seat's counts and captured tiles, and the viewer's own rack only.

Nothing here holds another seat's rack nor any pile's order: a pile is shown
by its size alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import blockers as engine
from games.engine.blockers.board import COLUMNS, ROWS, SIZE, sector_of, sort_tiles

#: Each colour's one-letter mark, in lower case so it is never read as a
#: letter tile (the text grid writes a blue B as ``bB``).
MARKS: dict[str, str] = {"yellow": "y", "blue": "b", "green": "g", "red": "r", "purple": "p"}

END_WORDS: dict[str, str] = {
    "complete": "every player has taken 24 turns (the fewest points win)",
    "resigned": "fewer than two players remain",
}


def tile_words(face: str) -> str:
    """A tile's face in words: ``the 7``, ``the letter C``, ``the symbol S5``, ``the wild``."""
    if face == engine.WILD:
        return "the wild"
    if face.startswith("S"):
        return f"the symbol {face}"
    if face.isdigit():
        return f"the {face}"
    return f"the letter {face}"


def where_words(face: str) -> str:
    """Where a tile goes, in words."""
    if face == engine.WILD:
        return "any square"
    if face.startswith("S"):
        n = int(face[1:])
        rows, cols = ROWS[(n - 1) // 3 * 3 : (n - 1) // 3 * 3 + 3], COLUMNS[(n - 1) % 3 * 3 :][:3]
        return f"sector {face} (rows {rows[0]}–{rows[-1]}, columns {cols[0]}–{cols[-1]})"
    if face.isdigit():
        return f"column {face}"
    return f"row {face}"


@dataclass(frozen=True, slots=True)
class Square:
    name: str  # "C7"
    sector: int  # 1-9
    face: str  # "" when empty
    owner: int | None
    colour: str  # "" when empty
    mark: str  # the colour's letter, "" when empty
    owner_name: str

    @property
    def empty(self) -> bool:
        return self.owner is None

    @property
    def words(self) -> str:
        """The square in words, as a screen reader announces it."""
        where = f"{self.name}, sector S{self.sector}"
        if self.owner is None:
            return f"{where}, empty"
        return f"{where}: {self.owner_name}'s {self.colour} {self.face}"


@dataclass(frozen=True, slots=True)
class BoardRow:
    letter: str
    squares: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class Taken:
    face: str
    colour: str
    mark: str


@dataclass(frozen=True, slots=True)
class SeatSide:
    """One seat's public side: its colour, groups, captured tiles, counts."""

    seat: int
    name: str
    colour: str
    mark: str
    groups: int
    score: int
    taken: tuple[Taken, ...]
    most_taken: int
    pile: int
    turns_left: int


@dataclass(frozen=True)
class BlockersView:
    """The game as one seat (or a spectator, ``seat`` ``None``) sees it; the
    names pages and emails read (:class:`games.kinds.base.SeatView`) first."""

    players: list[str]
    scores: list[int]
    hand_sizes: list[int]
    hand: tuple[str, ...] | None  # the viewer's own rack, canonical order
    turn: int | None
    turn_name: str | None
    over: bool
    end_words: str | None
    winners: list[int]
    winner_names: list[str]
    resigned: list[int]
    seq: int
    seat: int | None
    colours: list[str]
    rows: list[BoardRow]
    sides: list[SeatSide]

    @property
    def my_colour(self) -> str | None:
        return None if self.seat is None else self.colours[self.seat]

    @property
    def my_mark(self) -> str:
        return "" if self.seat is None else MARKS[self.colours[self.seat]]


def board_rows(state: engine.BlockersState) -> list[BoardRow]:
    colours = state.colours
    rows = []
    for r, letter in enumerate(ROWS):
        squares = []
        for c in range(SIZE):
            i = r * SIZE + c
            owner = state.owners[i]
            seat = None if owner < 0 else owner
            colour = "" if seat is None else colours[seat]
            squares.append(
                Square(
                    name=f"{letter}{COLUMNS[c]}",
                    sector=sector_of(i),
                    face=state.faces[i],
                    owner=seat,
                    colour=colour,
                    mark=MARKS.get(colour, ""),
                    owner_name="" if seat is None else state.players[seat],
                )
            )
        rows.append(BoardRow(letter, tuple(squares)))
    return rows


def sides(state: engine.BlockersState) -> list[SeatSide]:
    colours = state.colours
    groups, scores = state.groups(), state.scores()
    return [
        SeatSide(
            seat=s,
            name=state.players[s],
            colour=colours[s],
            mark=MARKS[colours[s]],
            groups=groups[s],
            score=scores[s],
            taken=tuple(Taken(f, colours[c], MARKS[colours[c]]) for f, c in state.taken[s]),
            most_taken=max(state.captures[s], default=0),
            pile=len(state.piles[s]),
            turns_left=state.turns_left(s),
        )
        for s in range(state.seats)
    ]


def seat_view(state: engine.BlockersState, seat: int | None) -> BlockersView:
    names = list(state.players)
    winners = state.winners()
    return BlockersView(
        players=names,
        scores=state.scores(),
        hand_sizes=[len(r) for r in state.racks],
        hand=None if seat is None else sort_tiles(state.racks[seat]),
        turn=state.turn,
        turn_name=None if state.turn is None else names[state.turn],
        over=state.over,
        end_words=END_WORDS.get(state.end or ""),
        winners=winners,
        winner_names=[names[s] for s in winners],
        resigned=sorted(state.resigned),
        seq=state.seq,
        seat=seat,
        colours=list(state.colours),
        rows=board_rows(state),
        sides=sides(state),
    )


def board_text(view: BlockersView) -> str:
    """The board as a text grid with its coordinates, and a legend."""
    lines = ["    " + "".join(f"{c:<4}" for c in COLUMNS).rstrip()]
    for row in view.rows:
        cells = "".join(f"{sq.mark + sq.face if sq.face else '.':<4}" for sq in row.squares)
        lines.append(f" {row.letter}  {cells.rstrip()}")
    legend = ", ".join(f"{side.mark} = {side.colour} ({side.name})" for side in view.sides)
    lines += [
        "",
        f"Colours: {legend}. A dot is an empty square.",
        "Numbers go in their column, letters in their row, S1 to S9 in their 3×3 sector "
        "(S1 is rows A–C × columns 1–3, S5 the centre, S9 rows G–I × columns 7–9), "
        "the wild * anywhere.",
    ]
    for side in view.sides:
        taken = " ".join(t.mark + t.face for t in side.taken) or "nothing"
        lines.append(
            f"{side.name} ({side.colour}): {side.groups} group{'s' if side.groups != 1 else ''}, "
            f"{side.score} point{'s' if side.score != 1 else ''}; has taken {taken}."
        )
    return "\n".join(lines)
