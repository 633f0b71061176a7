"""Timing helpers: best-of-N per item, then median and p95 across items."""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any


def note(message: str) -> None:
    """A progress note, on stderr."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def best_ns(fn: Callable[[], object], repeat: int = 3, number: int = 1) -> float:
    """The fastest of ``repeat`` timings of ``number`` calls, per call, in ns."""
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for _ in range(number):
            fn()
        best = min(best, time.perf_counter_ns() - t0)
    return best / number


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summary(values_ns: Sequence[float], unit: str) -> dict[str, Any]:
    """Median, p95, min, max and count of timings in ns, converted to ``unit``
    (``"us"`` or ``"ms"``)."""
    scale = {"us": 1e3, "ms": 1e6}[unit]
    if not values_ns:
        return {"count": 0, "median": None, "p95": None, "min": None, "max": None}
    return {
        "count": len(values_ns),
        "median": round(statistics.median(values_ns) / scale, 3),
        "p95": round(percentile(values_ns, 95) / scale, 3),
        "min": round(min(values_ns) / scale, 3),
        "max": round(max(values_ns) / scale, 3),
    }
