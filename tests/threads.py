"""Running test code in a thread of its own, as another process's request would."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def in_thread(fn: Callable[[], object]) -> None:
    """``fn`` in a thread of its own, with its own database connection, closed
    after (a move made "elsewhere" while a test waits on the event loop)."""

    def run() -> None:
        try:
            fn()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
