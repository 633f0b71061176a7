"""The Tumble-Words figures: checking and scoring a crossword, and the robots.

- ``check_us``: :func:`~games.engine.tumble.check` (every check, the best
  colours and the score) on the crosswords the strong robot lays, median µs;
- ``robot_ms``: each level's time to lay a crossword over the same rolls
  (median, p90, max; the goal: the strong robot within 2 s) and its average
  score;
- ``match``: the strong robot against the casual one, two-player games to 100,
  with the win rate's 95% (Wilson) interval.

``python -m bench tumble [--rolls N] [--games N]`` runs only this section.
"""

from __future__ import annotations

import gzip
import random
import statistics
import time
from typing import Any

from tqdm import tqdm

from games.engine.lexicon import DEFAULT_PATH
from games.engine.tumble import check, parse_grid, roll_cubes
from games.engine.tumble.robots import LEVELS, STRONGEST
from games.engine.tumble.robots.match import match
from games.engine.tumble.robots.words import index_of

from .stats import best_ns, note, percentile, summary

#: The bench's seed (bench/__main__.py's).
SEED = 20240601
ROLLS = 40
MATCH_GAMES = 4

GOALS: dict[str, str] = {
    "tumble_robot_ms": "strong robot's crossword max ≤ 2000 ms",
}


def enable() -> frozenset[str]:
    with gzip.open(DEFAULT_PATH, "rt") as f:
        return frozenset(line.strip().upper() for line in f if line.strip())


def run(seed: int = SEED, rolls: int = ROLLS, games: int = MATCH_GAMES) -> dict[str, Any]:
    words = enable()
    t0 = time.perf_counter()
    index_of(words)
    index_ms = (time.perf_counter() - t0) * 1000
    rng = random.Random(seed)
    sample = [roll_cubes(rng) for _ in range(rolls)]
    robot: dict[str, Any] = {}
    laid: list[tuple[str, str]] = []
    for name, level in LEVELS.items():
        times, scores = [], []
        for i, roll in enumerate(tqdm(sample, desc=f"tumble {name}", leave=False)):
            t = time.perf_counter_ns()
            found = level.crossword(roll, words, random.Random(seed + i))
            times.append(time.perf_counter_ns() - t)
            scores.append(-13 if found is None else found.score)
            if name == STRONGEST and found is not None:
                laid.append((roll, found.text))
        ms = [t / 1e6 for t in times]
        robot[name] = {
            "median": round(statistics.median(ms), 1),
            "p90": round(percentile(ms, 90), 1),
            "max": round(max(ms), 1),
            "mean_score": round(statistics.fmean(scores), 2),
        }
    note(f"tumble: checking {len(laid)} crosswords")
    check_ns = []
    for roll, text in laid:

        def one(roll: str = roll, text: str = text) -> object:
            return check(parse_grid(text), roll, words)

        check_ns.append(best_ns(one, 5))
    a, b = LEVELS[STRONGEST], LEVELS["casual"]
    bar = tqdm(total=2 * ((games + 1) // 2), desc=f"tumble {a.name} vs {b.name}", leave=False)

    def progress(done: int, total: int) -> None:
        bar.update(1)

    result = match(a, b, games, seed, words, progress)
    bar.close()
    note(f"tumble: {result.summary()}")
    lo, hi = result.interval
    return {
        "rolls": rolls,
        "index_build_ms": round(index_ms, 1),
        "check_us": summary(check_ns, "us"),
        "robot_ms": robot,
        "match": {
            "a": a.name,
            "b": b.name,
            "games": result.played,
            "win_rate": round(result.win_rate, 3),
            "interval95": [round(lo, 3), round(hi, 3)],
            "points_a_round": [round(p, 1) for p in result.mean_round_points()],
        },
    }


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    if "error" in figures:
        return {}
    return {"tumble_robot_ms": figures["robot_ms"][STRONGEST]["max"] <= 2000}
