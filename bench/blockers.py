"""The Blockers section: legal moves, a robot turn per level, a small match ladder.

- ``legal_moves_ms``: every legal move of the seat to move (placements and
  captures with the split test), best of 3 per position, over every position
  of seeded greedy self-play games (median and p90);
- ``robot_turn_ms``: each level's answer to the same seat views (the strong
  level at its own budget);
- ``matches``: greedy seated among beginners and strong among greedies, each
  deal played once per seat, with win rates and 95% (Wilson) intervals against
  the fair share of one game in three.  Small, so the section runs in under a
  minute.

``python -m bench blockers`` runs only this section.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from tqdm import tqdm

from games.engine.blockers import BlockersState, Event, legal_moves, read_view, replay, seat_view
from games.engine.blockers.robots import LEVELS, match, play_game

from .stats import best_ns, note, percentile, summary

SEED = 20240601
POSITION_GAMES = 6
VIEWS = 30
MATCH_DEALS = 8

GOALS: dict[str, str] = {
    "blockers_legal_moves_ms": "median and p90 ≤ 5 ms (all Blockers moves of a position)",
}


def _positions(games: int, seed: int) -> list[tuple[list[Event], BlockersState]]:
    """Every position with a seat to move from ``games`` greedy self-play games."""
    out = []
    for i in range(games):
        g = play_game([LEVELS["greedy"]] * 3, seed + i)
        for k in range(1, len(g.events)):
            events = list(g.events[:k])
            state = replay(events)
            if not state.over:
                out.append((events, state))
    return out


def _ms(values_ns: Sequence[float]) -> dict[str, Any]:
    out = summary(values_ns, "ms")
    out["p90"] = round(percentile(values_ns, 90) / 1e6, 3)
    return out


def legal_moves_figures(positions: list[tuple[list[Event], BlockersState]]) -> dict[str, Any]:
    times = []
    counts = []
    for _, state in positions:
        seat = state.turn
        assert seat is not None
        times.append(best_ns(partial(legal_moves, state, seat)))
        counts.append(len(legal_moves(state, seat)))
    return _ms(times) | {"moves_median": sorted(counts)[len(counts) // 2], "moves_max": max(counts)}


def robot_turns(positions: list[tuple[list[Event], BlockersState]], seed: int) -> dict[str, Any]:
    picks = random.Random(seed).sample(positions, min(VIEWS, len(positions)))
    docs = [seat_view(events, state, state.turn) for events, state in picks]
    out: dict[str, Any] = {}
    for name, level in LEVELS.items():
        note(f"blockers: {name} answers {len(docs)} positions")
        times = []
        for i, doc in enumerate(docs):
            view = read_view(doc)
            t0 = time.perf_counter_ns()
            level.answer(view, random.Random(seed + i))
            times.append(time.perf_counter_ns() - t0)
        out[name] = _ms(times)
    return out


def run(seed: int = SEED) -> dict[str, Any]:
    note(f"blockers: {POSITION_GAMES} greedy games for positions")
    positions = _positions(POSITION_GAMES, seed)
    note(f"blockers: legal moves on {len(positions)} positions")
    figures: dict[str, Any] = {"positions": len(positions)}
    figures["legal_moves_ms"] = legal_moves_figures(positions)
    figures["robot_turn_ms"] = robot_turns(positions, seed)
    figures["matches"] = []
    for a, b in (("greedy", "beginner"), ("strong", "greedy")):
        with tqdm(total=MATCH_DEALS * 3, desc=f"{a} among {b}s", file=sys.stderr) as bar:

            def progress(done: int, total: int, bar: tqdm[Any] = bar) -> None:
                bar.update(done - bar.n)

            result = match(LEVELS[a], LEVELS[b], MATCH_DEALS, seed, progress=progress)
        note(f"blockers: {result.summary()}")
        figures["matches"].append(result.to_json())
    return figures


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    if "legal_moves_ms" not in figures:
        return {"blockers_legal_moves_ms": False}
    lm = figures["legal_moves_ms"]
    return {"blockers_legal_moves_ms": lm["median"] <= 5 and lm["p90"] <= 5}
