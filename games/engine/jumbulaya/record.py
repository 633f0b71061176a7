"""The ``jumbulaya-record/1`` game record: read, replay, write.

A record is the export and import format of the service and the conformance
format of the engine: :func:`replay_json` reads one and replays every turn
through :func:`~games.engine.jumbulaya.commands.decide`, exactly as the service does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from ..common import records as common
from ..errors import BadRecord
from ..lexicon import Lexicon, WordListText, build_lexicon
from ..tiles import FACE_SET, LINES, MAX_LINE_TILES, TILE_COUNTS, Tiles
from .commands import decide, draw_front
from .events import (
    Event,
    Exchanged,
    GameStarted,
    JumbulayaFailed,
    JumbulayaVerified,
    Passed,
    Resigned,
    TimedOut,
    WordBuilt,
)
from .fold import evolve, start
from .notation import format_word
from .options import Rules, rules_from_json
from .state import GameState

FORMAT = "jumbulaya-record/1"

#: ``resolve(name)`` returns the installed word list called ``name``; it raises
#: ``LookupError`` when there is none.
Resolver = Callable[[str], Lexicon]


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    move: str
    draw: Tiles | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """A record whose header has been checked; turns are checked one by one as
    they are replayed, so a bad turn is reported at its index."""

    rules: Rules
    lexicon: str | tuple[str, ...]  # an installed list's name, or inline words
    players: tuple[str, ...]
    first: int
    lines: tuple[Tiles, ...]
    racks: tuple[Tiles, ...]
    bag: Tiles
    turns: tuple[Any, ...]
    lexicon_sha256: str | None = None

    def lexicon_json(self) -> str | dict[str, list[str]]:
        return common.lexicon_json(self.lexicon)

    def to_json(self) -> dict[str, Any]:
        """The record as a ``jumbulaya-record/1`` document (turns as they are)."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "lexicon": self.lexicon_json(),
            "players": list(self.players),
            "first": self.first,
            "setup": {
                "lines": [list(ln) for ln in self.lines],
                "racks": [list(r) for r in self.racks],
                "bag": list(self.bag),
            },
            "turns": list(self.turns),
        }
        if self.lexicon_sha256 is not None:
            out["lexicon_sha256"] = self.lexicon_sha256
        return out


def _tiles(value: object, what: str) -> Tiles:
    if not isinstance(value, list):
        raise BadRecord(f"{what} must be a list of tiles")
    for t in value:
        if not isinstance(t, str) or t not in FACE_SET:
            raise BadRecord(
                f"{what} holds {t!r}, which is not a tile face (faces are upper case: A, QU, TH…)"
            )
    return tuple(value)


