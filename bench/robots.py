"""The robots section: decision times, the post-game analysis, a match ladder.

- ``decision_ms``: every level's answer time over seat views of positions from
  the seeded games (the strongest's and the weakest's are the goals);
- ``analysis_s``: :func:`~games.engine.jumbulaya.analysis.analyse` on the long log, without
  a robot and with the strongest robot's choice at a small budget;
- ``ladder``: each level against the one below it and the strongest against the
  Boardspace baseline, each deal twice with the seats swapped, with win rates
  and their 95% (Wilson) intervals.  The default number of games is small so
  that ``make bench`` stays within minutes; ``python -m bench robots --full``
  plays the 200 games per pair the goals are stated for.

``python -m bench robots [--full] [--games N]`` runs only this section.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from games.engine.jumbulaya import Event, Lexicon
from games.engine.jumbulaya import robots as engine_robots
from games.engine.jumbulaya.analysis import analyse
from games.engine.jumbulaya.robots.base import Level
from games.engine.jumbulaya.robots.boardspace import BOARDSPACE
from games.engine.jumbulaya.robots.match import match
from games.engine.jumbulaya.view import read_view, seat_view

from .positions import Game
from .stats import note, summary

#: Games per pair by default (each deal twice), and with ``--full``.
LADDER_GAMES = 6
FULL_GAMES = 200
#: Positions each level answers for the decision times.
DECISION_POSITIONS = 40
#: The strongest robot's budget when the analysis asks for its choices.
ANALYSIS_BUDGET_MS = 20.0
LEXICON_NAME = "default"

GOALS: dict[str, str] = {
    "robots_strongest_ms": "strongest median ≤ 250 ms and p95 ≤ 1 s",
    "robots_weakest_ms": "weakest median ≤ 20 ms",
    "robots_analysis_s": "analysing a 200-turn game ≤ 3 s (no robot)",
    "robots_vs_baseline": "strongest wins ≥ 75% against boardspace (200 games)",
    "robots_ladder": "each level wins ≥ 60% against the one below (200 games)",
}


def _views(games: Sequence[Game], count: int, seed: int) -> list[dict[str, Any]]:
    """Seat views of ``count`` positions picked at random from the games, for
    the seat to move (each game's events up to the position)."""
    picks = [(g, p) for g in games for p in g.positions]
    random.Random(seed).shuffle(picks)
    out = []
    for game, position in picks[:count]:
        events = game.events[: position.ply + 1]  # one event per turn in these games
        out.append(seat_view(events, position.state, position.seat, lexicon=LEXICON_NAME))
    return out


def decision_times(
    levels: Sequence[Level], games: Sequence[Game], lexicon: Lexicon, seed: int
) -> dict[str, Any]:
    """Each level's answer time, in ms, over the same seat views."""
    docs = _views(games, DECISION_POSITIONS, seed)
    out: dict[str, Any] = {}
    for level in levels:
        note(f"robots: {level.name} answers {len(docs)} positions")
        times = []
        for i, doc in enumerate(docs):
            view = read_view(doc)
            rng = random.Random(seed + i)
            t0 = time.perf_counter_ns()
            level.answer(view, lexicon, rng, None)
            times.append(time.perf_counter_ns() - t0)
        out[level.name] = summary(times, "ms")
    return out


def analysis_time(log: Sequence[Event], lexicon: Lexicon, seed: int) -> dict[str, Any]:
    """Seconds to analyse the long log, without and with the strongest's choices."""
    t0 = time.perf_counter()
    plain = analyse(log, lexicon)
    without = time.perf_counter() - t0
    strongest = engine_robots.STRONGEST
    rng = random.Random(seed)

    def robot(view: Any) -> str:
        return engine_robots.answer(view, lexicon, strongest, rng, budget_ms=ANALYSIS_BUDGET_MS)

    t0 = time.perf_counter()
    analyse(log, lexicon, robot=robot)
    with_robot = time.perf_counter() - t0
    return {
        "turns": len(plain.turns),
        "open_jumbulayas": len(plain.jumbulayas),
        "without_robot_s": round(without, 3),
        "with_robot_s": round(with_robot, 3),
        "robot": strongest,
        "robot_budget_ms": ANALYSIS_BUDGET_MS,
    }


def pairs() -> list[tuple[Level, Level]]:
    """Each level against the one below it, then the strongest against the baseline."""
    levels = list(engine_robots.LEVELS.values())
    out = [(levels[i], levels[i - 1]) for i in range(1, len(levels))]
    out.append((levels[-1], BOARDSPACE))
    return out


def ladder(lexicon: Lexicon, games: int, seed: int) -> list[dict[str, Any]]:
    rows = []
    for a, b in pairs():
        note(f"robots: {a.name} vs {b.name}, {games} games")
        t0 = time.perf_counter()

        def progress(done: int, total: int, a: Level = a, b: Level = b) -> None:
            if done % 10 == 0 or done == total:
                note(f"robots: {a.name} vs {b.name}: {done}/{total}")

        result = match(a, b, games, seed, lexicon, progress, lexicon_name=LEXICON_NAME)
        lo, hi = result.interval
        sa, sb = result.average_scores
        rows.append(
            {
                "a": a.name,
                "b": b.name,
                "games": result.played,
                "wins": result.wins,
                "draws": result.draws,
                "losses": result.losses,
                "capped": result.capped,
                "win_rate": round(result.win_rate, 3),
                "interval95": [round(lo, 3), round(hi, 3)],
                "average_scores": [round(sa, 1), round(sb, 1)],
                "mean_turns": round(statistics.fmean(g.turns for g in result.games), 1),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    return rows


def run(
    lexicon: Lexicon,
    games: Sequence[Game],
    log: Sequence[Event],
    seed: int,
    ladder_games: int = LADDER_GAMES,
) -> dict[str, Any]:
    """The section's figures."""
    levels = [*engine_robots.LEVELS.values(), BOARDSPACE]
    return {
        "levels": list(engine_robots.LEVELS),
        "strongest": engine_robots.STRONGEST,
        "weakest": next(iter(engine_robots.LEVELS)),
        "decision_ms": decision_times(levels, games, lexicon, seed),
        "analysis_s": analysis_time(log, lexicon, seed),
        "ladder": ladder(lexicon, ladder_games, seed),
    }


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    """Which goals the figures meet (the match goals are stated for 200 games a
    pair: a shorter ladder is reported but its goals are not judged)."""
    if "error" in figures:
        return {}
    times = figures["decision_ms"]
    strongest, weakest = times[figures["strongest"]], times[figures["weakest"]]
    met = {
        "robots_strongest_ms": strongest["median"] <= 250 and strongest["p95"] <= 1000,
        "robots_weakest_ms": weakest["median"] <= 20,
        "robots_analysis_s": figures["analysis_s"]["without_robot_s"] <= 3,
    }
    rows = figures["ladder"]
    if rows and all(r["games"] >= FULL_GAMES for r in rows):
        baseline = [r for r in rows if r["b"] == BOARDSPACE.name]
        steps = [r for r in rows if r["b"] != BOARDSPACE.name]
        met["robots_vs_baseline"] = all(r["win_rate"] >= 0.75 for r in baseline)
        met["robots_ladder"] = all(r["win_rate"] >= 0.60 for r in steps)
    return met
