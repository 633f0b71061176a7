"""The short stack run (``python -m bench stack --ci``): the production topology with
its own PostgreSQL and Redis, games played to the end over every channel while a
worker, Redis, a web worker and PostgreSQL fail under it, and the count exact."""

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

pytestmark = [
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
        [sys.executable, "-m", "bench", "stack", "--ci", "--games", str(GAMES)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=420,
    )
    assert done.stdout, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["games"]["status"] == {"over": GAMES}, summary["games"]
    moves = summary["moves"]
    assert (moves["lost"], moves["made_twice"], moves["not_in_ledger"]) == (0, 0, 0), moves
    emails = summary["emails"]
    assert (emails["delivered_twice"], emails["sent_but_not_arrived"]) == (0, 0), emails
    assert summary["http"]["5xx_outside_db_outage"] == 0, summary["http"]
    assert summary["leaks"]["found"] == 0, summary["leaks"]
    assert summary["rebuild_games_check"]["exit"] == 0, summary["rebuild_games_check"]
    assert {"web", "link", "postmark", "mailgun"} <= set(summary["latency_ms"])
    assert len(summary["faults"]) >= 9, summary["faults"]
    assert summary["ok"] is True
    assert done.returncode == 0
