"""The crossword board as a seat sees it: the squares (each with its premium
in words, the centre star, the last play marked), the seat's own rack and
nothing of another's, and the board as a text grid with coordinates for the
text email."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.crossword.board import EMPTY, name_of
from games.engine.crossword.layout import CENTRE, COLUMNS, PREMIUMS, SIZE
from games.engine.crossword.state import GameState

END_WORDS = {
    "went_out": "a player used every tile with the bag empty",
    "scoreless": "six turns in a row scored nothing",
    "target": "a player reached their target score",
    "resigned": "fewer than two players remain",
}
PREMIUM_WORDS = {
    "DW": "double word",
    "TW": "triple word",
    "DL": "double letter",
    "TL": "triple letter",
}
#: The text grid's marks for empty squares, and its legend.
TEXT_MARKS = {"": ".", "DL": "'", "TL": '"', "DW": "-", "TW": "="}
TEXT_LEGEND = (
    "Key: = triple word, - double word, \" triple letter, ' double letter, * the centre "
    "(double word); a lower-case letter is a blank; ( ) marks the last play."
)


@dataclass(frozen=True, slots=True)
class Square:
    """One square: ``letter`` upper case ("" when empty), ``blank`` for a blank."""

    name: str
    letter: str
    blank: bool
    premium: str  # "", "DL", "TL", "DW", "TW"
    centre: bool
    last: bool

    @property
    def premium_words(self) -> str:
        return PREMIUM_WORDS.get(self.premium, "")

    @property
    def words(self) -> str:
        """The square in words, for a screen reader."""
        if self.letter:
            said = f"{self.letter}, a blank" if self.blank else self.letter
            return f"{said}, last play" if self.last else said
        if self.centre:
            return "centre star, double word"
        return self.premium_words or "empty"


@dataclass(frozen=True, slots=True)
class OpenPlayView:
    seat: int
    name: str
    words: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class PendingEndView:
    """A play that would end the game (``async`` mode), awaiting its answer:
    ``words`` says so, as "Ann went out; Bob may challenge the play or accept
    the end"."""

    mover: str
    answering: str
    reason: str  # "went_out" or "target"

    @property
    def did(self) -> str:
        return "reached their target" if self.reason == "target" else "went out"

    @property
    def words(self) -> str:
        return f"{self.mover} {self.did}; {self.answering} may challenge the play or accept the end"


def pending_end(state: GameState) -> PendingEndView | None:
    """The end the open play would make, once accepted, or ``None``."""
    made = state.open_play
    if made is None or state.pending_end is None or state.turn is None:
        return None
    players = state.players
    return PendingEndView(players[made.seat], players[state.turn], state.pending_end)


@dataclass(frozen=True)
class CrosswordBoardView:
    """The game as one seat (or a spectator: ``hand`` is ``None``) sees it."""

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
    rows: list[tuple[int, list[Square]]]
    columns: str
    bag: int
    targets: list[int] | None
    lost_turns: list[int]
    scoreless: int
    open_play: OpenPlayView | None
    may_challenge: bool
    pending_end: PendingEndView | None
    may_accept: bool
    last_squares: tuple[str, ...]
    seq: int

    @property
    def rack(self) -> tuple[str, ...] | None:
        return self.hand


def squares(state: GameState) -> list[tuple[int, list[Square]]]:
    """The board's rows, numbered from 1, each a list of its squares."""
    last = set(state.last_play)
    out = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            i = r * SIZE + c
            ch = state.board[i]
            row.append(
                Square(
                    name_of(i),
                    "" if ch == EMPTY else ch.upper(),
                    ch.islower(),
                    PREMIUMS[r][c],
                    (r, c) == CENTRE,
                    i in last,
                )
            )
        out.append((r + 1, row))
    return out


def board_view(state: GameState, seat: int | None) -> CrosswordBoardView:
    players = list(state.players)
    made = state.open_play
    winners = state.winners()
    return CrosswordBoardView(
        players=players,
        scores=state.scores(),
        hand_sizes=[len(r) for r in state.racks],
        hand=None if seat is None else tuple(state.racks[seat]),
        turn=state.turn,
        turn_name=None if state.turn is None else players[state.turn],
        over=state.over,
        end_words=END_WORDS.get(state.end or ""),
        winners=winners,
        winner_names=[players[s] for s in winners],
        resigned=sorted(state.resigned),
        rows=squares(state),
        columns=COLUMNS,
        bag=len(state.bag),
        targets=None if state.targets is None else list(state.targets),
        lost_turns=list(state.skips),
        scoreless=state.scoreless,
        open_play=None
        if made is None
        else OpenPlayView(made.seat, players[made.seat], made.words, made.points),
        may_challenge=seat is not None
        and made is not None
        and made.seat != seat
        and state.in_game(seat),
        pending_end=pending_end(state),
        may_accept=seat is not None and state.ending and state.turn == seat,
        last_squares=tuple(name_of(q) for q in state.last_play),
        seq=state.seq,
    )


def board_text(view: CrosswordBoardView) -> str:
    """The board as a grid of text with its coordinates: columns A–O across the
    top, rows 1–15 down the side; the last play's tiles in parentheses."""
    lines = ["    " + " ".join(f" {c} " for c in view.columns).rstrip()]
    for number, row in view.rows:
        cells = []
        for sq in row:
            if sq.letter:
                text = sq.letter.lower() if sq.blank else sq.letter
            else:
                text = "*" if sq.centre else TEXT_MARKS[sq.premium]
            cells.append(f"({text})" if sq.last else f" {text} ")
        lines.append(f"{number:>2}  " + " ".join(cells).rstrip())
    return "\n".join([*lines, "", TEXT_LEGEND])
