"""Post-game analysis: what each turn played, what it could have played, and
every JUMBULAYA that lay open on the board (issue 12).

:func:`analyse` folds a finished game's events once.  The game is over, so the
analysis may look at the true racks: for every turn it lists the move played
and the points it gained its mover, the best word move by points the mover had
at that moment, the points left on the table (best less played, never below
0) and, when a robot is passed in, the robot's choice from the mover's seat
view.  The JUMBULAYAs that could have been called are told by open stretch
(consecutive turns while calls were allowed and the board spelled at least
one): its best word and points, the turn it began, how many turns went by
without anyone calling one, who called one (if anyone), and how many other
words were open.  Per player totals close the analysis.

Turns are numbered as in a game record's ``turns`` list: from 0, every event
after the start (off-turn calls and resignations included).

The result is JSON-ready (:meth:`GameAnalysis.to_json`, :meth:`GameAnalysis.from_json`)
so the service can store it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..lexicon import Lexicon
from ..tiles import Tiles
from .events import Event, GameStarted, JumbulayaVerified, Resigned
from .fold import evolve, start
from .movegen import legal_moves
from .notation import format_word
from .record import turn_of
from .runs import Found, search
from .state import GameState, line_points
from .view import SeatView, read_view, seat_view

FORMAT = "jumbulaya-analysis/2"  # 2: JUMBULAYAs by open stretch, not by word
#: How many of each player's biggest missed chances the totals keep.
BIGGEST = 3

#: A robot asked for its choice: a seat view in, an answer in the protocol's
#: notation out (see ``robots.answer``).
Robot = Callable[[SeatView], str]


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn: who moved, what was played and what was best."""

    turn: int
    seat: int
    move: str
    points: int  # what the mover's score gained
    on_turn: bool  # the mover had the turn (not an off-turn call or resignation)
    best: str | None = None  # the best word move by points, when there was one
    best_points: int = 0
    missed: int = 0  # points left on the table: best_points - points, at least 0
    robot: str | None = None  # the robot's choice from the mover's view


@dataclass(frozen=True, slots=True)
class OpenJumbulaya:
    """An open stretch: consecutive turns during which calls were allowed and
    the board spelled at least one JUMBULAYA, told by its best word."""

    word: str  # the best word of the stretch, in notation (explicit when ambiguous)
    points: int
    from_turn: int  # the first turn a JUMBULAYA could have been called at
    turns: int  # turns that went by with nobody calling one
    called_by: int | None = None  # the seat that called one, if anyone did
    missed_by: tuple[int, ...] = ()  # seats that could have called one and did not
    others: int = 0  # how many other words the board spelled during the stretch


