"""What one seat (or a spectator) sees of a Tumble-Words game, for pages and
emails: the open round's rolls (public: the players roll on the table), each
cube's face with its colour named in words as well as shown, who the round
still waits for, the viewer's own sealed crossword with what it would score,
and every closed round revealed.

Nothing here holds another seat's sealed crossword, nor what it would score:
:meth:`~games.engine.tumble.TumbleState.submission_of` is read for the viewer
alone, and of the others only whether they have submitted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from games.engine import tumble as engine
from games.engine.tumble.cubes import COLOUR_NAMES, CUBE_COUNT, CUBES, Colour
from games.engine.tumble.grid import EMPTY, parse_grid, runs
from games.engine.tumble.score import ALL_CUBES_BONUS, score_words

END_WORDS: dict[str, str] = {
    "target": "a player reached the points to win",
    "resigned": "fewer than two players remain",
}

#: Each colour's name in the grids' colour marks.
MARK_NAMES: dict[str, str] = {**COLOUR_NAMES, "?": "any colour"}


@dataclass(frozen=True, slots=True)
class Cube:
    """One rolled cube: its number in the set (1 to 13), the face showing
    (``""`` for a blank) and its colour, in words too."""

    number: int
    face: str
    colour: str  # red, black or green
    mark: str  # R, K or G

    @property
    def blank(self) -> bool:
        return self.face == ""

    @property
    def words(self) -> str:
        shown = "a blank" if self.blank else self.face
        return f"cube {self.number}, {self.colour}: {shown}"


def cubes_of(roll: str) -> tuple[Cube, ...]:
    """A roll's cubes in the set's order."""
    return tuple(
        Cube(
            i + 1,
            "" if face == engine.BLANK else face,
            COLOUR_NAMES[cube.colour],
            cube.colour,
        )
        for i, (face, cube) in enumerate(zip(roll, CUBES, strict=True))
    )


def roll_text(roll: str) -> str:
    """A roll for text emails, by colour: ``red A E C D A P T · black O B R · green X E H``."""
    parts = []
    for mark in ("R", "K", "G"):
        faces = [c.face or "_" for c in cubes_of(roll) if c.mark == mark]
        parts.append(f"{COLOUR_NAMES[mark]} {' '.join(faces)}")
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class Square:
    letter: str  # "" for an empty square
    blank: bool  # a blank standing for ``letter``
    colour: str  # "" for an empty square or no colour said
    mark: str

    @property
    def empty(self) -> bool:
        return self.letter == ""

    @property
    def words(self) -> str:
        if self.empty:
            return "empty"
        if self.blank:
            return f"{self.letter}, a blank"
        return f"{self.letter}, {self.colour}" if self.colour else self.letter


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    direction: str
    one_colour: bool
    points: int


@dataclass(frozen=True)
class Shown:
    """A crossword as a page draws it: its squares by rows, its words and
    points, and its one-line notation."""

    notation: str
    rows: tuple[tuple[Square, ...], ...]
    lines: tuple[str, ...]  # the rows as typed (``.`` empty, lower case a blank)
    words: tuple[Word, ...]
    used: int

    @property
    def empty(self) -> bool:
        return not self.rows

    @property
    def unused(self) -> int:
        return CUBE_COUNT - self.used

    @property
    def bonus(self) -> int:
        return ALL_CUBES_BONUS if self.used == CUBE_COUNT else 0


def shown(crossword: str) -> Shown:
    """A checked crossword's one-line form (with the colours it was laid with)
    drawn: it was checked when submitted, so only its shape is read here."""
    read = parse_grid(crossword)
    colours = read.colours
    rows = []
    for r, row in enumerate(read.rows):
        squares = []
        for c, ch in enumerate(row):
            if ch == EMPTY:
                squares.append(Square("", False, "", ""))
                continue
            mark = colours[r][c] if colours is not None else "?"
            name = "" if ch.islower() else MARK_NAMES.get(mark, "")
            squares.append(Square(ch.upper(), ch.islower(), name, mark if name else ""))
        rows.append(tuple(squares))
    cells = read.cells
    found = runs(read.rows)
    words: tuple[Word, ...] = ()
    if colours is not None:  # always, for a crossword the service checked
        laid = {cell: cast(Colour, colours[cell[0]][cell[1]]) for cell in cells}
        scored = score_words(cells, found, laid)
        words = tuple(Word(w.run.text, w.run.direction, w.one_colour, w.points) for w in scored)
    return Shown(read.text(), tuple(rows), read.rows, words, len(cells))


@dataclass(frozen=True)
class RoundSeat:
    """One seat of a round: its roll, and once revealed its crossword and points."""

    seat: int
    name: str
    cubes: tuple[Cube, ...]
    roll: str
    submitted: bool
    crossword: Shown | None  # revealed (closed rounds) or the viewer's own (open round)
    points: int | None
    is_me: bool


@dataclass(frozen=True)
class ClosedRound:
    number: int
    seats: tuple[RoundSeat, ...]


@dataclass(frozen=True)
class TumbleView:
    """The game as one seat (or a spectator, ``seat`` ``None``) sees it; the
    names pages and emails read (:class:`games.kinds.base.SeatView`) first.
    ``hand`` is the viewer's own sealed crossword, by rows (empty before it
    submits one); ``hand_sizes`` says which seats hold one (1) or not (0),
    which is public."""

    players: list[str]
    scores: list[int]
    hand_sizes: list[int]
    hand: tuple[str, ...] | None
    turn: int | None
    turn_name: str | None
    over: bool
    end_words: str | None
    winners: list[int]
    winner_names: list[str]
    resigned: list[int]
    seq: int
    seat: int | None
    sealed: bool  # two players: both play every round, sealed
    round: int
    target: int
    younger: bool
    open_round: tuple[RoundSeat, ...]
    waiting: list[int]
    waiting_names: list[str]
    own: RoundSeat | None  # the viewer's seat in the open round
    rounds: tuple[ClosedRound, ...]  # newest first

    @property
    def my_roll(self) -> tuple[Cube, ...] | None:
        return None if self.own is None else self.own.cubes

    @property
    def last_round(self) -> ClosedRound | None:
        return self.rounds[0] if self.rounds else None

    @property
    def to_play(self) -> bool:
        return self.seat is not None and self.seat in self.waiting


def _open_round(state: engine.TumbleState, seat: int | None) -> tuple[RoundSeat, ...]:
    out = []
    waiting = state.waiting()
    for s, roll in zip(state.seats_in_round, state.rolls, strict=True):
        mine = state.submission_of(s) if s == seat else None
        out.append(
            RoundSeat(
                seat=s,
                name=state.players[s],
                cubes=cubes_of(roll),
                roll=roll,
                submitted=s not in waiting,
                crossword=None if mine is None else shown(mine.crossword),
                points=None if mine is None else mine.points,
                is_me=s == seat,
            )
        )
    return tuple(out)


def closed_rounds(state: engine.TumbleState, seat: int | None) -> tuple[ClosedRound, ...]:
    """Every closed round revealed, newest first."""
    out = []
    for h in reversed(state.history):
        out.append(
            ClosedRound(
                h.round,
                tuple(
                    RoundSeat(
                        seat=s,
                        name=state.players[s],
                        cubes=cubes_of(roll),
                        roll=roll,
                        submitted=crossword is not None,
                        crossword=None if crossword is None else shown(crossword),
                        points=points,
                        is_me=s == seat,
                    )
                    for s, roll, crossword, points in zip(
                        h.seats, h.rolls, h.crosswords, h.points, strict=True
                    )
                ),
            )
        )
    return tuple(out)


def seat_view(state: engine.TumbleState, seat: int | None) -> TumbleView:
    names = list(state.players)
    winners = state.winners()
    waiting = list(state.waiting())
    open_round = _open_round(state, seat)
    own = next((r for r in open_round if r.is_me), None)
    mine = None if seat is None else state.submission_of(seat)
    return TumbleView(
        players=names,
        scores=list(state.totals),
        hand_sizes=[0 if state.submission_of(s) is None else 1 for s in range(state.seats)],
        hand=None if seat is None else (() if mine is None else shown(mine.crossword).lines),
        turn=state.turn,
        turn_name=None if state.turn is None else " and ".join(names[s] for s in waiting),
        over=state.over,
        end_words=END_WORDS.get(state.end or ""),
        winners=winners,
        winner_names=[names[s] for s in winners],
        resigned=sorted(state.resigned),
        seq=state.seq,
        seat=seat,
        sealed=state.sealed_rounds,
        round=state.round,
        target=state.options.target,
        younger=state.options.younger,
        open_round=open_round,
        waiting=waiting,
        waiting_names=[names[s] for s in waiting],
        own=own,
        rounds=closed_rounds(state, seat),
    )


def crossword_text(crossword: Shown) -> list[str]:
    """A crossword for a text email: its rows, then its words and points."""
    lines = [f"    {line}" for line in crossword.lines] or ["    (nothing laid)"]
    for w in crossword.words:
        colour = "one colour" if w.one_colour else "mixed"
        lines.append(f"    {w.text} ({w.direction}, {colour}): {w.points}")
    if crossword.unused:
        lines.append(
            f"    {crossword.unused} cube{'s' if crossword.unused != 1 else ''} unused: "
            f"-{crossword.unused}"
        )
    else:
        lines.append(f"    all 13 cubes used: +{crossword.bonus}")
    return lines


def board_text(view: TumbleView) -> str:
    """The open round and the last round revealed, in plain text."""
    lines: list[str] = []
    if view.own is not None:
        lines.append(f"Your roll for round {view.round}: {roll_text(view.own.roll)}")
        lines.append("Cube by cube: " + ", ".join(c.words for c in view.own.cubes) + ".")
        if view.own.crossword is not None:
            lines += [
                "",
                f"Your crossword handed in (sealed until the round closes; you may replace "
                f"it until then), scoring {view.own.points}:",
                *crossword_text(view.own.crossword),
            ]
    for r in view.open_round:
        if not r.is_me:
            state = "has handed in a crossword" if r.submitted else "has not handed in yet"
            lines.append(f"{r.name}'s roll: {roll_text(r.roll)} ({state}).")
    last = view.last_round
    if last is not None:
        lines += ["", f"Round {last.number}, revealed:"]
        for r in last.seats:
            if r.crossword is None:
                lines.append(f"  {r.name} handed in nothing: {r.points} (every cube unused).")
                continue
            lines.append(f"  {r.name} scored {r.points} (roll {r.roll}):")
            lines += crossword_text(r.crossword)
    return "\n".join(lines)
