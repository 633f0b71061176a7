"""Cold start: a fresh interpreter that imports the engine, loads the default
list from its cache and answers one ``legal_moves`` call."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def cold_start(repo: Path, wordlists: Path, runs: int) -> dict[str, Any]:
    """Median over ``runs`` fresh processes of the parent's wall time around the
    whole run (interpreter start to exit), and of the child's own figures."""
    wall: list[float] = []
    children: list[dict[str, float]] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "bench.cold_child", str(wordlists)],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        )
        wall.append((time.perf_counter() - t0) * 1e3)
        children.append(json.loads(done.stdout))
    return {
        "runs": runs,
        "wall_ms": _median(wall),
        "wall_ms_max": round(max(wall), 1),
        "child_import_ms": _median([c["import_ms"] for c in children]),
        "child_load_ms": _median([c["load_ms"] for c in children]),
        "child_import_load_ms": _median([c["import_ms"] + c["load_ms"] for c in children]),
        "child_first_legal_moves_ms": _median([c["first_legal_moves_ms"] for c in children]),
        "child_ready_ms": _median([c["ready_ms"] for c in children]),
        "rss_mb": _median([c["rss_mb"] for c in children]),
        "rss_source": "VmHWM" if Path("/proc/self/status").exists() else "ru_maxrss",
        "ru_maxrss_mb": _median([c["ru_maxrss_mb"] for c in children]),
    }
