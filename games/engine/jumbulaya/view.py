"""What one seat may see: the ``jumbulaya-view/1`` document (spec: seat-view.md).

:func:`seat_view` writes the document for a seat (or a spectator) from the
game's events and state; :func:`read_view` reads one back, refusing anything
malformed with a :class:`BadView` that says what is wrong.  Robots, hints and
the API read only this view, so it is the one place that decides what a seat
sees: its own rack, and everything public.  The bag's order and other seats'
racks appear only as ``unseen``, a sorted multiset.

:func:`view_state` turns a view into a :class:`GameState` a move generator can
work on (the other racks empty, the bag empty); :func:`guess_state` fills the
hidden tiles in at random, for a robot that simulates what it cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import BadRecord
from ..tiles import FACE_SET, LINES, Tiles, letters
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
from .options import Rules, rules_from_json
from .state import GameState, Line

FORMAT = "jumbulaya-view/1"

LAST_KINDS = ("word", "pass", "exchange", "jumbulaya", "timeout", "resign")


class BadView(ValueError):
    """A document that is not a readable ``jumbulaya-view/1`` seat view."""


def _last(event: Event) -> dict[str, Any] | None:
    match event:
        case WordBuilt(seat=seat, line=line, tiles=tiles):
            return {"seat": seat, "kind": "word", "line": line, "word": letters(tiles)}
        case Passed(seat=seat):
            return {"seat": seat, "kind": "pass"}
        case TimedOut(seat=seat):
            return {"seat": seat, "kind": "timeout"}
        case Exchanged(seat=seat, tiles=tiles):
            return {"seat": seat, "kind": "exchange", "count": len(tiles)}
        case JumbulayaVerified(seat=seat, tiles=tiles):
            return {"seat": seat, "kind": "jumbulaya", "word": letters(tiles)}
        case JumbulayaFailed(seat=seat, word=word):
            return {"seat": seat, "kind": "jumbulaya", "word": word}
        case Resigned(seat=seat):
            return {"seat": seat, "kind": "resign"}
    return None


def _histories(events: Sequence[Event]) -> list[list[str]]:
    out: list[list[str]] = [[] for _ in range(LINES)]
    for event in events:
        if isinstance(event, WordBuilt):
            out[event.line].append(letters(event.tiles))
    return out


def seat_view(
    events: Sequence[Event],
    state: GameState,
    seat: int | None,
    *,
    lexicon: str | dict[str, list[str]],
    claim_window: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The ``jumbulaya-view/1`` document of ``state`` (reached by folding
    ``events``) as ``seat`` sees it; ``seat=None`` is a spectator's view."""
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in a game of {state.seats}")
    hidden: list[str] = list(state.bag)
    for other, rack in enumerate(state.racks):
        if other != seat:
            hidden.extend(rack)
    last = None
    for event in reversed(events):
        if isinstance(event, GameStarted):
            break
        last = _last(event)
        if last is not None:
            break
    histories = _histories(events)
    return {
        "format": FORMAT,
        "rules": {"preset": state.rules.preset, **state.rules.options()},
        "lexicon": lexicon,
        "players": list(state.players),
        "seat": seat,
        "status": "over" if state.over else "playing",
        "end": state.end,
        "next": state.turn,
        "lines": [
            {
                "tiles": list(line.tiles),
                "word": line.word,
                "owner": line.owner,
                "history": histories[i],
            }
            for i, line in enumerate(state.lines)
        ],
        "rack": None if seat is None else list(state.racks[seat]),
        "rack_sizes": [len(r) for r in state.racks],
        "bag": len(state.bag),
        "unseen": sorted(hidden),
        "scores": state.scores(),
        "in_game": [state.in_game(s) for s in range(state.seats)],
        "without_word": state.idle,
        "lost_turns": list(state.skips),
        "barred": [s in state.barred for s in range(state.seats)],
        "winners": state.winners(),
        "last": last,
        "claim_window": claim_window,
    }