def read_record(data: object) -> Record:
    """Check a record's header (everything but its turns).  Raises
    :class:`BadRecord` naming what is wrong."""
    data = common.record_object(data, FORMAT)
    common.require_keys(data, ("rules", "lexicon", "players", "setup", "turns"))
    rules = rules_from_json(data["rules"])
    lexicon = common.read_lexicon(data["lexicon"])
    sha = data.get("lexicon_sha256")
    if sha is not None and not (isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{64}", sha)):
        raise BadRecord("'lexicon_sha256' must be 64 lower-case hex digits")

    players = common.read_players(data["players"], 2, 4)
    first = common.read_first(data.get("first", 0), len(players))

    setup = data["setup"]
    if not isinstance(setup, dict):
        raise BadRecord("'setup' must be an object with 'lines', 'racks' and 'bag'")
    raw_lines = setup.get("lines")
    if not isinstance(raw_lines, list) or len(raw_lines) != LINES:
        raise BadRecord("'setup.lines' must list the 9 lines")
    lines = tuple(_tiles(ln, f"setup line {i + 1}") for i, ln in enumerate(raw_lines))
    for i, ln in enumerate(lines):
        if len(ln) > MAX_LINE_TILES:
            raise BadRecord(f"setup line {i + 1} holds {len(ln)} tiles; a line holds at most 10")
    raw_racks = setup.get("racks")
    if not isinstance(raw_racks, list) or len(raw_racks) != len(players):
        raise BadRecord("'setup.racks' must hold one rack per player")
    racks = tuple(_tiles(r, f"rack {i}") for i, r in enumerate(raw_racks))
    bag = _tiles(setup.get("bag"), "'setup.bag'")
    have = Counter(t for group in (*lines, *racks, bag) for t in group)
    if have != Counter(TILE_COUNTS):
        diff = []
        for face in TILE_COUNTS:
            d = have[face] - TILE_COUNTS[face]
            if d:
                diff.append(f"{d:+d} {face}")
        raise BadRecord(
            "the lines, racks and bag must together be exactly the 100-tile set; "
            f"this setup differs by {', '.join(diff)}"
        )
    turns = common.read_turns(data["turns"])
    return Record(rules, lexicon, players, first, lines, racks, bag, turns, sha)


def read_turn(value: object, players: int) -> Turn:
    """Check one turn's shape."""
    seat, move = common.read_seat_move(value, players)
    draw = cast(dict[str, Any], value).get("draw")  # read_seat_move checked it is one
    return Turn(seat, move, None if draw is None else _tiles(draw, "the turn's 'draw'"))


class _ListedDraw:
    """Draws exactly the tiles a turn lists, checking them against the bag."""

    def __init__(self, tiles: Tiles) -> None:
        self.tiles = tiles
        self.called = False

    def __call__(self, bag: Tiles, n: int) -> Tiles:
        self.called = True
        if len(self.tiles) != n:
            raise BadRecord(f"this turn draws {n} tiles, but 'draw' lists {len(self.tiles)}")
        left = Counter(bag)
        for t in self.tiles:
            if not left[t]:
                raise BadRecord(f"'draw' lists {t}, which is not (or no longer) in the bag")
            left[t] -= 1
        return self.tiles


class ReplayResult(common.ReplayResult[GameState, Event]):
    """What replaying a record gives: the state reached and, if a turn was
    refused or malformed, the error (and the state before that turn)."""

    STATE_KEYS = ("status", "end", "next", "lines", "racks", "bag", "scores", "winners")

    def state_json(self, s: GameState) -> dict[str, Any]:
        return {
            "status": "over" if s.over else "playing",
            "end": s.end,
            "next": s.turn,
            "lines": [
                {"tiles": list(ln.tiles), "word": ln.word, "owner": ln.owner} for ln in s.lines
            ],
            "racks": [list(r) for r in s.racks],
            "bag": len(s.bag),
            "scores": s.scores(),
            "winners": s.winners(),
        }


#: How many inline word lists a process keeps built (the most recently used).  A
#: record's replay is asked for again at every step shown, so its list is worth
#: keeping; a few lists are enough for the records being looked at, and the cache
#: must not grow with every list anyone sends.
INLINE_CACHE_SIZE = 8


@lru_cache(maxsize=INLINE_CACHE_SIZE)
def _inline_lexicon(text: WordListText) -> Lexicon:
    return build_lexicon(text, "inline")


def record_lexicon(record: Record, resolve: Resolver) -> Lexicon:
    """The word list a record names (raising :class:`BadRecord` if there is none
    or if it is not the list the game was played with).  An inline list's SHA-256
    is checked on its canonical text, before its index is built."""
    if isinstance(record.lexicon, str):
        lex = common.installed(record.lexicon, resolve)
        _check_sha256(record, lex.sha256, f"the list {lex.name!r} here is")
        return lex
    text = WordListText.from_lines(record.lexicon)
    _check_sha256(record, text.sha256, "the words this record lists make a list whose SHA-256 is")
    return _inline_lexicon(text)


def _check_sha256(record: Record, sha256: str, found: str) -> None:
    if record.lexicon_sha256 is not None and record.lexicon_sha256 != sha256:
        raise BadRecord(
            f"this game was played with a list whose SHA-256 is {record.lexicon_sha256}, but "
            f"{found} {sha256}"
        )


def started_event(record: Record, lexicon: Lexicon) -> GameStarted:
    return GameStarted(
        rules=record.rules,
        lexicon=record.lexicon if isinstance(record.lexicon, str) else "inline",
        lexicon_sha256=lexicon.sha256,
        players=record.players,
        first=record.first,
        lines=record.lines,
        racks=record.racks,
        bag=record.bag,
    )


def replay_record(record: Record, resolve: Resolver) -> ReplayResult:
    """Replay every turn of a record through the engine, stopping at the first
    turn that is refused (exit 1) or malformed (exit 2)."""
    try:
        lexicon = record_lexicon(record, resolve)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    started = started_event(record, lexicon)

    def play(state: GameState, raw: object) -> list[Event]:
        turn = read_turn(raw, len(record.players))
        if turn.draw is None:
            return decide(state, turn.seat, turn.move, lexicon, draw_front)
        drawer = _ListedDraw(turn.draw)
        events = decide(state, turn.seat, turn.move, lexicon, drawer)
        if not drawer.called and turn.draw:
            raise BadRecord(f"this turn draws no tiles, but 'draw' lists {len(turn.draw)}")
        return events

    return ReplayResult(start(started), [started]).play_turns(record.turns, play, evolve)


def read_record_json(text: str | bytes) -> Record:
    """Parse a record given as JSON text and check its header, raising
    :class:`BadRecord` for anything that is not one."""
    return read_record(common.parse_json(text))


def replay_json(text: str | bytes, resolve: Resolver) -> ReplayResult:
    """Read and replay a record given as JSON text; never raises for bad input."""
    try:
        record = read_record_json(text)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    return replay_record(record, resolve)


def turn_of(event: Event) -> dict[str, Any] | None:
    """The record turn that an event came from (``None`` for the start)."""
    match event:
        case WordBuilt(seat, line, tiles, drawn):
            return {"seat": seat, "move": f"{line + 1} {format_word(tiles)}", "draw": list(drawn)}
        case Exchanged(seat, tiles, drawn):
            move = "exchange " + (" ".join(tiles) if tiles else "all")
            return {"seat": seat, "move": move, "draw": list(drawn)}
        case Passed(seat):
            return {"seat": seat, "move": "pass"}
        case TimedOut(seat):
            return {"seat": seat, "move": "timeout"}
        case JumbulayaVerified(seat, tiles):
            return {"seat": seat, "move": f"jumbulaya {format_word(tiles)}"}
        case JumbulayaFailed(seat, word):
            return {"seat": seat, "move": f"jumbulaya {word}"}
        case Resigned(seat):
            return {"seat": seat, "move": "resign"}
        case GameStarted():
            return None
    raise TypeError(f"not an event: {event!r}")


def write_record(
    events: Sequence[Event], lexicon: str | dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """The record of a game's log.  Every turn that draws lists its ``draw``, so
    the record replays to the same state whatever order the bag was in.
    ``lexicon`` defaults to the name the game was started with."""
    started = common.first_event(events, GameStarted)
    if lexicon is None:
        lexicon = started.lexicon
    return Record(
        rules=started.rules,
        lexicon=lexicon if isinstance(lexicon, str) else tuple(lexicon["words"]),
        players=started.players,
        first=started.first,
        lines=started.lines,
        racks=started.racks,
        bag=started.bag,
        turns=tuple(t for t in map(turn_of, events[1:]) if t is not None),
        lexicon_sha256=started.lexicon_sha256,
    ).to_json()