@dataclass(frozen=True, slots=True)
class MissedChance:
    turn: int
    played: str
    best: str
    missed: int


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    seat: int
    name: str
    scored: int  # the seat's final score
    left: int  # points left on the table over the game
    missed_jumbulayas: int  # open JUMBULAYAs this seat could have called and did not
    biggest: tuple[MissedChance, ...] = ()  # the biggest missed chances, largest first


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    players: tuple[str, ...]
    turns: tuple[TurnAnalysis, ...]
    jumbulayas: tuple[OpenJumbulaya, ...]
    totals: tuple[PlayerTotals, ...]
    robot: bool = field(default=False)  # whether a robot's choices were asked for

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": list(self.players),
            "robot": self.robot,
            "turns": [asdict(t) for t in self.turns],
            "jumbulayas": [{**asdict(j), "missed_by": list(j.missed_by)} for j in self.jumbulayas],
            "totals": [
                {**asdict(t), "biggest": [asdict(m) for m in t.biggest]} for t in self.totals
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameAnalysis:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        return cls(
            players=tuple(data["players"]),
            robot=bool(data.get("robot", False)),
            turns=tuple(TurnAnalysis(**t) for t in data["turns"]),
            jumbulayas=tuple(
                OpenJumbulaya(**{**j, "missed_by": tuple(j["missed_by"])})
                for j in data["jumbulayas"]
            ),
            totals=tuple(
                PlayerTotals(**{**t, "biggest": tuple(MissedChance(**m) for m in t["biggest"])})
                for t in data["totals"]
            ),
        )


def best_word(state: GameState, seat: int, lexicon: Lexicon) -> tuple[str | None, int]:
    """The word move that gains ``seat`` the most points now (what the line
    scores, less what it already scored for the seat): its notation and gain.
    Ties go to the longer word, then to the first found (top line first)."""
    best: tuple[int, int] | None = None
    notation = None
    for move in legal_moves(state, seat, lexicon):
        held = state.lines[move.line]
        gain = move.points - (line_points(held.tiles) if held.owner == seat else 0)
        rank = (gain, len(move.code))
        if best is None or rank > best:
            best, notation = rank, move.notation()
    return notation, (best[0] if best else 0)


@dataclass
class _Stretch:
    """An open stretch being tracked: consecutive turns while calls were allowed
    and the board spelled at least one JUMBULAYA."""

    from_turn: int
    words: dict[Tiles, Found] = field(default_factory=dict)
    turns: int = 0
    called_by: int | None = None
    missed_by: set[int] = field(default_factory=set)

    def close(self) -> OpenJumbulaya:
        best = max(self.words.values(), key=lambda f: (f.points, len(f.tiles), f.tiles))
        return OpenJumbulaya(
            word=format_word(best.tiles),
            points=best.points,
            from_turn=self.from_turn,
            turns=self.turns,
            called_by=self.called_by,
            missed_by=tuple(sorted(self.missed_by)),
            others=len(self.words) - 1,
        )


class _Jumbulayas:
    """Tracks the open stretches, turn by turn: one entry per stretch, not per
    word (a long game's board may spell a thousand words over its stretches)."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.open: _Stretch | None = None
        self.closed: list[OpenJumbulaya] = []
        self._board: tuple[Tiles, ...] | None = None
        self._found: list[Found] = []

    def on_board(self, state: GameState) -> list[Found]:
        if state.over or not state.jumbulaya_open():
            return []
        board = tuple(ln.tiles for ln in state.lines)
        if board != self._board:  # only word moves change it: search once per board
            self._board, self._found = board, search(board, self.lexicon, state.rules)
        return self._found

    def before(self, turn: int, state: GameState) -> None:
        """Open a stretch when the board spells a JUMBULAYA, close it when it no
        longer spells any; every word spelled meanwhile belongs to it."""
        found = self.on_board(state)
        if not found:
            self._close()
            return
        if self.open is None:
            self.open = _Stretch(turn)
        for f in found:
            self.open.words.setdefault(f.tiles, f)

    def during(self, state: GameState, event: Event) -> None:
        """``event`` happened during the open stretch: a verified call closes it;
        any other event is a turn it went uncalled by every seat that could call."""
        if self.open is None:
            return
        if isinstance(event, JumbulayaVerified):
            self.open.called_by = event.seat
            self.open.words.setdefault(event.tiles, Found(event.tiles, event.lines, event.points))
            self._close()
            return
        self.open.turns += 1
        self.open.missed_by.update(
            s for s in range(state.seats) if state.in_game(s) and s not in state.barred
        )

    def _close(self) -> None:
        if self.open is not None:
            self.closed.append(self.open.close())
            self.open = None

    def finish(self) -> list[OpenJumbulaya]:
        self._close()
        return sorted(self.closed, key=lambda j: j.from_turn)


def analyse(
    events: Sequence[Event],
    lexicon: Lexicon,
    robot: Robot | None = None,
    lexicon_json: str | dict[str, list[str]] | None = None,
) -> GameAnalysis:
    """The analysis of a game's whole log (its first event is ``GameStarted``).

    ``robot``, when given, is asked for its choice on every turn a seat took on
    its turn, from that seat's view; ``lexicon_json`` is the word list the views
    name (default: the name the game started with)."""
    started = events[0]
    if not isinstance(started, GameStarted):
        raise ValueError("a log starts with game_started")
    lex_name = started.lexicon if lexicon_json is None else lexicon_json
    state = start(started)
    tracker = _Jumbulayas(lexicon)
    turns: list[TurnAnalysis] = []
    for i, event in enumerate(events[1:]):
        seat: int = event.seat  # type: ignore[attr-defined]
        tracker.before(i, state)
        on_turn = state.turn == seat and not isinstance(event, Resigned)
        best, best_points, choice = None, 0, None
        if on_turn:
            best, best_points = best_word(state, seat, lexicon)
            if robot is not None:
                doc = seat_view(events[: i + 1], state, seat, lexicon=lex_name)
                choice = robot(read_view(doc))
        after = evolve(state, event)
        tracker.during(state, event)
        points = after.scores()[seat] - state.scores()[seat]
        move = turn_of(event)
        assert move is not None
        turns.append(
            TurnAnalysis(
                turn=i,
                seat=seat,
                move=move["move"],
                points=points,
                on_turn=on_turn,
                best=best,
                best_points=best_points,
                missed=max(0, best_points - points) if on_turn else 0,
                robot=choice,
            )
        )
        state = after
    jumbulayas = tracker.finish()
    return GameAnalysis(
        players=state.players,
        turns=tuple(turns),
        jumbulayas=tuple(jumbulayas),
        totals=tuple(_totals(state, turns, jumbulayas)),
        robot=robot is not None,
    )


def _totals(
    state: GameState, turns: Sequence[TurnAnalysis], jumbulayas: Sequence[OpenJumbulaya]
) -> list[PlayerTotals]:
    scores = state.scores()
    out = []
    for seat, name in enumerate(state.players):
        mine = [t for t in turns if t.seat == seat]
        chances = sorted(
            (t for t in mine if t.missed > 0 and t.best is not None),
            key=lambda t: (-t.missed, t.turn),
        )
        out.append(
            PlayerTotals(
                seat=seat,
                name=name,
                scored=scores[seat],
                left=sum(t.missed for t in mine),
                missed_jumbulayas=sum(1 for j in jumbulayas if seat in j.missed_by),
                biggest=tuple(
                    MissedChance(t.turn, t.move, t.best or "", t.missed) for t in chances[:BIGGEST]
                ),
            )
        )
    return out
