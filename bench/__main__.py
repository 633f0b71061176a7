"""``python -m bench``: run every figure and print one JSON object (``python -m bench
service``, ``notify``, ``inbound``, ``tracking``, ``corpus``, ``crossword``, ``blockers``,
``tumble``, ``waits`` or ``robots [--full] [--games N]``: only that section; ``stack [--ci]
[--games N] [--redis-down S]``: the production stack under load and faults,
:mod:`bench.stack.run`; ``mailrate``: emails per second as a worker's processes go
from 1 to 4, :mod:`bench.stack.mail_rate`;
``crossword-robots [--games N]``: the crossword game's move generator and robots,
:mod:`bench.crossword_robots`, not part of the full run: it takes a minute or more;
``stalls [--games N]``: N games of every kind against robots played to their end, none
may wait on a robot, :mod:`bench.stalls`, not part of the full run either)."""

from __future__ import annotations

import gc
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from games.engine import DEFAULT_NAME, Lexicon, LexiconStore

from . import (
    blockers,
    corpus,
    crossword,
    engine,
    inbound,
    notify,
    robots,
    service,
    tracking,
    tumble,
    waits,
)
from .cold import cold_start
from .positions import long_log, play_games
from .stats import note

REPO = Path(__file__).resolve().parent.parent
WORDLISTS = REPO / "var" / "wordlists"

#: The environment this run began with: the service section points this
#: process's ``DATABASE_URL`` at its own database, which is gone when it ends.
STARTING_ENV = dict(os.environ)

SEED = 20240601
GAMES = 30
BASELINE_POSITIONS = 40
SEARCH_BOARDS = 30
LOG_EVENTS = 200
REPLAY_RUNS = 50
COLD_RUNS = 5

#: Goals: (figure, what is compared, limit).
GOALS: dict[str, str] = {
    "validate_move_us": "median ≤ 10 µs (legal and illegal moves)",
    "legal_moves_ms": "median ≤ 2 ms",
    "jumbulaya_search_ms": "median ≤ 2 ms",
    "replay_200_events_ms": "median ≤ 2 ms",
    "cold_start": "wall ≤ 200 ms and RSS ≤ 80 MB",
    "baseline_speedup": "scan_moves / legal_moves ≥ 20×",
}


def load_lexicon() -> tuple[Lexicon, dict[str, Any]]:
    """The default list, timing the load and whether it built the index."""
    store = LexiconStore(WORDLISTS)
    cache = store.cache_dir
    before = set(cache.glob("*")) if cache.is_dir() else set()
    t0 = time.perf_counter_ns()
    lexicon = store.load(DEFAULT_NAME)
    ms = (time.perf_counter_ns() - t0) / 1e6
    built = bool(set(cache.glob("*")) - before)
    if built:
        note(f"built and cached the index in {ms / 1e3:.1f} s")
    gc.freeze()
    return lexicon, {
        "name": lexicon.name,
        "words": len(lexicon),
        "sha256": lexicon.sha256,
        "built_index": built,
        "build_ms": round(ms, 1) if built else None,
        "load_ms": None if built else round(ms, 1),
    }


def _goal_table(met: dict[str, bool], texts: dict[str, str]) -> dict[str, Any]:
    return {name: {"goal": texts[name], "met": ok} for name, ok in met.items()} | {
        "all_met": all(met.values()) if met else None
    }


def merged_goals(*tables: dict[str, Any]) -> dict[str, Any]:
    """Goal tables as one, with one ``all_met`` over every goal in them (each
    table's own ``all_met`` speaks of that table only)."""
    rows = {k: v for table in tables for k, v in table.items() if k != "all_met"}
    return rows | {"all_met": all(row["met"] for row in rows.values()) if rows else None}


def goals(
    figures: dict[str, Any],
    service_figures: dict[str, Any] | None = None,
    notify_figures: dict[str, Any] | None = None,
    inbound_figures: dict[str, Any] | None = None,
    robots_figures: dict[str, Any] | None = None,
    tracking_figures: dict[str, Any] | None = None,
) -> dict[str, Any]:
    v = figures["validate_move_us"]
    cold = figures["cold_start"]
    met = {
        "validate_move_us": v["legal"]["median"] <= 10 and v["illegal_not_a_word"]["median"] <= 10,
        "legal_moves_ms": figures["legal_moves_ms"]["median"] <= 2,
        "jumbulaya_search_ms": figures["jumbulaya_search_ms"]["median"] <= 2,
        "replay_200_events_ms": figures["replay_200_events_ms"]["median"] <= 2,
        "cold_start": cold["wall_ms"] <= 200 and cold["rss_mb"] <= 80,
        "baseline_speedup": figures["baseline_scan_ms"]["speedup"] >= 20,
    }
    if service_figures is not None:
        met |= service.goals(service_figures)
    if notify_figures is not None:
        met |= notify.goals(notify_figures)
    if inbound_figures is not None:
        met |= inbound.goals(inbound_figures)
    if robots_figures is not None:
        met |= robots.goals(robots_figures)
    if tracking_figures is not None:
        met |= tracking.goals(tracking_figures)
    texts = GOALS | service.GOALS | notify.GOALS | inbound.GOALS | robots.GOALS | tracking.GOALS
    return _goal_table(met, texts)


