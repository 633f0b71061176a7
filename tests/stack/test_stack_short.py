"""The short stack run (``python -m bench stack --ci``): the production topology with
its own PostgreSQL and Redis, games played to the end over every channel while a
worker, Redis, a web worker and PostgreSQL fail under it, and the count exact.

What it asserts does not depend on the machine's speed: every game is played to
its end under a generous cap (a loaded machine takes longer, never fails for it),
and the time it took is printed, not judged.  The faults come at fixed seconds
into the play, so a fast run may end before the last of them: each fault brought
must have worked, and the first (a worker killed 10 s in) is always brought."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.stack.topology import PG_BIN

REPO = Path(__file__).resolve().parents[2]
#: The games of the CI run: small enough for CI's time on a 2-core machine.
GAMES = 10
#: How long the games may take to be played to their end: a hang detector, not a
#: measure (``bench stack --ci`` alone would stop the play at 150 s).
PLAY_CAP_MINUTES = 20

pytestmark = [
    pytest.mark.slow,
    pytest.mark.services,
    pytest.mark.skipif(
        os.geteuid() != 0 or shutil.which("runuser") is None,
        reason="the stack test runs PostgreSQL as the postgres user (needs root and runuser)",
    ),
    pytest.mark.skipif(
        not (PG_BIN / "initdb").exists() or shutil.which("redis-server") is None,
        reason="PostgreSQL 15's binaries and redis-server are needed",
    ),
]


def test_the_short_stack_run_loses_nothing_and_doubles_nothing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench", "stack", "--ci", "--games", str(GAMES),
         "--minutes", str(PLAY_CAP_MINUTES)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=PLAY_CAP_MINUTES * 60 + 600,  # and the start, the drain and the checks
    )  # fmt: skip
    assert done.stdout, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    print(f"the short stack run: {GAMES} games in {summary['runtime_s']} s, "
          f"{len(summary['faults'])} faults noted")  # fmt: skip
    assert summary["games"]["status"] == {"over": GAMES}, summary["games"]
    moves = summary["moves"]
    assert (moves["lost"], moves["made_twice"], moves["not_in_ledger"]) == (0, 0, 0), moves
    emails = summary["emails"]
    assert (emails["delivered_twice"], emails["sent_but_not_arrived"]) == (0, 0), emails
    assert summary["http"]["5xx_outside_db_outage"] == 0, summary["http"]
    assert summary["leaks"]["found"] == 0, summary["leaks"]
    assert summary["rebuild_games_check"]["exit"] == 0, summary["rebuild_games_check"]
    assert {"web", "link", "postmark", "mailgun"} <= set(summary["latency_ms"])
    faults = summary["faults"]
    assert not [f for f in faults if f["fault"] == "fault failed"], faults
    assert any(str(f["fault"]).startswith("celery worker SIGKILL") for f in faults), faults
    assert summary["ok"] is True
    assert done.returncode == 0
