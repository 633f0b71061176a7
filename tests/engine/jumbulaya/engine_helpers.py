"""Helpers shared by the engine tests: hand-built starts and positions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from games.engine.jumbulaya import (
    PRESETS,
    Event,
    GameStarted,
    GameState,
    Lexicon,
    Line,
    Rules,
    decide,
    draw_front,
    evolve,
    start,
)
from games.engine.tiles import TILE_COUNTS, full_set

TileSpec = Sequence[str] | str


def _tiles(spec: TileSpec) -> tuple[str, ...]:
    """``"A C T"`` or ``["A", "C", "T"]`` -> a tuple of faces."""
    return tuple(spec.split()) if isinstance(spec, str) else tuple(spec)


def make_started(
    lines: Sequence[TileSpec] = (),
    racks: Sequence[TileSpec] = ((), ()),
    rules: Rules | str = "official",
    bag_front: TileSpec = (),
    first: int = 0,
    players: Sequence[str] | None = None,
    lexicon: Lexicon | None = None,
) -> GameStarted:
    """A start whose lines and racks are exactly as given (missing lines are empty)
    and whose bag holds the rest of the 100 tiles: ``bag_front`` first, then the
    others in face order."""
    rules = PRESETS[rules] if isinstance(rules, str) else rules
    line_tiles = [_tiles(ln) for ln in lines] + [()] * (9 - len(lines))
    assert len(line_tiles) == 9
    rack_tiles = [_tiles(r) for r in racks]
    front = _tiles(bag_front)
    left = Counter(full_set())
    for group in (*line_tiles, *rack_tiles, front):
        for t in group:
            left[t] -= 1
            assert left[t] >= 0, f"more than {TILE_COUNTS[t]} {t} tiles"
    rest = []
    for t in full_set():
        if left[t] > 0:
            rest.append(t)
            left[t] -= 1
    bag = front + tuple(rest)
    names = tuple(players) if players is not None else tuple(f"p{i}" for i in range(len(racks)))
    assert len(names) == len(rack_tiles)
    return GameStarted(
        rules=rules,
        lexicon=lexicon.name if lexicon else "inline",
        lexicon_sha256=lexicon.sha256 if lexicon else "0" * 64,
        players=names,
        first=first,
        lines=tuple(line_tiles),
        racks=tuple(rack_tiles),
        bag=bag,
    )


def make_state(*args: object, **kwargs: object) -> GameState:
    return start(make_started(*args, **kwargs))  # type: ignore[arg-type]


def assert_full_set(state: GameState) -> None:
    """Every one of the 100 tiles is on a line, in a rack or in the bag."""
    assert state.tile_count() == 100
    tiles = [t for ln in state.lines for t in ln.tiles]
    tiles += [t for r in state.racks for t in r] + list(state.bag)
    assert Counter(tiles) == Counter(full_set())


def play(state: GameState, seat: int, move: str, lexicon: Lexicon) -> tuple[GameState, list[Event]]:
    """Make ``move`` (drawing from the front of the bag) and fold its events."""
    events = decide(state, seat, move, lexicon, draw_front)
    for e in events:
        state = evolve(state, e)
    return state, events


def claim_all(state: GameState, owners: Sequence[int]) -> GameState:
    """The same position with line ``i`` owned by ``owners[i]`` and holding its
    tiles as its word (a shortcut to positions where JUMBULAYA is open)."""
    lines = tuple(
        Line(ln.tiles, "".join(ln.tiles), owner, frozenset({"".join(ln.tiles)}))
        for ln, owner in zip(state.lines, owners, strict=True)
    )
    return replace(state, lines=lines)


def random_turn(
    state: GameState, lexicon: Lexicon, rng: random.Random, word_bias: float = 0.8
) -> list[Event]:
    """Events for one random legal turn of the seat to move: mostly a random legal
    word, else a pass or an exchange."""
    from games.engine.jumbulaya import legal_moves

    seat = state.turn
    assert seat is not None
    moves = legal_moves(state, seat, lexicon)
    roll = rng.random()
    if moves and roll < word_bias:
        move = rng.choice(moves).notation()
    elif roll < word_bias + (1 - word_bias) / 2 and state.racks[seat] and state.bag:
        k = rng.randint(1, min(len(state.racks[seat]), len(state.bag)))
        move = "exchange " + " ".join(rng.sample(list(state.racks[seat]), k))
    else:
        move = "pass"
    return decide(state, seat, move, lexicon, draw_front)
