"""The ``crossword-bible-record/1`` game record: read, replay, write
(docs/crossword-record.md).

A record holds the options, the word list, the players, who plays first, the
racks as dealt and the bag, then every turn in the notation.  A turn that
draws lists its ``draw``, the tiles it drew (draws are picked at random, so
the bag's order tells nothing); a turn that lists none draws from the front of
the bag in the record's order, as records written before draws were random
did (:class:`_RecordOrder`), so those replay as they always did.
:func:`replay_json` replays a record's turns through
:func:`~games.engine.crossword.commands.decide`, as the service does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from ..common import records as common
from ..errors import BadRecord
from .board import EMPTY_BOARD, rows, tiles_on, written_play
from .commands import Drawer, Words, decide, take
from .events import (
    ChallengeFailed,
    Event,
    Exchanged,
    GameStarted,
    Passed,
    Played,
    PlayWithdrawn,
    Resigned,
    TimedOut,
    event_seat,
)
from .fold import evolve, start
from .layout import DISTRIBUTION, SIZE
from .notation import format_move
from .options import Options, options_from_json
from .state import GameState

FORMAT: Final = "crossword-bible-record/1"
_TILES_RE = re.compile(r"[A-Z?]*")
_ROW_RE = re.compile(r"[.A-Za-z]{15}")

#: ``resolve(name)`` returns the installed word list called ``name`` (``LookupError``
#: when there is none).
Resolver = Callable[[str], Words]


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a record: its seat, its move and, when it lists one, its draw."""

    seat: int
    move: str
    draw: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """A record whose header has been checked; turns are checked one by one as
    they are replayed, so a bad turn is reported at its index."""

    options: Options
    lexicon: common.LexiconRef
    players: tuple[str, ...]
    first: int
    racks: tuple[str, ...]
    bag: str
    board: str
    turns: tuple[Any, ...]

    def to_json(self) -> dict[str, Any]:
        setup: dict[str, Any] = {"racks": list(self.racks), "bag": self.bag}
        if self.board != EMPTY_BOARD:
            setup["board"] = rows(self.board)
        return {
            "format": FORMAT,
            "options": self.options.to_json(),
            "lexicon": common.lexicon_json(self.lexicon),
            "players": list(self.players),
            "first": self.first,
            "setup": setup,
            "turns": list(self.turns),
        }


def _tiles(value: object, what: str) -> str:
    if not isinstance(value, str) or not _TILES_RE.fullmatch(value):
        raise BadRecord(f"{what} must be a string of tiles: upper-case letters, ? for a blank")
    return value


def _board(value: object) -> str:
    if value is None:
        return EMPTY_BOARD
    if not isinstance(value, list) or len(value) != SIZE:
        raise BadRecord("'setup.board' must list the 15 rows, top first")
    for i, row in enumerate(value):
        if not isinstance(row, str) or not _ROW_RE.fullmatch(row):
            raise BadRecord(
                f"row {i + 1} of 'setup.board' must be 15 characters: . for an empty square, "
                "a letter for a tile (lower case: a blank)"
            )
    return "".join(value)


def _check_set(racks: tuple[str, ...], bag: str, board: str) -> None:
    have = Counter("".join(racks) + bag + tiles_on(board))
    if have != Counter(DISTRIBUTION):
        diff = [f"{have[t] - n:+d} {t}" for t, n in DISTRIBUTION.items() if have[t] != n] + [
            f"+{have[t]} {t}" for t in have if t not in DISTRIBUTION
        ]
        raise BadRecord(
            "the racks, the bag and the board must together be exactly the 100-tile set; "
            f"this setup differs by {', '.join(diff)}"
        )