def robots_figures(
    lexicon: Lexicon, games: list[Any], log: list[Any], ladder_games: int = robots.LADDER_GAMES
) -> dict[str, Any]:
    """The robots section, or what failed in it."""
    try:
        return robots.run(lexicon, games, log, SEED, ladder_games)
    except Exception as e:  # the other figures must print whatever happens here
        traceback.print_exc()
        return {"error": f"{type(e).__name__}: {e}"}


def main_robots(args: list[str]) -> None:
    """``python -m bench robots [--full] [--games N]``: only the robots' figures
    (``--full``: the 200 games a pair the match goals are stated for)."""
    games = robots.FULL_GAMES if "--full" in args else robots.LADDER_GAMES
    if "--games" in args:
        games = int(args[args.index("--games") + 1])
    began = time.perf_counter()
    note("loading the default word list")
    lexicon, lexicon_info = load_lexicon()
    note(f"playing {GAMES} seeded games")
    played = play_games(GAMES, SEED, lexicon)
    log = long_log(LOG_EVENTS, SEED, lexicon)
    figures = robots_figures(lexicon, played, log, games)
    out = {
        "lexicon": lexicon_info,
        "robots": figures,
        "goals": _goal_table(robots.goals(figures), robots.GOALS),
        "runtime_s": round(time.perf_counter() - began, 1),
    }
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


#: The sections of the other game kinds: each module has ``run()``, ``goals(figures)``
#: and ``GOALS``, and ``python -m bench NAME`` runs it alone.
KIND_SECTIONS: dict[str, ModuleType] = {
    "crossword": crossword,
    "blockers": blockers,
    "tumble": tumble,
}


def kind_figures(name: str) -> dict[str, Any]:
    """A game kind's section, or what failed in it."""
    try:
        figures: dict[str, Any] = KIND_SECTIONS[name].run()
        return figures
    except Exception as e:  # the other figures must print whatever happens here
        traceback.print_exc()
        return {"error": f"{type(e).__name__}: {e}"}


def kind_goals(name: str, figures: dict[str, Any]) -> dict[str, Any]:
    section = KIND_SECTIONS[name]
    return _goal_table({} if "error" in figures else section.goals(figures), section.GOALS)


def main_kind(name: str) -> None:
    """``python -m bench NAME``: only that game kind's figures."""
    began = time.perf_counter()
    figures = kind_figures(name)
    out = {
        name: figures,
        "goals": kind_goals(name, figures),
        "runtime_s": round(time.perf_counter() - began, 1),
    }
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def service_figures(profile: bool = False) -> dict[str, Any]:
    """The service section: its figures, why they were skipped, or what failed."""
    try:
        return service.run(profile=profile)
    except Exception as e:  # the engine figures must print whatever happens here
        traceback.print_exc()
        return {"error": f"{type(e).__name__}: {e}"}


def main_service(profile: bool) -> None:
    """``python -m bench service [--profile]``: only the service figures."""
    figures = service_figures(profile)
    out = {"service": figures, "goals": _goal_table(service.goals(figures), service.GOALS)}
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


#: The sections that set Django up on a database of their own: each runs in a
#: process of its own (``python -m bench <name>``).
OWN_DATABASE: dict[str, ModuleType] = {
    "notify": notify,
    "inbound": inbound,
    "tracking": tracking,
    "waits": waits,
}


def own_database_figures(name: str) -> dict[str, Any]:
    """Section ``name`` of :data:`OWN_DATABASE`, in this process."""
    try:
        figures: dict[str, Any] = OWN_DATABASE[name].run()
    except Exception as e:  # report, like the service section
        traceback.print_exc()
        return {"error": f"{type(e).__name__}: {e}"}
    return figures


