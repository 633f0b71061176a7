"""The ``blockers-record/1`` game record: read, replay, write (docs/blockers-record.md).

A record holds each colour's whole pile (the first five are the starting
rack), the seat that moved first and every turn, each that drew with its
``draw`` (draws are picked at random, so a pile's order tells nothing); a turn
that lists no draw takes the front of its pile, as records written before
draws were random did, so those replay as they always did.  :func:`replay_json`
reads one and replays every turn through :func:`~.commands.decide`, as the
service does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, cast

from ..common import records as common
from ..errors import BadRecord
from .board import RACK_SIZE, TILE_FACES, TILE_SET
from .commands import decide, draw_front
from .events import Event, GameStarted, Passed, Resigned, TilePlaced, TimedOut
from .fold import evolve, start
from .options import MAX_PLAYERS, MIN_PLAYERS, Options, check_colours, options_from_json
from .state import BlockersState, board_json

FORMAT = "blockers-record/1"
Tiles = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a record: its seat, its move and, when it lists one, its draw."""

    seat: int
    move: str
    draw: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The turn as a record writes it (``draw`` only when it lists one)."""
        out: dict[str, Any] = {"seat": self.seat, "move": self.move}
        if self.draw is not None:
            out["draw"] = self.draw
        return out


@dataclass(frozen=True, slots=True)
class Record:
    """A record whose header has been checked; turns are checked one by one as
    they are replayed, so a bad turn is reported at its index."""

    options: Options
    players: tuple[str, ...]
    first: int
    piles: tuple[Tiles, ...]  # each colour's 28 tiles, its rack first
    turns: tuple[Any, ...]

    @property
    def lexicon(self) -> None:
        """Blockers is played without a word list."""
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "options": self.options.to_json(),
            "players": list(self.players),
            "first": self.first,
            "piles": [list(p) for p in self.piles],
            "turns": list(self.turns),
        }

    def started(self) -> GameStarted:
        return GameStarted(
            options=self.options,
            players=self.players,
            first=self.first,
            racks=tuple(p[:RACK_SIZE] for p in self.piles),
            piles=tuple(p[RACK_SIZE:] for p in self.piles),
        )


def _pile(value: object, seat: int) -> Tiles:
    what = f"pile {seat}"
    if not isinstance(value, list):
        raise BadRecord(f"{what} must be a list of 28 tiles")
    for t in value:
        if not isinstance(t, str) or t not in TILE_FACES:
            raise BadRecord(
                f"{what} holds {t!r}, which is not a tile (1-9, A-I, S1-S9 or * for the wild)"
            )
    have, want = Counter(value), Counter(TILE_SET)
    if have != want:
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        parts = []
        if missing:
            parts.append(f"lacks {', '.join(missing)}")
        if extra:
            parts.append(f"has {', '.join(extra)} too many times")
        raise BadRecord(f"{what} must be exactly one colour's 28 tiles; it {' and '.join(parts)}")
    return tuple(value)


def read_record(data: object) -> Record:
    """Check a record's header (everything but its turns).  Raises
    :class:`BadRecord` naming what is wrong."""
    data = common.record_object(data, FORMAT)
    common.require_keys(data, ("players", "first", "piles", "turns"))
    options = options_from_json(data.get("options", {}))
    players = common.read_players(data["players"], MIN_PLAYERS, MAX_PLAYERS)
    check_colours(options.colours, len(players))
    first = common.read_first(data["first"], len(players))
    piles = data["piles"]
    if not isinstance(piles, list) or len(piles) != len(players):
        raise BadRecord(f"'piles' must hold one pile per player ({len(players)})")
    turns = common.read_turns(data["turns"])
    return Record(options, players, first, tuple(_pile(p, i) for i, p in enumerate(piles)), turns)


def read_turn(value: object, players: int) -> Turn:
    """Check one turn's shape."""
    seat, move = common.read_seat_move(value, players)
    draw = cast(dict[str, Any], value).get("draw")  # read_seat_move checked it is one
    if draw is not None and (not isinstance(draw, str) or draw not in TILE_FACES):
        raise BadRecord(
            f"the turn's 'draw' must be a tile (1-9, A-I, S1-S9 or * for the wild), not {draw!r}"
        )
    return Turn(seat, move, draw)


class _ListedDraw:
    """Draws exactly the tile a turn lists, checking it is in the pile."""

    def __init__(self, tile: str) -> None:
        self.tile = tile
        self.called = False

    def __call__(self, pile: Tiles) -> str:
        self.called = True
        if self.tile not in pile:
            raise BadRecord(f"'draw' lists {self.tile}, which is not (or no longer) in the pile")
        return self.tile


class ReplayResult(common.ReplayResult[BlockersState, Event]):
    """What replaying a record gives: the state reached and, if a turn was
    refused or malformed, the error (and the state before that turn)."""

    STATE_KEYS = (
        "status",
        "end",
        "next",
        "board",
        "racks",
        "piles",
        "captures",
        "groups",
        "scores",
        "winners",
    )

    def state_json(self, s: BlockersState) -> dict[str, Any]:
        return {
            "status": "over" if s.over else "playing",
            "end": s.end,
            "next": s.turn,
            "board": board_json(s),
            "racks": [list(r) for r in s.racks],
            "piles": [len(p) for p in s.piles],
            "captures": [list(c) for c in s.captures],
            "groups": s.groups(),
            "scores": s.scores(),
            "winners": s.winners(),
        }


def replay_record(record: Record) -> ReplayResult:
    """Replay every turn of a record through the engine, stopping at the first
    turn that is refused (exit 1) or malformed (exit 2)."""
    started = record.started()

    def play(state: BlockersState, raw: object) -> list[Event]:
        turn = read_turn(raw, len(record.players))
        if turn.draw is None:
            return decide(state, turn.seat, turn.move, draw_front)
        listed = _ListedDraw(turn.draw)
        events = decide(state, turn.seat, turn.move, listed)
        if not listed.called:
            raise BadRecord(f"this turn draws no tile, but 'draw' lists {turn.draw}")
        return events

    return ReplayResult(start(started), [started]).play_turns(record.turns, play, evolve)


def read_record_json(text: str | bytes) -> Record:
    """Parse a record given as JSON text and check its header."""
    return read_record(common.parse_json(text))


def replay_json(text: str | bytes) -> ReplayResult:
    """Read and replay a record given as JSON text; never raises for bad input."""
    try:
        record = read_record_json(text)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    return replay_record(record)


def turn_of(event: Event) -> dict[str, Any] | None:
    """The record turn an event came from (``None`` for the deal)."""
    match event:
        case TilePlaced(seat, tile, square, _, drawn):
            return Turn(seat, f"{tile} at {square}", drawn).to_json()
        case TimedOut(seat, drawn=drawn):
            return Turn(seat, "timeout", drawn).to_json()
        case Passed(seat):
            return {"seat": seat, "move": "pass"}
        case Resigned(seat):
            return {"seat": seat, "move": "resign"}
        case GameStarted():
            return None
    raise TypeError(f"not an event: {event!r}")


def write_record(events: list[Event] | tuple[Event, ...]) -> dict[str, Any]:
    """The record of a game's log: the deal's piles whole (rack first), its first
    seat and every turn, with the tile each drew, so that the record replays
    to the same state whatever order the piles are in."""
    started = common.first_event(events, GameStarted)
    return Record(
        options=started.options,
        players=started.players,
        first=started.first,
        piles=tuple(r + p for r, p in zip(started.racks, started.piles, strict=True)),
        turns=tuple(t for t in map(turn_of, events[1:]) if t is not None),
    ).to_json()
