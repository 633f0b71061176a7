"""The ``tumble-record/1`` game record: read, replay, write (docs/tumble-record.md).

A record holds every roll's outcome: the roll-off, the first round's rolls in
its header, and the rolls of each round a turn opens in that turn's
``rolls``.  :func:`replay_json` checks the header, then replays each turn
through :func:`~.commands.decide`, stopping at the first turn refused (exit 1)
or malformed (exit 2).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import BadRecord, Refusal
from .commands import decide
from .cubes import FACES, roll_problem, start_rank
from .events import Event, GameStarted, Resigned, Rolled, Submitted, TimedOut
from .fold import evolve, start
from .options import MAX_PLAYERS, MIN_PLAYERS, Options, options_from_json
from .state import TumbleState

FORMAT = "tumble-record/1"
_WORD_RE = re.compile(r"[A-Z]+")

#: ``resolve(name)`` returns the installed word list called ``name`` (``LookupError``
#: when there is none).
Resolver = Callable[[str], Container[str]]


@dataclass(frozen=True, slots=True)
class Record:
    """A record whose header has been checked; turns are checked as replayed."""

    options: Options
    lexicon: str | tuple[str, ...]  # an installed list's name, or inline words
    players: tuple[str, ...]
    rolloff: tuple[str, ...]
    first: int
    rolls: tuple[str, ...]
    turns: tuple[Any, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "options": self.options.to_json(),
            "lexicon": self.lexicon
            if isinstance(self.lexicon, str)
            else {"words": list(self.lexicon)},
            "players": list(self.players),
            "rolloff": list(self.rolloff),
            "first": self.first,
            "rolls": list(self.rolls),
            "turns": list(self.turns),
        }


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    move: str
    rolls: tuple[str, ...] | None


def _rolls(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise BadRecord(f"{what} must be a list of rolls (13 faces each, '_' a blank)")
    for roll in value:
        problem = roll_problem(roll)
        if problem is not None:
            raise BadRecord(f"{what}: {problem}")
    return tuple(value)


def _rolloff(value: object, players: int) -> tuple[tuple[str, ...], int]:
    """Check a roll-off and return it with the seat it makes start."""
    if players == 2:
        if value not in (None, []):
            raise BadRecord("'rolloff' is for three or more players; with two it is []")
        return (), 0
    if not isinstance(value, list) or not value:
        raise BadRecord("'rolloff' must list the roll-off's rounds (who starts)")
    rolling = set(range(players))
    for i, entry in enumerate(value):
        where = f"roll-off round {i + 1}"
        if not isinstance(entry, str) or len(entry) != players:
            raise BadRecord(f"{where} must be a string of one face a seat ('.' for none)")
        if not rolling:
            raise BadRecord(f"{where} comes after the roll-off was decided")
        for seat, face in enumerate(entry):
            if seat in rolling and face not in FACES:
                raise BadRecord(f"in {where}, seat {seat} rolls {face!r}, which no cube shows")
            if seat not in rolling and face != ".":
                raise BadRecord(f"in {where}, seat {seat} is no longer rolling: write '.'")
        best = min(start_rank(entry[s]) for s in rolling)
        rolling = {s for s in rolling if start_rank(entry[s]) == best}
        if len(rolling) == 1:
            if i != len(value) - 1:
                raise BadRecord(f"the roll-off is decided by {where}; nothing may follow it")
            return tuple(value), rolling.pop()
    raise BadRecord("the roll-off ends with a tie: the tied players roll again")


def read_record(data: object) -> Record:
    """Check a record's header (everything but its turns)."""
    if not isinstance(data, dict):
        raise BadRecord("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise BadRecord(f"'format' must be exactly {FORMAT!r}, not {data.get('format')!r}")
    for key in ("options", "lexicon", "players", "rolls", "turns"):
        if key not in data:
            raise BadRecord(f"the record has no {key!r}")
    options = options_from_json(data["options"])
    lex = data["lexicon"]
    lexicon: str | tuple[str, ...]
    if isinstance(lex, str):
        lexicon = lex
    elif isinstance(lex, dict) and isinstance(lex.get("words"), list):
        for w in lex["words"]:
            if not isinstance(w, str) or not _WORD_RE.fullmatch(w):
                raise BadRecord(f"lexicon word {w!r} is not a word of upper-case letters A-Z")
        lexicon = tuple(lex["words"])
    else:
        raise BadRecord("'lexicon' must be a word list's name or {\"words\": [...]}")
    players = data["players"]
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise BadRecord(f"'players' must list {MIN_PLAYERS} to {MAX_PLAYERS} names")
    if not all(isinstance(p, str) for p in players):
        raise BadRecord("every player's name must be a string")
    rolloff, first = _rolloff(data.get("rolloff"), len(players))
    stated = data.get("first", first)
    if stated != first:
        raise BadRecord(f"'first' is {stated!r}, but the roll-off makes seat {first} start")
    rolls = _rolls(data["rolls"], "'rolls'")
    want = 2 if len(players) == 2 else 1
    if len(rolls) != want:
        raise BadRecord(
            f"'rolls' must hold the first round's {want} roll{'s' if want > 1 else ''} "
            f"(one a seat of the round), not {len(rolls)}"
        )
    turns = data["turns"]
    if not isinstance(turns, list):
        raise BadRecord("'turns' must be a list")
    return Record(options, lexicon, tuple(players), rolloff, first, rolls, tuple(turns))


def read_turn(value: object, players: int) -> Turn:
    if not isinstance(value, dict):
        raise BadRecord("a turn is an object with 'seat' and 'move'")
    seat = value.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise BadRecord(f"the turn's 'seat' must be a seat from 0 to {players - 1}, not {seat!r}")
    move = value.get("move")
    if not isinstance(move, str):
        raise BadRecord("the turn's 'move' must be a string")
    rolls = value.get("rolls")
    return Turn(seat, move, None if rolls is None else _rolls(rolls, "the turn's 'rolls'"))


class _ListedRolls:
    """Rolls exactly what a turn lists."""

    def __init__(self, rolls: tuple[str, ...] | None) -> None:
        self.rolls = rolls
        self.called = False

    def __call__(self, count: int) -> tuple[str, ...]:
        self.called = True
        if self.rolls is None:
            raise BadRecord(f"this turn opens a new round, which needs 'rolls' ({count})")
        if len(self.rolls) != count:
            raise BadRecord(
                f"this turn opens a round of {count} roll{'s' if count > 1 else ''}, "
                f"but 'rolls' lists {len(self.rolls)}"
            )
        return self.rolls


@dataclass
class ReplayResult:
    """The state a record's replay reached, its events, and the error that
    stopped it (with the index of its turn)."""

    state: TumbleState | None
    events: list[Event] = field(default_factory=list)
    error_turn: int | None = None
    error: Refusal | None = None

    @property
    def exit_code(self) -> int:
        if self.error is None:
            return 0
        return 2 if self.error.code == "bad_record" else 1

    def to_json(self) -> dict[str, Any]:
        error = (
            None
            if self.error is None
            else {"turn": self.error_turn, "code": self.error.code, "message": self.error.message}
        )
        s = self.state
        keys = ("status", "end", "round", "next", "waiting", "rolls", "totals", "rounds", "winners")
        if s is None:
            return dict.fromkeys(keys) | {"error": error}
        return {
            "status": "over" if s.over else "playing",
            "end": s.end,
            "round": s.round,
            "next": s.turn,
            "waiting": list(s.waiting()),
            "rolls": {
                str(seat): roll for seat, roll in zip(s.seats_in_round, s.rolls, strict=True)
            },
            "totals": list(s.totals),
            "rounds": [
                {"round": h.round, "seats": list(h.seats), "points": list(h.points)}
                for h in s.history
            ],
            "winners": s.winners(),
            "error": error,
        }


def record_words(record: Record, resolve: Resolver) -> Container[str]:
    if isinstance(record.lexicon, str):
        try:
            return resolve(record.lexicon)
        except LookupError:
            raise BadRecord(f"no word list named {record.lexicon!r} is installed") from None
    return frozenset(record.lexicon)


def started_event(record: Record) -> GameStarted:
    return GameStarted(record.options, record.players, record.rolloff, record.first, record.rolls)


def replay_record(record: Record, resolve: Resolver) -> ReplayResult:
    try:
        words = record_words(record, resolve)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    started = started_event(record)
    state = start(started)
    result = ReplayResult(state, [started])
    for i, raw in enumerate(record.turns):
        try:
            turn = read_turn(raw, len(record.players))
            roller = _ListedRolls(turn.rolls)
            events = decide(state, turn.seat, turn.move, words, roller)
            if turn.rolls is not None and not roller.called:
                raise BadRecord("this turn opens no round, but it lists 'rolls'")
        except Refusal as e:
            result.error_turn = i
            result.error = e
            return result
        for event in events:
            state = evolve(state, event)
        result.events.extend(events)
        result.state = state
    return result


def read_record_json(text: str | bytes) -> Record:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadRecord(f"the record is not valid JSON ({e})") from None
    return read_record(data)


def replay_json(text: str | bytes, resolve: Resolver) -> ReplayResult:
    """Read and replay a record given as JSON text; never raises for bad input."""
    try:
        record = read_record_json(text)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    return replay_record(record, resolve)


def turns_of(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The record's turns for a log: one a move (its submissions, deadlines and
    resignations), each listing the rolls of the round it opened."""
    turns: list[dict[str, Any]] = []
    previous: Event = events[0]
    for event in events[1:]:
        match event:
            case Submitted(seat, crossword):
                turns.append({"seat": seat, "move": f"submit {crossword}"})
            case TimedOut(seat) if not isinstance(previous, TimedOut):
                # one deadline times out every seat the round still waits for
                turns.append({"seat": seat, "move": "timeout"})
            case Resigned(seat):
                turns.append({"seat": seat, "move": "resign"})
            case Rolled(rolls=rolls):
                turns[-1]["rolls"] = list(rolls)
        previous = event
    return turns


def write_record(
    events: Sequence[Event], lexicon: str | dict[str, list[str]] = "default"
) -> dict[str, Any]:
    """The record of a game's log."""
    started = events[0]
    if not isinstance(started, GameStarted):
        raise ValueError("a log starts with game_started")
    return Record(
        options=started.options,
        lexicon=lexicon if isinstance(lexicon, str) else tuple(lexicon["words"]),
        players=started.players,
        rolloff=started.rolloff,
        first=started.first,
        rolls=started.rolls,
        turns=tuple(turns_of(events)),
    ).to_json()
