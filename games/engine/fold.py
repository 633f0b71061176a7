"""The one fold: ``evolve(state, event) -> state``.

Everything that follows from an event without a choice is worked out here: the
rack and bag bookkeeping, claiming, the end conditions, whose turn is next and
the turns a seat loses after a failed JUMBULAYA call.

States are immutable.  The fold copies the state once into a private mutable
draft, changes the draft, and freezes it into a new state: ``dataclasses.replace``
would rebuild the whole state several times per event, and replaying logs is a
hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

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
from .state import EndReason, GameState, JumbulayaMade, Line
from .tiles import MAX_LINE_TILES, Tiles, letters, remove_tiles

_FIELDS = tuple(f.name for f in fields(GameState))


def start(event: GameStarted) -> GameState:
    return GameState(
        rules=event.rules,
        players=event.players,
        lines=tuple(Line(tiles) for tiles in event.lines),
        racks=event.racks,
        bag=event.bag,
        turn=event.first,
        skips=(0,) * len(event.players),
        seq=1,
    )


def split_word_tiles(line: Tiles, word: Tiles) -> tuple[list[str], list[str]]:
    """The rack tiles a word on ``line`` needs, and the line tiles it leaves over
    (which go to the mover's rack).  Line tiles are used before rack tiles."""
    need: dict[str, int] = {}
    for t in word:
        need[t] = need.get(t, 0) + 1
    traded = []
    for t in line:
        if need.get(t):
            need[t] -= 1
        else:
            traded.append(t)
    from_rack = []
    for t in word:
        if need.get(t):
            need[t] -= 1
            from_rack.append(t)
    return from_rack, traded


class _Draft:
    """A mutable copy of a state, private to the fold."""

    __slots__ = _FIELDS

    rules: Any
    players: tuple[str, ...]
    lines: tuple[Line, ...]
    racks: tuple[Tiles, ...]
    bag: Tiles
    turn: int | None
    resigned: frozenset[int]
    skips: tuple[int, ...]
    barred: frozenset[int]
    idle: int
    end: EndReason | None
    jumbulaya: JumbulayaMade | None
    seq: int

    def __init__(self, state: GameState) -> None:
        for name in _FIELDS:
            setattr(self, name, getattr(state, name))

    def freeze(self) -> GameState:
        state = object.__new__(GameState)
        for name in _FIELDS:
            object.__setattr__(state, name, getattr(self, name))
        return state

    def stalled(self) -> bool:
        rounds = self.rules.stall_rounds
        return bool(rounds > 0 and self.idle >= rounds * (len(self.players) - len(self.resigned)))

    def finish(self, end: EndReason) -> None:
        self.end = end
        self.turn = None

    def completed_turn(self, seat: int) -> None:
        """A completed turn lifts every other seat's JUMBULAYA bar."""
        if self.barred:
            self.barred = self.barred & {seat}

    def pass_turn(self, after: int) -> None:
        """Pass the turn on from ``after``, skipping resigned seats and taking the
        turns that seats must lose; each lost turn is a turn without a word."""
        n = len(self.players)
        seat = after
        while True:
            seat = (seat + 1) % n
            if seat in self.resigned:
                continue
            if self.skips[seat]:
                skips = list(self.skips)
                skips[seat] -= 1
                self.skips = tuple(skips)
                self.idle += 1
                if self.stalled():
                    self.finish("stalled")
                    return
                continue
            self.turn = seat
            return

    def turn_without_word(self, seat: int) -> None:
        self.idle += 1
        if self.stalled():
            self.finish("stalled")
        else:
            self.pass_turn(seat)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``.  Events come from :func:`decide` and are trusted:
    the fold checks nothing."""
    d = _Draft(state)
    d.seq += 1
    match event:
        case WordBuilt(seat, index, tiles, drawn):
            line = d.lines[index]
            from_rack, traded = split_word_tiles(line.tiles, tiles)
            rack = remove_tiles(d.racks[seat], from_rack)
            rack.extend(traded)
            rack.extend(drawn)
            word = letters(tiles)
            lines = list(d.lines)
            lines[index] = Line(tiles, word, seat, line.history | {word})
            racks = list(d.racks)
            racks[seat] = tuple(rack)
            d.lines = tuple(lines)
            d.racks = tuple(racks)
            if drawn:
                d.bag = tuple(remove_tiles(d.bag, drawn))
            d.completed_turn(seat)
            d.idle = 0
            if len(tiles) == MAX_LINE_TILES:
                d.finish("ten_tiles")
            elif all(ln.owner == seat for ln in lines):
                d.finish("all_lines")
            else:
                d.pass_turn(seat)
        case Passed(seat) | TimedOut(seat):
            d.completed_turn(seat)
            d.turn_without_word(seat)
        case Exchanged(seat, tiles, drawn):
            racks = list(d.racks)
            racks[seat] = tuple(remove_tiles(racks[seat], tiles)) + drawn
            d.racks = tuple(racks)
            d.bag = tuple(remove_tiles(d.bag, drawn)) + tiles
            d.completed_turn(seat)
            d.turn_without_word(seat)
        case JumbulayaVerified(seat, tiles, lines_used, points):
            d.jumbulaya = JumbulayaMade(seat, tiles, lines_used, points)
            d.finish("jumbulaya")
        case JumbulayaFailed(seat):
            if d.rules.jumbulaya_cooldown:
                d.barred = d.barred | {seat}
            if d.turn == seat:
                d.turn_without_word(seat)
            else:
                skips = list(d.skips)
                skips[seat] += 1
                d.skips = tuple(skips)
        case Resigned(seat):
            d.resigned = d.resigned | {seat}
            if len(d.players) - len(d.resigned) < 2:
                d.finish("resigned")
            elif d.stalled():
                d.finish("stalled")
            elif d.turn == seat:
                d.pass_turn(seat)
        case GameStarted():
            raise ValueError("a game starts only once")
        case _:
            raise TypeError(f"not an event: {event!r}")
    return d.freeze()


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole log (its first event is :class:`GameStarted`)."""
    it = iter(events)
    first = next(it)
    if not isinstance(first, GameStarted):
        raise ValueError("a log starts with game_started")
    state = start(first)
    for event in it:
        state = evolve(state, event)
    return state
