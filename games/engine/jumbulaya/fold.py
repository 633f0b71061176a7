"""The one fold: ``evolve(state, event) -> state``.

Everything that follows from an event without a choice is worked out here: the
rack and bag bookkeeping, claiming, the end conditions, whose turn is next and
the turns a seat loses after a failed JUMBULAYA call.

States are treated as immutable: the fold copies the state once per event and
changes only the copy (``dataclasses.replace`` would rebuild the whole state
several times per event, and replaying logs is a hot path).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..common import fold as common
from ..tiles import MAX_LINE_TILES, Tiles, letters, remove_tiles
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


def _copy(state: GameState) -> GameState:
    return GameState(
        state.rules,
        state.players,
        state.lines,
        state.racks,
        state.bag,
        state.turn,
        state.resigned,
        state.skips,
        state.barred,
        state.idle,
        state.end,
        state.jumbulaya,
        state.seq,
    )


def _stalled(d: GameState) -> bool:
    rounds = d.rules.stall_rounds
    return bool(rounds > 0 and d.idle >= rounds * (len(d.players) - len(d.resigned)))


def _finish(d: GameState, end: EndReason) -> None:
    d.end = end
    d.turn = None


def _completed_turn(d: GameState, seat: int) -> None:
    """A completed turn lifts every other seat's JUMBULAYA bar."""
    if d.barred:
        d.barred = d.barred & {seat}


def _pass_turn(d: GameState, after: int) -> None:
    """Pass the turn on from ``after``, skipping resigned seats and taking the
    turns that seats must lose; each lost turn is a turn without a word."""
    n = len(d.players)
    seat = after
    while True:
        seat = (seat + 1) % n
        if seat in d.resigned:
            continue
        if d.skips[seat]:
            skips = list(d.skips)
            skips[seat] -= 1
            d.skips = tuple(skips)
            d.idle += 1
            if _stalled(d):
                _finish(d, "stalled")
                return
            continue
        d.turn = seat
        return


def _turn_without_word(d: GameState, seat: int) -> None:
    d.idle += 1
    if _stalled(d):
        _finish(d, "stalled")
    else:
        _pass_turn(d, seat)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``.  Events come from :func:`decide` and are trusted:
    the fold checks nothing."""
    d = _copy(state)  # the new state; ``state`` itself is never changed
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
            _completed_turn(d, seat)
            d.idle = 0
            if len(tiles) == MAX_LINE_TILES:
                _finish(d, "ten_tiles")
            elif all(ln.owner == seat for ln in lines):
                _finish(d, "all_lines")
            else:
                _pass_turn(d, seat)
        case Passed(seat) | TimedOut(seat):
            _completed_turn(d, seat)
            _turn_without_word(d, seat)
        case Exchanged(seat, tiles, drawn):
            racks = list(d.racks)
            racks[seat] = tuple(remove_tiles(racks[seat], tiles)) + drawn
            d.racks = tuple(racks)
            d.bag = tuple(remove_tiles(d.bag, drawn)) + tiles
            _completed_turn(d, seat)
            _turn_without_word(d, seat)
        case JumbulayaVerified(seat, tiles, lines_used, points):
            d.jumbulaya = JumbulayaMade(seat, tiles, lines_used, points)
            _finish(d, "jumbulaya")
        case JumbulayaFailed(seat):
            if d.rules.jumbulaya_cooldown:
                d.barred = d.barred | {seat}
            if d.turn == seat:
                _turn_without_word(d, seat)
            else:
                skips = list(d.skips)
                skips[seat] += 1
                d.skips = tuple(skips)
        case Resigned(seat):
            d.resigned = d.resigned | {seat}
            if len(d.players) - len(d.resigned) < 2:
                _finish(d, "resigned")
            elif _stalled(d):
                _finish(d, "stalled")
            elif d.turn == seat:
                _pass_turn(d, seat)
        case GameStarted():
            raise ValueError("a game starts only once")
        case _:
            raise TypeError(f"not an event: {event!r}")
    return d


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole log (its first event is :class:`GameStarted`)."""
    return common.replay(events, GameStarted, start, evolve)
