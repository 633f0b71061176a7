"""The child process of the cold-start figure: import the engine, load the
default list from its cache, answer one ``legal_moves`` call, report on stdout.

Run as ``python -m bench.cold_child ROOT`` from the repository root; the bench
package's ``__init__`` imports nothing, so this measures the engine alone.
"""

from __future__ import annotations

import time

T0 = time.perf_counter()

import gc  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402


def peak_rss_mb() -> float | None:
    """This process image's peak resident set (``VmHWM``), in MiB.

    ``ru_maxrss`` is carried over ``execve``: a child started by a large parent
    reports the parent's peak when that is higher, so it is reported as well but
    is not the figure."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def main() -> None:
    from games.engine.jumbulaya import PRESETS, LexiconStore, deal, legal_moves, start

    imported = time.perf_counter()
    lexicon = LexiconStore(Path(sys.argv[1])).load("default")
    gc.freeze()
    loaded = time.perf_counter()
    state = start(deal(("ann", "bob"), PRESETS["official"], lexicon, random.Random(0)))
    assert state.turn is not None
    moves = legal_moves(state, state.turn, lexicon)
    ready = time.perf_counter()
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak = peak_rss_mb()
    report = {
        "import_ms": (imported - T0) * 1e3,
        "load_ms": (loaded - imported) * 1e3,
        "first_legal_moves_ms": (ready - loaded) * 1e3,
        "ready_ms": (ready - T0) * 1e3,
        "moves": len(moves),
        "rss_mb": maxrss_mb if peak is None else peak,
        "ru_maxrss_mb": maxrss_mb,
    }
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
