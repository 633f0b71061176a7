"""Starting a game: who starts (three or more players) and the first rolls."""

from __future__ import annotations

import random
import secrets

from .cubes import roll_cubes, roll_one, start_rank
from .events import GameStarted
from .options import MAX_PLAYERS, MIN_PLAYERS, Options


def roll_off(players: int, rng: random.Random) -> tuple[tuple[str, ...], int]:
    """Who starts (spec reading 8): each player rolls one cube, the face
    nearest A starts (a blank after Z); tied players roll again.  The rounds
    of rolls (``.`` for a seat no longer rolling) and the seat that starts."""
    rolling = list(range(players))
    rounds = []
    while True:
        faces = {seat: roll_one(rng) for seat in rolling}
        rounds.append("".join(faces.get(s, ".") for s in range(players)))
        best = min(start_rank(f) for f in faces.values())
        rolling = [s for s in rolling if start_rank(faces[s]) == best]
        if len(rolling) == 1:
            return tuple(rounds), rolling[0]


def deal(
    players: tuple[str, ...], options: Options, rng: random.Random | None = None
) -> GameStarted:
    """A new game's first event.  ``rng`` defaults to the operating system's
    generator; pass a seeded one only for tests and benchmarks."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    rng = rng or secrets.SystemRandom()
    if len(players) == 2:
        return GameStarted(options, players, (), 0, (roll_cubes(rng), roll_cubes(rng)))
    rounds, first = roll_off(len(players), rng)
    return GameStarted(options, players, rounds, first, (roll_cubes(rng),))
