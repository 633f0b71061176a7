"""How many waits one account may hold at once (``JUMBULAYA_WAITS_PER_ACCOUNT``).

A wait takes one of its account's numbered slots in the cache (``cache.add``: the
first to add a key has it) and gives it back when it ends.  With Redis every
process counts the same slots; without it (the embedded default: one web process)
each process counts its own.  A slot lives a little longer than the longest wait,
so a process killed mid-wait frees its slots by itself.  While the cache is away a
process counts the waits it holds itself.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

#: How much longer than the longest wait a slot is kept.
SLOT_MARGIN_SECONDS = 30

_lock = threading.Lock()
_held_here: Counter[int] = Counter()
#: Whether this process found the cache away (said once, until it answers again).
_cache_away = False


def per_account() -> int:
    return int(settings.JUMBULAYA_WAITS_PER_ACCOUNT)


def _slot(user_id: int, n: int) -> str:
    return f"live:wait:{user_id}:{n}"


def take(user_id: int, seconds: float) -> str | None:
    """A slot for one more wait of ``user_id``'s, or ``None`` when they hold all of
    theirs.  Give it back with :func:`give_back`."""
    global _cache_away
    timeout = int(seconds) + SLOT_MARGIN_SECONDS
    try:
        for n in range(per_account()):
            key = _slot(user_id, n)
            if cache.add(key, 1, timeout):
                _cache_away = False
                return key
        _cache_away = False
        return None
    except Exception as e:  # the cache is away: count in this process
        if not _cache_away:
            log.warning(
                "waits: the cache is away (%s); each process counts its own", type(e).__name__
            )
        _cache_away = True
        with _lock:
            if _held_here[user_id] >= per_account():
                return None
            _held_here[user_id] += 1
        return f"here:{user_id}"


def give_back(slot: str) -> None:
    if slot.startswith("here:"):
        user_id = int(slot.removeprefix("here:"))
        with _lock:
            _held_here[user_id] -= 1
            if _held_here[user_id] <= 0:
                del _held_here[user_id]
        return
    try:
        cache.delete(slot)
    except Exception as e:  # the slot frees itself when its time is up
        log.warning("waits: a slot was not given back (%s)", type(e).__name__)