def read_record(data: object) -> Record:
    """Check a record's header (everything but its turns); :class:`BadRecord`
    names what is wrong."""
    data = common.record_object(data, FORMAT)
    common.require_keys(data, ("options", "lexicon", "players", "setup", "turns"))
    options = options_from_json(data["options"])
    lexicon = common.read_lexicon(data["lexicon"])
    players = common.read_players(data["players"], 2, 4)
    options.check_seats(len(players))
    first = common.read_first(data.get("first", 0), len(players))
    setup = data["setup"]
    if not isinstance(setup, dict):
        raise BadRecord("'setup' must be an object with 'racks' and 'bag'")
    raw_racks = setup.get("racks")
    if not isinstance(raw_racks, list) or len(raw_racks) != len(players):
        raise BadRecord("'setup.racks' must hold one rack per player")
    racks = tuple(_tiles(r, f"rack {i}") for i, r in enumerate(raw_racks))
    for i, rack in enumerate(racks):
        if len(rack) > options.rack_size:
            raise BadRecord(
                f"rack {i} holds {len(rack)} tiles; a rack holds at most {options.rack_size}"
            )
    bag = _tiles(setup.get("bag"), "'setup.bag'")
    board = _board(setup.get("board"))
    _check_set(racks, bag, board)
    turns = common.read_turns(data["turns"])
    return Record(options, lexicon, players, first, racks, bag, board, turns)


def read_turn(value: object, players: int) -> Turn:
    """One turn's seat, move and draw, checked for shape."""
    seat, move = common.read_seat_move(value, players)
    draw = cast(dict[str, Any], value).get("draw")  # read_seat_move checked it is one
    return Turn(seat, move, None if draw is None else _tiles(draw, "the turn's 'draw'"))


class _ListedDraw:
    """Draws exactly the tiles a turn lists, checking them against the bag."""

    def __init__(self, tiles: str) -> None:
        self.tiles = tiles
        self.called = False

    def __call__(self, bag: str, n: int) -> str:
        self.called = True
        if len(self.tiles) != n:
            raise BadRecord(f"this turn draws {n} tiles, but 'draw' lists {len(self.tiles)}")
        left = Counter(bag)
        for t in self.tiles:
            if not left[t]:
                raise BadRecord(f"'draw' lists {t}, which is not (or no longer) in the bag")
            left[t] -= 1
        return self.tiles


class _RecordOrder:
    """The bag in the order a record's turns without a ``draw`` take it from:
    the bag as the record gives it, each draw off its front, an exchange's
    tiles put at its back and a withdrawn play's draw back on its front, as
    the engine drew before draws were picked at random.  It holds the same
    tiles as the state's bag, which keeps no order."""

    def __init__(self, bag: str) -> None:
        self.order = bag

    def front(self, bag: str, n: int) -> str:
        return self.order[:n]

    def follow(self, before: GameState, events: Sequence[Event]) -> None:
        """Move the tiles ``events`` drew and gave back (``before``: the state
        they follow)."""
        for event in events:
            match event:
                case Played(drawn=drawn):
                    self.order = take(self.order, drawn)
                case Exchanged(tiles=tiles, drawn=drawn):
                    self.order = take(self.order, drawn) + tiles
                case PlayWithdrawn():
                    assert before.open_play is not None
                    self.order = before.open_play.drawn + self.order


class ReplayResult(common.ReplayResult[GameState, Event]):
    """What replaying a record gives: the state reached and, if a turn was
    refused or malformed, the error (the state is the one before that turn)."""

    STATE_KEYS = (
        "status",
        "end",
        "next",
        "board",
        "racks",
        "bag",
        "points",
        "scores",
        "winners",
        "open_play",
        "pending_end",
    )

    def state_json(self, s: GameState) -> dict[str, Any]:
        made = s.open_play
        return {
            "status": "over" if s.over else "playing",
            "end": s.end,
            "next": s.turn,
            "board": rows(s.board),
            "racks": list(s.racks),
            "bag": len(s.bag),
            "points": list(s.points),
            "scores": s.scores(),
            "winners": s.winners(),
            "open_play": None
            if made is None
            else {"seat": made.seat, "words": list(made.words), "points": made.points},
            "pending_end": s.pending_end,
        }


