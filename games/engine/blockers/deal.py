"""Starting a game: each colour's 28 tiles shuffled face down, five of them
dealt onto its rack and the rest left in its own pile, and a player chosen at
random to start (the sheet: "Randomly choose a player to take the first
turn").  A pile keeps the set's own order: every later draw is picked at random
from all of it, so an order could only tell what nobody should know."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .board import RACK_SIZE, TILE_SET
from .events import GameStarted
from .options import MAX_PLAYERS, MIN_PLAYERS, Options, check_colours


def deal(
    players: Sequence[str], options: Options, rng: random.Random, first: int | None = None
) -> GameStarted:
    """A new game's first event: every colour shuffled with ``rng`` (seat order)
    for its rack, then the first seat drawn with it unless ``first`` is given."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError("a game of Blockers has 3 to 5 players")
    check_colours(options.colours, len(players))
    racks, piles = [], []
    for _ in players:
        pile = list(TILE_SET)
        rng.shuffle(pile)
        rack = pile[:RACK_SIZE]
        racks.append(tuple(rack))
        piles.append(tuple(t for t in TILE_SET if t not in rack))
    return GameStarted(
        options=options,
        players=tuple(players),
        first=rng.randrange(len(players)) if first is None else first,
        racks=tuple(racks),
        piles=tuple(piles),
    )
