"""Starting a game: the draw for first play, the bag shuffled, the racks dealt.

The rule sheet: each player draws a tile; the letter closest to S plays
first, a blank beating any letter; the tiles go back and the bag is mixed
again.  Read here: R and T are equally close to S, so equal draws (two Rs, an
R and a T, two blanks) tie, and the tied players draw again, with the tiles
back in the bag, until one is closest.  Then the 100 tiles are shuffled and
each seat, in seat order, takes its rack from the front of them; the bag
keeps the rest sorted (:func:`~.state.as_bag`), since every later draw is
picked at random from all of it.
"""

from __future__ import annotations

import random

from .board import EMPTY_BOARD
from .events import GameStarted
from .layout import BLANK, DISTRIBUTION
from .options import Options
from .state import as_bag


def full_set() -> list[str]:
    """The 100 tiles in face order (``?`` the blanks)."""
    return [tile for tile, count in DISTRIBUTION.items() for _ in range(count)]


def distance(tile: str) -> int:
    """How far a drawn tile is from S (a blank: closer than any letter)."""
    return -1 if tile == BLANK else abs(ord(tile) - ord("S"))


def draw_for_first(seats: int, rng: random.Random) -> tuple[tuple[str, ...], int]:
    """The draw rounds (one tile per seat still drawing) and the seat that won."""
    tiles = full_set()
    drawing = list(range(seats))
    rounds: list[str] = []
    while True:
        drawn = rng.sample(tiles, len(drawing))
        rounds.append("".join(drawn))
        best = min(distance(t) for t in drawn)
        drawing = [seat for seat, t in zip(drawing, drawn, strict=True) if distance(t) == best]
        if len(drawing) == 1:
            return tuple(rounds), drawing[0]


def deal(
    players: tuple[str, ...], options: Options, lexicon: str, rng: random.Random
) -> GameStarted:
    """A new game's first event; ``rng`` is the only source of chance."""
    if not 2 <= len(players) <= 4:
        raise ValueError("a game has 2 to 4 players")
    options.check_seats(len(players))
    draws, first = draw_for_first(len(players), rng)
    bag = full_set()
    rng.shuffle(bag)
    size = options.rack_size
    racks = tuple("".join(bag[i * size : (i + 1) * size]) for i in range(len(players)))
    return GameStarted(
        options=options,
        lexicon=lexicon,
        players=players,
        draws=draws,
        first=first,
        racks=racks,
        bag=as_bag("".join(bag[len(players) * size :])),
        board=EMPTY_BOARD,
    )