def in_child(name: str) -> dict[str, Any]:
    """Section ``name`` from ``python -m bench <name>`` in a child process: this
    process's Django is already set up on the service bench's database."""
    done = subprocess.run(
        [sys.executable, "-m", "bench", name],
        cwd=REPO,
        env=STARTING_ENV,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        figures: dict[str, Any] = json.loads(done.stdout)[name]
    except (ValueError, KeyError):
        return {"error": f"python -m bench {name} exited {done.returncode} without figures"}
    return figures


def main_own_database(name: str) -> None:
    """``python -m bench notify`` or ``inbound``: only that section's figures."""
    module = OWN_DATABASE[name]
    figures = own_database_figures(name)
    out = {name: figures, "goals": _goal_table(module.goals(figures), module.GOALS)}
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def main() -> None:
    began = time.perf_counter()
    note("loading the default word list")
    lexicon, lexicon_info = load_lexicon()

    note(f"playing {GAMES} seeded games")
    games = play_games(GAMES, SEED, lexicon)
    positions = [p for g in games for p in g.positions]
    log = long_log(LOG_EVENTS, SEED, lexicon)
    gc.collect()
    gc.freeze()  # the position set lives for the whole run, like the lexicon
    info = {
        "seed": SEED,
        "games": len(games),
        "positions": len(positions),
        "events": sum(len(g.events) for g in games),
        "mean_plies": round(len(positions) / len(games), 1),
        "ends": dict(Counter(g.end for g in games)),
    }

    figures: dict[str, Any] = {}
    note(f"legal_moves on {len(positions)} positions")
    figures["legal_moves_ms"], moves, legal_ns = engine.move_generation(positions, lexicon)
    note("validating moves")
    figures["validate_move_us"] = engine.validate_move(positions, moves, lexicon, SEED)
    note(f"scan_moves on {BASELINE_POSITIONS} positions")
    figures["baseline_scan_ms"] = engine.baseline(
        positions, moves, legal_ns, lexicon, BASELINE_POSITIONS
    )
    note("JUMBULAYA search")
    natural = [p for p in positions if p.state.jumbulaya_open()]
    # Each game's last few positions, the very last first: the fullest boards.
    late = [g.positions[-1 - k] for k in range(3) for g in games if len(g.positions) > k]
    figures["jumbulaya_search_ms"] = engine.jumbulaya_search(natural, late, lexicon, SEARCH_BOARDS)
    note(f"replaying a {LOG_EVENTS}-event log")
    figures |= engine.replays(log, lexicon, REPLAY_RUNS)
    note("the robots: decision times, the analysis, a match ladder")
    robots_out = robots_figures(lexicon, games, log)
    kinds_out = {}
    for name in KIND_SECTIONS:
        note(f"the {name} section")
        kinds_out[name] = kind_figures(name)
    note(f"cold start x{COLD_RUNS}")
    figures["cold_start"] = cold_start(REPO, WORDLISTS, COLD_RUNS)
    note("the service, over HTTP")
    service_out = service_figures()
    note("the notifications: deadline sweep and emails")
    notify_out = in_child("notify")
    note("the email replies: inbound webhooks")
    inbound_out = in_child("inbound")
    note("bounces and complaints: tracking webhooks")
    tracking_out = in_child("tracking")
    note("the long polls: a thousand waits held through ASGI")
    waits_out = in_child("waits")

    out = {
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpu_count": os.cpu_count(),
        },
        "lexicon": lexicon_info,
        "positions": info,
        **figures,
        "service": service_out,
        "notify": notify_out,
        "inbound": inbound_out,
        "tracking": tracking_out,
        "waits": waits_out,
        "robots": robots_out,
        **kinds_out,
        "goals": merged_goals(
            goals(figures, service_out, notify_out, inbound_out, robots_out, tracking_out),
            *(kind_goals(name, out) for name, out in kinds_out.items()),
            _goal_table(waits.goals(waits_out), waits.GOALS),
        ),
        "runtime_s": round(time.perf_counter() - began, 1),
    }
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "stack":
        from .stack.run import main as stack_main

        sys.exit(stack_main(args[1:]))
    elif args and args[0] == "crossword-robots":
        from .crossword_robots import main as crossword_main

        crossword_main(args[1:])
    elif args and args[0] == "stalls":
        from .stalls import main as stalls_main

        stalls_main(args[1:])
    elif args and args[0] == "mailrate":
        from .stack.mail_rate import main as mail_rate_main

        sys.exit(mail_rate_main(args[1:]))
    elif args and args[0] == "corpus":
        corpus.main()  # real reply emails through the inbound path: no other section
    elif args and args[0] == "service":
        main_service(profile="--profile" in args[1:])
    elif args and args[0] == "robots":
        main_robots(args[1:])
    elif args and args[0] in KIND_SECTIONS:
        main_kind(args[0])
    elif args and args[0] in OWN_DATABASE:
        main_own_database(args[0])
    else:
        main()
