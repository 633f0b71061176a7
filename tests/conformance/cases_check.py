"""What every engine's conformance runner checks of a case.

A case is ``{"name", "about", "record", "expect"}``; ``expect`` holds ``exit``
(the replay's exit code) and any subset of the replay's output.  An expected
``error`` is compared on the keys it names (``turn`` and ``code``: messages are
for people); the keys in ``multisets`` (racks whose order the rules leave open)
are compared as multisets.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, Protocol


class Replayed(Protocol):
    @property
    def exit_code(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


def check_case(
    path: Path, replay: Callable[[str], Replayed], multisets: Collection[str] = ()
) -> None:
    """Replay the case at ``path`` with ``replay`` (the record as JSON text) and
    assert each of its expectations."""
    case = json.loads(path.read_text())
    expect = case["expect"]
    result = replay(json.dumps(case["record"]))
    out = result.to_json()
    assert result.exit_code == expect["exit"], out["error"]
    for key, want in expect.items():
        if key == "exit":
            continue
        got = out[key]
        if key in multisets and want is not None:
            got = [sorted(r) for r in got]
            want = [sorted(r) for r in want]
        if key == "error" and want is not None:
            assert got is not None, "expected a refusal"
            got = {k: got[k] for k in want}
        assert got == want, f"{key}: {case['about']}"