@dataclass(frozen=True, slots=True)
class ViewLine:
    tiles: Tiles
    word: str | None
    owner: int | None
    history: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """A read seat view; field names follow the document's keys."""

    rules: Rules
    lexicon: str | tuple[str, ...]  # a list's name, or an inline list's words
    players: tuple[str, ...]
    seat: int
    status: str
    end: str | None
    next: int | None
    lines: tuple[ViewLine, ...]
    rack: Tiles
    rack_sizes: tuple[int, ...]
    bag: int
    unseen: Tiles
    scores: tuple[int, ...]
    in_game: tuple[bool, ...]
    without_word: int
    lost_turns: tuple[int, ...]
    barred: tuple[bool, ...]
    last: dict[str, Any] | None
    claim_window: dict[str, Any] | None

    @property
    def my_turn(self) -> bool:
        return self.status == "playing" and self.next == self.seat

    @property
    def seats(self) -> int:
        return len(self.players)


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in data:
        raise BadView(f"the view has no {key!r} ({what})")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise BadView(f"{key!r} must be {what}, not {value!r}")
    return value


def _tiles(value: object, where: str) -> Tiles:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise BadView(f'{where} must be a list of tiles such as ["QU", "A"]')
    for t in value:
        if t not in FACE_SET:
            raise BadView(f"{where} holds {t!r}, which is not a tile")
    return tuple(value)


def _ints(value: object, where: str, size: int) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != size
        or not all(type(v) is int and v >= 0 for v in value)
    ):
        raise BadView(f"{where} must list {size} whole numbers, one per seat")
    return tuple(value)


def _bools(value: object, where: str, size: int) -> tuple[bool, ...]:
    if not isinstance(value, list) or len(value) != size or not all(type(v) is bool for v in value):
        raise BadView(f"{where} must list {size} true/false values, one per seat")
    return tuple(value)


def _seat_or_none(value: object, where: str, seats: int) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < seats:
        raise BadView(f"{where} must be a seat number from 0 to {seats - 1} or null")
    return value


def _line(value: object, i: int, seats: int) -> ViewLine:
    where = f"line {i + 1}"
    if not isinstance(value, dict):
        raise BadView(f"{where} must be an object with tiles, word, owner and history")
    tiles = _tiles(value.get("tiles"), f"{where}'s tiles")
    word = value.get("word")
    if word is not None and not isinstance(word, str):
        raise BadView(f"{where}'s word must be letters or null")
    owner = _seat_or_none(value.get("owner"), f"{where}'s owner", seats)
    history = value.get("history", [])
    if not isinstance(history, list) or not all(isinstance(w, str) for w in history):
        raise BadView(f"{where}'s history must be a list of words")
    return ViewLine(tiles, word, owner, tuple(history))


