"""Starting a game: each colour's 28 tiles shuffled face down into its own pile,
five drawn from the front onto its rack, and a player chosen at random to start
(the sheet: "Randomly choose a player to take the first turn")."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .board import RACK_SIZE, TILE_SET
from .events import GameStarted
from .options import MAX_PLAYERS, MIN_PLAYERS, Options, check_colours


def deal(
    players: Sequence[str], options: Options, rng: random.Random, first: int | None = None
) -> GameStarted:
    """A new game's first event: every pile shuffled with ``rng`` (seat order),
    then the first seat drawn with it unless ``first`` is given."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError("a game of Blockers has 3 to 5 players")
    check_colours(options.colours, len(players))
    racks, piles = [], []
    for _ in players:
        pile = list(TILE_SET)
        rng.shuffle(pile)
        racks.append(tuple(pile[:RACK_SIZE]))
        piles.append(tuple(pile[RACK_SIZE:]))
    return GameStarted(
        options=options,
        players=tuple(players),
        first=rng.randrange(len(players)) if first is None else first,
        racks=tuple(racks),
        piles=tuple(piles),
    )
