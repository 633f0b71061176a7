"""``python -m bench crossword-robots [--games N]``: the crossword game's move
generator and robots, as one JSON object.

- ``dawg``: building the DAWG of ENABLE plus the bonus words (a fresh cache
  directory), its size, and the cold load from the cache in fresh processes
  (interpreter start to a loaded graph, as :mod:`bench.cold` measures);
- ``legal_moves_ms``: every legal move for the rack to move, on mid-game boards
  from robot self-play (``strong`` against ``greedy``; the turns after the first
  three while the bag still holds tiles), best of three runs per position:
  median and p90, and the moves per position;
- ``turn_ms``: each level's answer time over the same positions;
- ``matches``: ``strong`` against ``greedy`` and ``greedy`` against ``beginner``,
  each deal twice with the seats swapped, win rates with their 95% Wilson intervals.

Not part of the default ``python -m bench`` run: it takes a few minutes.

Where the time goes: a move generator in Python pays for every DAWG edge it
follows with a few list lookups, a ``bit_count`` and a function call or a loop
turn, about a microsecond each, where a compiled one pays a few nanoseconds; and
every move found becomes a Python object with its word as a string.  A blank
multiplies the search by up to 26 letters per square, and the moves found by
several times: racks with a blank are reported on their own.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from games.engine import DEFAULT_NAME, LexiconStore
from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.dawg import Dawg, load_dawg
from games.engine.crossword.movegen import legal_moves
from games.engine.crossword.robots import Position, Robot, robot
from games.engine.crossword.robots.base import Answer
from games.engine.crossword.robots.match import match, play_game

from .stats import note, percentile

REPO = Path(__file__).resolve().parent.parent
WORDLISTS = REPO / "var" / "wordlists"
SEED = 20240601
#: The rule sheet's bonus words and their points.
BONUS: dict[str, int] = dict(BONUS_WORDS)
BOARD_GAMES = 10
COLD_RUNS = 5
MATCH_GAMES = 100
GOAL_MS = 10.0
GOAL_COLD_MS = 300.0

CHILD = """
import time
t0 = time.perf_counter()
import json, sys
from pathlib import Path
from games.engine.lexicon import LexiconStore
from games.engine.crossword.dawg import load_dawg
imported = time.perf_counter()
dawg = load_dawg(LexiconStore(Path(sys.argv[1])), "default", sys.argv[2].split(","))
loaded = time.perf_counter()
assert "MARY" in dawg
print(json.dumps({"import_ms": (imported - t0) * 1e3, "load_ms": (loaded - imported) * 1e3}))
"""


class Recorder:
    """Plays as ``inner`` and keeps every position it is given."""

    def __init__(self, inner: Robot, positions: list[Position]) -> None:
        self.inner = inner
        self.name = inner.name
        self.positions = positions

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        self.positions.append(position)
        return self.inner.choose(position, rng, budget_ms)


def dawg_figures() -> tuple[Dawg, dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        store = LexiconStore(Path(tmp))
        t0 = time.perf_counter()
        built = load_dawg(store, DEFAULT_NAME, BONUS)
        build_ms = (time.perf_counter() - t0) * 1e3
        size = sum(p.stat().st_size for p in store.cache_dir.iterdir())
        wall: list[float] = []
        child: list[dict[str, float]] = []
        for _ in range(COLD_RUNS):
            t0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", CHILD, tmp, ",".join(BONUS)],
                cwd=REPO,
                capture_output=True,
                text=True,
                check=True,
            )
            wall.append((time.perf_counter() - t0) * 1e3)
            child.append(json.loads(done.stdout))
    cold = statistics.median(wall)
    return built, {
        "words": len(built),
        "nodes": built.node_count,
        "edges": len(built.kids),
        "cache_bytes": size,
        "build_ms": round(build_ms, 1),
        "cold_runs": COLD_RUNS,
        "cold_wall_ms": round(cold, 1),
        "cold_child_import_ms": round(statistics.median(c["import_ms"] for c in child), 1),
        "cold_child_load_ms": round(statistics.median(c["load_ms"] for c in child), 1),
        "cold_goal_ms": GOAL_COLD_MS,
        "cold_goal_met": cold <= GOAL_COLD_MS,
    }


def mid_game_positions(dawg: Dawg) -> list[Position]:
    seen: list[Position] = []
    for g in tqdm(range(BOARD_GAMES), desc="boards", unit=" games", file=sys.stderr):
        players = [Recorder(robot("strong", dawg), seen), Recorder(robot("greedy", dawg), seen)]
        play_game(players, SEED + g, bonus=BONUS)
    mid = [p for p in seen if p.bag > 0 and sum(r.count(".") for r in p.board) < 225 - 6]
    return mid


def movegen_figures(dawg: Dawg, positions: list[Position]) -> dict[str, Any]:
    times: list[float] = []
    counts: list[int] = []
    for p in tqdm(positions, desc="legal_moves", unit=" positions", file=sys.stderr):
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter_ns()
            moves = legal_moves(p.board, p.rack, dawg, bonus=BONUS)
            best = min(best, time.perf_counter_ns() - t0)
        times.append(best / 1e6)
        counts.append(len(moves))
    blanks = [t for t, p in zip(times, positions, strict=True) if "?" in p.rack]
    median = statistics.median(times)
    return {
        "positions": len(times),
        "median": round(median, 2),
        "p90": round(percentile(times, 90), 2),
        "max": round(max(times), 2),
        "with_a_blank_median": round(statistics.median(blanks), 2) if blanks else None,
        "moves_median": statistics.median(counts),
        "moves_mean": round(statistics.fmean(counts), 1),
        "us_per_move": round(1000 * sum(times) / max(1, sum(counts)), 2),
        "goal_ms": GOAL_MS,
        "goal_met": median <= GOAL_MS,
    }


def turn_figures(dawg: Dawg, positions: list[Position]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    sample = random.Random(SEED).sample(positions, min(60, len(positions)))
    for name in ("beginner", "casual", "greedy", "strong"):
        level = robot(name, dawg)
        times = []
        for i, p in enumerate(sample):
            t0 = time.perf_counter()
            level.choose(p, random.Random(i), None)
            times.append((time.perf_counter() - t0) * 1e3)
        out[name] = {
            "median": round(statistics.median(times), 2),
            "p90": round(percentile(times, 90), 2),
            "max": round(max(times), 2),
        }
    return out


def match_figures(dawg: Dawg, games: int) -> list[dict[str, Any]]:
    rows = []
    for a, b in (("strong", "greedy"), ("greedy", "beginner")):
        t0 = time.perf_counter()
        with tqdm(total=games, desc=f"{a} vs {b}", unit=" games", file=sys.stderr) as bar:

            def progress(done: int, total: int, bar: tqdm[Any] = bar) -> None:
                bar.update(1)

            result = match(robot(a, dawg), robot(b, dawg), games, SEED, progress, bonus=BONUS)
        note(result.summary())
        lo, hi = result.interval
        rows.append(
            {
                "a": a,
                "b": b,
                "games": result.played,
                "wins": result.wins,
                "draws": result.draws,
                "losses": result.losses,
                "win_rate": round(result.win_rate, 3),
                "interval95": [round(lo, 3), round(hi, 3)],
                "average_scores": [round(s, 1) for s in result.average_scores],
                "mean_spread": round(statistics.fmean(result.spreads), 1),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    return rows


def main(args: list[str]) -> None:
    games = int(args[args.index("--games") + 1]) if "--games" in args else MATCH_GAMES
    began = time.perf_counter()
    load_before = os.getloadavg()
    note("building the DAWG and timing cold loads")
    _, dawg_out = dawg_figures()
    dawg = load_dawg(LexiconStore(WORDLISTS), DEFAULT_NAME, BONUS)
    note(f"mid-game boards from {BOARD_GAMES} self-play games")
    positions = mid_game_positions(dawg)
    out: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            # Other work on the machine slows every figure: the load averages
            # (1, 5, 15 minutes) when the run began and when it ended.
            "loadavg_start": [round(x, 2) for x in load_before],
            "loadavg_end": [],
        },
        "dawg": dawg_out,
        "legal_moves_ms": movegen_figures(dawg, positions),
        "turn_ms": turn_figures(dawg, positions),
        "matches": match_figures(dawg, games),
        "runtime_s": 0.0,
    }
    out["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    out["runtime_s"] = round(time.perf_counter() - began, 1)
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
