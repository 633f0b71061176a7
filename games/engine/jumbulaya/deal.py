"""Starting a game: shuffle the 100 tiles, deal 3 to each line and 5 to each
rack, choose who moves first."""

from __future__ import annotations

import random
import secrets

from ..lexicon import Lexicon
from ..tiles import DEALT_PER_LINE, LINES, RACK_SIZE, full_set
from .events import GameStarted
from .options import Rules


def deal(
    players: tuple[str, ...],
    rules: Rules,
    lexicon: Lexicon,
    rng: random.Random | None = None,
    first: int | None = None,
) -> GameStarted:
    """A new game's first event.  ``rng`` defaults to the operating system's
    generator; pass a seeded one only for tests and benchmarks."""
    if not 2 <= len(players) <= 4:
        raise ValueError("a game has 2 to 4 players")
    rng = rng or secrets.SystemRandom()
    tiles = full_set()
    rng.shuffle(tiles)
    lines = tuple(tuple(tiles[i * DEALT_PER_LINE : (i + 1) * DEALT_PER_LINE]) for i in range(LINES))
    pos = LINES * DEALT_PER_LINE
    racks = []
    for _ in players:
        racks.append(tuple(tiles[pos : pos + RACK_SIZE]))
        pos += RACK_SIZE
    return GameStarted(
        rules=rules,
        lexicon=lexicon.name,
        lexicon_sha256=lexicon.sha256,
        players=players,
        first=rng.randrange(len(players)) if first is None else first,
        lines=lines,
        racks=tuple(racks),
        bag=tuple(tiles[pos:]),
    )
