"""The one chromium of a test process.

Playwright's sync API cannot start twice in a thread, and test modules outside
``tests/e2e`` import the ``browser`` fixture from its conftest (which pytest then
loads a second time, under another module name): so the running browser is kept
here, in a module both copies import alike, and the first fixture to start it
owns it while the others share it.
"""

from __future__ import annotations

from typing import Any

RUNNING: list[Any] = []
