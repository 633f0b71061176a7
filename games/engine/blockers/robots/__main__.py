"""``python -m games.engine.blockers.robots A B``: a match with a progress bar."""

from __future__ import annotations

import argparse

from tqdm import tqdm

from .levels import LEVELS
from .match import match


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A Blockers robot match: A seated among Bs.")
    parser.add_argument("a", choices=sorted(LEVELS))
    parser.add_argument("b", choices=sorted(LEVELS))
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--players", type=int, default=3, choices=(3, 4, 5))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=None)
    args = parser.parse_args(argv)
    with tqdm(total=args.deals * args.players, desc=f"{args.a} vs {args.b}", unit=" games") as bar:

        def progress(done: int, total: int) -> None:
            bar.update(done - bar.n)

        result = match(
            LEVELS[args.a],
            LEVELS[args.b],
            args.deals,
            args.seed,
            args.players,
            progress=progress,
            budget_ms=args.budget_ms,
        )
    print(result.summary())


if __name__ == "__main__":
    main()
