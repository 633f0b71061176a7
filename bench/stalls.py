"""``python -m bench stalls [--games N]``: the stall check of
:mod:`games.robots.stalls` over hundreds of games, as one JSON object.

``N`` games of every kind (default :data:`PER_KIND`), robot against robot and
a person against robots in turn, every robot level, JUMBULAYA's claim window on
and off, each played to its end through the one door with every robot turn
played by its task's function; a game that stalls (a robot to move owed no
turn, a robot's turn played without the game moving on, a game not over after
:data:`games.robots.stalls.MAX_EVENTS` events) is listed under ``stalls``, and
the goal is none.  By kind: the games, how they ended, their events, and the
time each robot turn took to play (its answer and the move through the one
door), the longest being the longest any game waited on a robot.

On a SQLite database of its own in a scratch directory, migrated first and
gone afterwards, with an in-memory broker (no worker: the turns are played
here).  Not part of the default ``python -m bench`` run: it takes many minutes.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .stats import note

REPO = Path(__file__).resolve().parent.parent
#: Games of each kind by default: four kinds, 240 games.
PER_KIND = 60
SEED = 20240601

#: Goals of the stalls figures.
GOALS: dict[str, str] = {"stalls_none": "no game of any kind waits on a robot or never ends"}


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    """Whether the goal is met (none when the section failed)."""
    if "stalls" not in figures:
        return {}
    return {"stalls_none": figures["stalls"] == [] and figures["games"] > 0}


def _environment(var_dir: str) -> dict[str, str]:
    """A database, a broker and word lists of this run's own, no daily limit."""
    wordlists = os.environ.get("JUMBULAYA_WORDLIST_DIR") or str(REPO / "var" / "wordlists")
    return {
        "DATABASE_URL": "",  # SQLite under JUMBULAYA_VAR_DIR
        "JUMBULAYA_VAR_DIR": var_dir,
        "JUMBULAYA_WORDLIST_DIR": wordlists,
        "CELERY_BROKER_URL": "memory://localhost/",
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "DJANGO_SECRET_KEY": "bench",
        "DJANGO_LOG_LEVEL": "ERROR",
        "JUMBULAYA_GAMES_PER_DAY": "0",
    }


def run(per_kind: int = PER_KIND) -> dict[str, Any]:
    """Play the games and return the figures (Django is set up here, on a
    scratch database: this process must not have set it up already)."""
    with tempfile.TemporaryDirectory(prefix="bench-stalls-") as var_dir:
        env = _environment(var_dir)
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=REPO,
            env=os.environ | env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py migrate failed:\n{done.stderr[-2000:]}")
        os.environ.update(env)
        import django

        django.setup()
        from games.robots import stalls

        games = stalls.setups(per_kind, SEED)
        note(f"playing {len(games)} games to their end")
        report = stalls.check(games, SEED)
        return report.figures()


def main(args: list[str]) -> None:
    per_kind = int(args[args.index("--games") + 1]) if "--games" in args else PER_KIND
    began = time.perf_counter()
    load_before = os.getloadavg()
    figures = run(per_kind)
    out = {
        "machine": {
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            # Other work on the machine slows every figure: the load averages
            # (1, 5, 15 minutes) when the run began and when it ended.
            "loadavg_start": [round(x, 2) for x in load_before],
            "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        },
        "stalls": figures,
        "goals": {name: {"goal": GOALS[name], "met": met} for name, met in goals(figures).items()},
        "runtime_s": round(time.perf_counter() - began, 1),
    }
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
