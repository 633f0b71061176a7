"""The one fold: ``evolve(state, event) -> state``.

Everything that follows from an event without a choice is worked out here: the
rack and bag bookkeeping, claiming, the end conditions, whose turn is next and
the turns a seat loses after a failed JUMBULAYA call.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

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


def _stalled(state: GameState, idle: int, active: int) -> bool:
    rounds = state.rules.stall_rounds
    return rounds > 0 and idle >= rounds * active


def _completed_turn(state: GameState, seat: int) -> frozenset[int]:
    """A completed turn lifts every other seat's JUMBULAYA bar."""
    return state.barred & {seat}


def _next_turn(state: GameState, after: int, idle: int) -> GameState:
    """Pass the turn on from ``after``, skipping resigned seats and taking the
    turns that seats must lose; each lost turn is a turn without a word."""
    skips = list(state.skips)
    n = state.seats
    active = state.active_count()
    seat = after
    end: EndReason | None = None
    turn: int | None = None
    while True:
        seat = (seat + 1) % n
        if seat in state.resigned:
            continue
        if skips[seat]:
            skips[seat] -= 1
            idle += 1
            if _stalled(state, idle, active):
                end = "stalled"
                break
            continue
        turn = seat
        break
    return replace(state, turn=turn, skips=tuple(skips), idle=idle, end=end)


def _turn_without_word(state: GameState, seat: int) -> GameState:
    idle = state.idle + 1
    if _stalled(state, idle, state.active_count()):
        return replace(state, idle=idle, end="stalled", turn=None)
    return _next_turn(state, seat, idle)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``.  Events come from :func:`decide` and are trusted:
    the fold checks nothing."""
    state = replace(state, seq=state.seq + 1)
    match event:
        case WordBuilt(seat, index, tiles, drawn):
            line = state.lines[index]
            from_rack, traded = split_word_tiles(line.tiles, tiles)
            rack = remove_tiles(state.racks[seat], from_rack)
            rack.extend(traded)
            rack.extend(drawn)
            word = letters(tiles)
            lines = list(state.lines)
            lines[index] = Line(tiles, word, seat, line.history | {word})
            racks = list(state.racks)
            racks[seat] = tuple(rack)
            state = replace(
                state,
                lines=tuple(lines),
                racks=tuple(racks),
                bag=tuple(remove_tiles(state.bag, drawn)),
                barred=_completed_turn(state, seat),
                idle=0,
            )
            end: EndReason | None = None
            if len(tiles) == MAX_LINE_TILES:
                end = "ten_tiles"
            elif all(ln.owner == seat for ln in lines):
                end = "all_lines"
            if end is not None:
                return replace(state, end=end, turn=None)
            return _next_turn(state, seat, 0)
        case Passed(seat) | TimedOut(seat):
            state = replace(state, barred=_completed_turn(state, seat))
            return _turn_without_word(state, seat)
        case Exchanged(seat, tiles, drawn):
            racks = list(state.racks)
            racks[seat] = tuple(remove_tiles(racks[seat], tiles)) + drawn
            bag = tuple(remove_tiles(state.bag, drawn)) + tiles
            state = replace(state, racks=tuple(racks), bag=bag, barred=_completed_turn(state, seat))
            return _turn_without_word(state, seat)
        case JumbulayaVerified(seat, tiles, lines_used, points):
            made = JumbulayaMade(seat, tiles, lines_used, points)
            return replace(state, jumbulaya=made, end="jumbulaya", turn=None)
        case JumbulayaFailed(seat):
            if state.rules.jumbulaya_cooldown:
                state = replace(state, barred=state.barred | {seat})
            if state.turn == seat:
                return _turn_without_word(state, seat)
            skips = list(state.skips)
            skips[seat] += 1
            return replace(state, skips=tuple(skips))
        case Resigned(seat):
            state = replace(state, resigned=state.resigned | {seat})
            active = state.active_count()
            if active < 2:
                return replace(state, end="resigned", turn=None)
            if _stalled(state, state.idle, active):
                return replace(state, end="stalled", turn=None)
            if state.turn == seat:
                return _next_turn(state, seat, state.idle)
            return state
        case GameStarted():
            raise ValueError("a game starts only once")
    raise TypeError(f"not an event: {event!r}")


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