class _Inline:
    """An inline word list."""

    def __init__(self, words: tuple[str, ...]) -> None:
        self.words = frozenset(words)

    def __contains__(self, word: str, /) -> bool:
        return word in self.words


def record_words(record: Record, resolve: Resolver) -> Words:
    if isinstance(record.lexicon, str):
        return common.installed(record.lexicon, resolve)
    return _Inline(record.lexicon)


def started_event(record: Record) -> GameStarted:
    return GameStarted(
        options=record.options,
        lexicon=record.lexicon if isinstance(record.lexicon, str) else "inline",
        players=record.players,
        draws=(),
        first=record.first,
        racks=record.racks,
        bag=record.bag,
        board=record.board,
    )


def replay_record(record: Record, resolve: Resolver) -> ReplayResult:
    """Replay every turn of a record, stopping at the first turn that is
    refused (exit 1) or malformed (exit 2)."""
    try:
        words = record_words(record, resolve)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    started = started_event(record)
    order = _RecordOrder(record.bag)

    def play(state: GameState, raw: object) -> list[Event]:
        turn = read_turn(raw, len(record.players))
        listed = None if turn.draw is None else _ListedDraw(turn.draw)
        draw: Drawer = order.front if listed is None else listed
        events = decide(state, turn.seat, turn.move, words, draw)
        if listed is not None and listed.tiles and not listed.called:
            raise BadRecord(f"this turn draws no tiles, but 'draw' lists {len(listed.tiles)}")
        order.follow(state, events)
        return events

    return ReplayResult(start(started), [started]).play_turns(record.turns, play, evolve)


def read_record_json(text: str | bytes) -> Record:
    """Parse a record given as JSON text and check its header."""
    return read_record(common.parse_json(text))


def replay_json(text: str | bytes, resolve: Resolver) -> ReplayResult:
    """Read and replay a record given as JSON text; never raises for bad input."""
    try:
        record = read_record_json(text)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    return replay_record(record, resolve)


def turn_moves(events: Sequence[Event]) -> tuple[str, ...]:
    """Each event after the deal as its turn's move in the notation."""
    return tuple(turn["move"] for turn in _turns(events))


def _turns(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Each event after the deal as its record turn: seat, move, and the draw
    of a play or an exchange."""
    started = common.first_event(events, GameStarted)
    state = start(started)
    out = []
    for event in events[1:]:
        state = evolve(state, event)
        turn: dict[str, Any] = {"seat": event_seat(event)}
        match event:
            case Played(squares=squares, across=across, drawn=drawn):
                move = format_move(written_play(state.board, squares, across))
                turn |= {"move": move, "draw": drawn}
            case Exchanged(tiles=tiles, drawn=drawn):
                turn |= {"move": f"exchange {tiles}", "draw": drawn}
            case Passed():
                turn["move"] = "pass"
            case TimedOut():
                turn["move"] = "timeout"
            case PlayWithdrawn() | ChallengeFailed():
                turn["move"] = "challenge"
            case Resigned():
                turn["move"] = "resign"
            case _:
                raise TypeError(f"not a turn's event: {event!r}")
        out.append(turn)
    return out


def write_record(
    events: Sequence[Event], lexicon: str | dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """The record of a game's log.  Every turn that draws lists its ``draw``,
    so the record replays to the same state whatever order the bag is in;
    ``lexicon`` defaults to the name the game was dealt with."""
    started = common.first_event(events, GameStarted)
    if lexicon is None:
        lexicon = started.lexicon
    return Record(
        options=started.options,
        lexicon=lexicon if isinstance(lexicon, str) else tuple(lexicon["words"]),
        players=started.players,
        first=started.first,
        racks=started.racks,
        bag=started.bag,
        board=started.board,
        turns=tuple(_turns(events)),
    ).to_json()