def read_view(data: object) -> SeatView:
    """Read a seat's ``jumbulaya-view/1`` document (a spectator's, with a null
    seat, is refused: it has no rack to play from)."""
    if not isinstance(data, dict):
        raise BadView("a seat view is a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise BadView(f"not a {FORMAT} seat view (format is {fmt!r})")
    try:
        rules = rules_from_json(_need(data, "rules", dict, "an object"))
    except BadRecord as exc:
        raise BadView(exc.message) from None
    lexicon = data.get("lexicon")
    if isinstance(lexicon, dict):
        words = lexicon.get("words")
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise BadView('an inline lexicon is {"words": [...]}, a list of words')
        lexicon = tuple(words)
    elif not isinstance(lexicon, str):
        raise BadView("'lexicon' must name a word list or be {\"words\": [...]}")
    players = _need(data, "players", list, "the list of players")
    if not 2 <= len(players) <= 4 or not all(isinstance(p, str) for p in players):
        raise BadView("'players' must list 2 to 4 names")
    seats = len(players)
    seat = _seat_or_none(data.get("seat"), "'seat'", seats)
    if seat is None:
        raise BadView("this view has no seat (a spectator's): there is no rack to play from")
    status = data.get("status")
    if status not in ("playing", "over"):
        raise BadView(f'\'status\' must be "playing" or "over", not {status!r}')
    lines = _need(data, "lines", list, "the nine lines")
    if len(lines) != LINES:
        raise BadView(f"'lines' must list {LINES} lines, top first")
    last = data.get("last")
    if last is not None and not (isinstance(last, dict) and last.get("kind") in LAST_KINDS):
        raise BadView("'last' must be null or an object with a known kind")
    window = data.get("claim_window")
    if window is not None and not isinstance(window, dict):
        raise BadView("'claim_window' must be null or an object")
    end = data.get("end")
    if end is not None and not isinstance(end, str):
        raise BadView("'end' must be null or the reason the game ended")
    view = SeatView(
        rules=rules,
        lexicon=lexicon,
        players=tuple(players),
        seat=seat,
        status=status,
        end=end,
        next=_seat_or_none(data.get("next"), "'next'", seats),
        lines=tuple(_line(v, i, seats) for i, v in enumerate(lines)),
        rack=_tiles(data.get("rack"), "'rack'"),
        rack_sizes=_ints(data.get("rack_sizes"), "'rack_sizes'", seats),
        bag=_need(data, "bag", int, "how many tiles the bag holds"),
        unseen=_tiles(data.get("unseen"), "'unseen'"),
        scores=_ints(data.get("scores"), "'scores'", seats),
        in_game=_bools(data.get("in_game"), "'in_game'", seats),
        without_word=_need(data, "without_word", int, "a whole number"),
        lost_turns=_ints(data.get("lost_turns"), "'lost_turns'", seats),
        barred=_bools(data.get("barred"), "'barred'", seats),
        last=last,
        claim_window=window,
    )
    if len(view.rack) != view.rack_sizes[seat]:
        raise BadView(
            f"'rack' holds {len(view.rack)} tiles but 'rack_sizes' says {view.rack_sizes[seat]}"
        )
    if len(view.unseen) != view.bag + sum(view.rack_sizes) - len(view.rack):
        raise BadView("'unseen' must hold the bag's tiles and every other seat's rack")
    return view


def view_state(view: SeatView, racks: Sequence[Tiles] | None = None, bag: Tiles = ()) -> GameState:
    """The position as a :class:`GameState`: the seat's own rack, and the other
    racks and the bag as given (empty unless a guess fills them)."""
    own = view.rack
    all_racks = tuple(
        own if s == view.seat else (tuple(racks[s]) if racks is not None else ())
        for s in range(view.seats)
    )
    return GameState(
        rules=view.rules,
        players=view.players,
        lines=tuple(
            Line(line.tiles, line.word, line.owner, frozenset(line.history)) for line in view.lines
        ),
        racks=all_racks,
        bag=bag,
        turn=view.next if view.status == "playing" else None,
        resigned=frozenset(s for s in range(view.seats) if not view.in_game[s]),
        skips=view.lost_turns,
        barred=frozenset(s for s in range(view.seats) if view.barred[s]),
        idle=view.without_word,
        end=view.end if view.status == "over" else None,  # type: ignore[arg-type]
    )


def guess_state(view: SeatView, rng: random.Random) -> GameState:
    """One guess at the hidden position: the unseen tiles shuffled and dealt
    into the other racks (their sizes are public) and the bag.  Every guess is
    consistent with the view; none uses anything the view does not hold."""
    pool = list(view.unseen)
    rng.shuffle(pool)
    racks: list[Tiles] = []
    for s in range(view.seats):
        if s == view.seat:
            racks.append(view.rack)
        else:
            n = view.rack_sizes[s]
            racks.append(tuple(pool[:n]))
            del pool[:n]
    return view_state(view, racks, tuple(pool))
