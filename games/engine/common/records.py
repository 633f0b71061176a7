"""Game records: the checks and the replay every engine's ``record.py`` shares.

A record is a JSON object with a ``format``, its players, the seat that moved
first and its turns, each ``{"seat", "move"}``; what else it holds (the setup,
the options, a word list) is the engine's own.  Its header is checked before
any turn, with a :class:`~games.engine.errors.BadRecord` naming what is wrong;
its turns are checked one by one as they are replayed, so a bad turn is
reported at its index.  A replay's result says what the ``replay`` command
exits with: 0 when every turn was played, 1 when the engine refused one, 2 when
the record was malformed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from ..errors import BadRecord, Refusal

_WORD_RE = re.compile(r"[A-Z]+")

#: A record's word list: an installed list's name, or the words of an inline one.
LexiconRef = str | tuple[str, ...]


def parse_json(text: str | bytes) -> object:
    """A record's JSON text parsed (:class:`BadRecord` if it is not JSON)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadRecord(f"the record is not valid JSON ({e})") from None


def record_object(data: object, fmt: str) -> dict[str, Any]:
    """``data`` as a record's object whose ``format`` is exactly ``fmt``."""
    if not isinstance(data, dict):
        raise BadRecord("a record is a JSON object")
    if data.get("format") != fmt:
        raise BadRecord(f"'format' must be exactly {fmt!r}, not {data.get('format')!r}")
    return data


def require_keys(data: dict[str, Any], keys: Sequence[str]) -> None:
    """Refuse a record lacking any of ``keys``, naming the first one missing."""
    for key in keys:
        if key not in data:
            raise BadRecord(f"the record has no {key!r}")


def read_players(value: object, fewest: int, most: int) -> tuple[str, ...]:
    """A record's ``players``: ``fewest`` to ``most`` names."""
    if not isinstance(value, list) or not fewest <= len(value) <= most:
        raise BadRecord(f"'players' must list {fewest} to {most} names")
    if not all(isinstance(p, str) for p in value):
        raise BadRecord("every player's name must be a string")
    return tuple(value)


def read_first(value: object, players: int) -> int:
    """A record's ``first``: the seat that moved first."""
    if type(value) is not int or not 0 <= value < players:
        raise BadRecord(f"'first' must be a seat from 0 to {players - 1}, not {value!r}")
    return value


def read_turns(value: object) -> tuple[Any, ...]:
    """A record's ``turns``, as they are (each is checked when it is replayed)."""
    if not isinstance(value, list):
        raise BadRecord("'turns' must be a list")
    return tuple(value)


def read_seat_move(value: object, players: int) -> tuple[int, str]:
    """One turn's seat and move, checked for shape."""
    if not isinstance(value, dict):
        raise BadRecord("a turn is an object with 'seat' and 'move'")
    seat = value.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise BadRecord(f"the turn's 'seat' must be a seat from 0 to {players - 1}, not {seat!r}")
    move = value.get("move")
    if not isinstance(move, str):
        raise BadRecord("the turn's 'move' must be a string")
    return seat, move


def read_lexicon(value: object) -> LexiconRef:
    """A record's ``lexicon``: a word list's name, or ``{"words": [...]}``."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("words"), list):
        for w in value["words"]:
            if not isinstance(w, str) or not _WORD_RE.fullmatch(w):
                raise BadRecord(f"lexicon word {w!r} is not a word of upper-case letters A-Z")
        return tuple(value["words"])
    raise BadRecord("'lexicon' must be a word list's name or {\"words\": [...]}")


def lexicon_json(lexicon: LexiconRef) -> str | dict[str, list[str]]:
    """A record's word list as its ``lexicon`` field writes it."""
    return lexicon if isinstance(lexicon, str) else {"words": list(lexicon)}


def installed[T](name: str, resolve: Callable[[str], T]) -> T:
    """The installed word list ``name`` (:class:`BadRecord` if there is none)."""
    try:
        return resolve(name)
    except LookupError:
        raise BadRecord(f"no word list named {name!r} is installed") from None


def first_event[E](events: Sequence[object], started: type[E]) -> E:
    """A log's first event, which must be its deal (``ValueError`` if not)."""
    first = events[0]
    if not isinstance(first, started):
        raise ValueError("a log starts with game_started")
    return first


@dataclass
class ReplayResult[S, E]:
    """What replaying a record gives: the state reached and, if a turn was
    refused or malformed, the error (the state is the one before that turn).

    An engine's result names ``STATE_KEYS`` and writes its state's document in
    :meth:`state_json`; without a state (the header was bad) each key is null.
    """

    state: S | None
    events: list[E] = field(default_factory=list)
    error_turn: int | None = None
    error: Refusal | None = None

    #: The keys :meth:`state_json` writes, in order.
    STATE_KEYS: ClassVar[tuple[str, ...]] = ()

    @property
    def exit_code(self) -> int:
        if self.error is None:
            return 0
        return 2 if self.error.code == "bad_record" else 1

    def state_json(self, state: S) -> dict[str, Any]:
        """The document of the state reached (its :attr:`STATE_KEYS`)."""
        raise NotImplementedError

    def error_json(self) -> dict[str, Any] | None:
        if self.error is None:
            return None
        return {"turn": self.error_turn, "code": self.error.code, "message": self.error.message}

    def to_json(self) -> dict[str, Any]:
        """The replay's output: the state's document, then the error."""
        error = self.error_json()
        if self.state is None:
            return dict.fromkeys(self.STATE_KEYS) | {"error": error}
        return self.state_json(self.state) | {"error": error}

    def play_turns(
        self,
        turns: Sequence[object],
        play: Callable[[S, object], Sequence[E]],
        evolve: Callable[[S, E], S],
    ) -> Self:
        """Play each of ``turns`` on from the state reached, ``play`` reading a
        turn and deciding its events; stop at the first it refuses."""
        state = self.state
        assert state is not None, "a replay starts from the deal's state"
        for i, raw in enumerate(turns):
            try:
                events = play(state, raw)
            except Refusal as e:
                self.error_turn = i
                self.error = e
                return self
            for event in events:
                state = evolve(state, event)
            self.events.extend(events)
            self.state = state
        return self
