"""Helpers for the Tumble-Words engine tests: the seed's examples as rolls and
crosswords, games started from known rolls, and a roller of given rolls."""

from __future__ import annotations

from games.engine.tumble import GameStarted, Options, Roller, TumbleState, start

#: The words of the seed's examples.
SEED_WORDS = frozenset({"FAME", "HERO", "IT", "IN", "FIN", "AT", "HE", "BIN"})

# The seed's examples, laid out and rolled by hand (see test_score.py).
EX1_ROLL, EX1 = "AOFCERMIHTIEB", "...H/FAME/...R/...O"
EX2_ROLL, EX2 = "AOFCRRM_HTIEB", "...H/FAMe/...R/...O"
EX3_ROLL, EX3 = "AIFLERMIHTOQN", ".....H/..FAME/..IT.R/.IN..O"
EX4_ROLL, EX4 = "AOFNERMIHTIEB", ".....HE/..FAME/..IT.R/BIN..O"


def two(
    rolls: tuple[str, str] = (EX3_ROLL, EX4_ROLL), options: Options | None = None
) -> TumbleState:
    """A two-player game whose first round rolled ``rolls``."""
    return start(GameStarted(options or Options(), ("ann", "bob"), (), 0, rolls))


def fixed(*rolls: str) -> Roller:
    """A roller that rolls ``rolls`` in turn."""
    queue = list(rolls)

    def roll(count: int) -> tuple[str, ...]:
        out = tuple(queue[:count])
        del queue[:count]
        return out

    return roll
