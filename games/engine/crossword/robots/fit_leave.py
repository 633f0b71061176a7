"""Measure the leave's weights (:data:`~..leave.WEIGHTS`) by self-play.

``python -m games.engine.crossword.robots.fit_leave [--games N] [--seed S]``
plays N two-seat games on the shipped ENABLE list (plus the bonus words given
by ``--bonus``, none by default).  Both seats pick at random among their ten
best-scoring moves, so that every kind of leave is kept now and then.  After
each move that the bag refills in full, the tiles kept are recorded with the
best score that seat could make on its next turn; the leave's terms
(:func:`~..leave.terms`) are then fitted to those scores by least squares with
a small ridge (an intercept, unpenalised, absorbs the average).  It prints the
table to paste into :mod:`..leave` and a few figures on stderr.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from ...lexicon import DEFAULT_NAME, LexiconStore
from ..dawg import Dawg, load_dawg
from ..leave import FEATURES, terms
from ..movegen import legal_moves
from .base import Answer, Pass, Position
from .levels import rack_after
from .match import play_game

CHOICES = 10
RIDGE = 5.0


class Explorer:
    """Picks at random among its best moves and records (leave, next best score)."""

    name = "explorer"

    def __init__(self, dawg: Dawg, samples: list[tuple[str, int]]) -> None:
        self.dawg = dawg
        self.samples = samples
        self.pending: dict[int, str] = {}

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        moves = legal_moves(position.board, position.rack, self.dawg)
        kept = self.pending.pop(position.seat, None)
        if kept is not None:
            self.samples.append((kept, max((m.score for m in moves), default=0)))
        if not moves:
            return Pass()
        moves.sort(key=lambda m: -m.score)
        pick = rng.choice(moves[:CHOICES])
        if position.bag >= len(pick.tiles):
            self.pending[position.seat] = rack_after(position.rack, pick.tiles)
        return pick


def fit(samples: Sequence[tuple[str, int]], ridge: float = RIDGE) -> tuple[float, dict[str, float]]:
    """Least squares of the next best score on the leave's terms: the intercept
    and each term's weight."""
    index = {name: i + 1 for i, name in enumerate(FEATURES)}
    n = len(FEATURES) + 1
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for leave, score in samples:
        x = [(0, 1.0)] + [(index[t], float(v)) for t, v in terms(leave).items()]
        for i, xi in x:
            b[i] += xi * score
            row = a[i]
            for j, xj in x:
                row[j] += xi * xj
    for i in range(1, n):
        a[i][i] += ridge
    weights = _solve(a, b)
    return weights[0], {name: weights[index[name]] for name in FEATURES}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (``a`` is symmetric positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wordlists", type=Path, default=Path("var/wordlists"))
    args = parser.parse_args(argv)
    dawg = load_dawg(LexiconStore(args.wordlists), DEFAULT_NAME)
    samples: list[tuple[str, int]] = []
    for g in tqdm(range(args.games), desc="self-play", unit=" games", file=sys.stderr):
        explorer = Explorer(dawg, samples)
        play_game([explorer, explorer], args.seed * 1_000_003 + g)
    intercept, weights = fit(samples)
    scores = [s for _, s in samples]
    print(
        f"{len(samples)} leaves; next best score: mean {statistics.fmean(scores):.1f}, "
        f"intercept {intercept:.2f}",
        file=sys.stderr,
    )
    print("WEIGHTS: dict[str, float] = {")
    for name in FEATURES:
        print(f"    {name!r}: {weights[name]:.1f},")
    print("}")


if __name__ == "__main__":
    main()
