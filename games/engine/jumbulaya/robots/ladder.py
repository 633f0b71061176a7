"""Measure the levels against each other: ``python -m games.engine.jumbulaya.robots.ladder``.

Plays each level against the one below it (and the strongest against
``greedy``) on the full ENABLE list, each deal twice with the seats swapped,
and prints one line of figures per pair: games, wins-draws-losses, the win
rate with its 95% Wilson interval, average scores and decision times.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from ...lexicon import LexiconStore
from . import LEVELS, STRONGEST
from .match import match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40, help="games per pair (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default="", help="A:B,C:D (default: the ladder)")
    args = parser.parse_args(argv)
    lexicon = LexiconStore(Path(tempfile.mkdtemp())).load("default")
    names = list(LEVELS)
    if args.pairs:
        pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    else:
        pairs = [(names[i + 1], names[i]) for i in range(len(names) - 1)]
        if (STRONGEST, "greedy") not in pairs:
            pairs.append((STRONGEST, "greedy"))
    for a, b in pairs:
        started = time.perf_counter()
        result = match(LEVELS[a], LEVELS[b], args.games, args.seed, lexicon)
        took = time.perf_counter() - started
        print(f"{result.summary()} ({took:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
