"""Whether this process finds the database away, and saying so once.

While PostgreSQL is down every request and every sweep fails the same way.  Pages and
webhooks answer 503 (:class:`jumbulaya_site.middleware.DatabaseOutageMiddleware`), the
sweeps return (:mod:`games.tasks`), and the log says once that the database is away and
once that it is back: one warning line each, per process, instead of a traceback per
request.  The state is this module's and each process's own (a gunicorn worker, a Celery
worker's child); nothing is shared, since the database is what would share it.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import DatabaseError, InterfaceError, OperationalError, connection

log = logging.getLogger(__name__)

#: What a database that is away (stopped, restarting, unreachable) raises.
AWAY_ERRORS = (OperationalError, InterfaceError)

_lock = threading.Lock()
#: When this process first found the database away (``time.monotonic()``), or None.
_away_since: float | None = None


def database_error(exc: BaseException | None) -> BaseException | None:
    """The database's OperationalError or InterfaceError behind ``exc`` (itself, or what
    it was raised from or during), or None: a webhook's handler wraps what it caught."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, AWAY_ERRORS):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def is_away() -> bool:
    return _away_since is not None


def found_away(where: str, exc: BaseException) -> bool:
    """Whether ``exc``, raised in ``where``, means that the database is away; notes it
    (and logs it, the first time) if so.  An OperationalError is also what a deadlock, a
    serialization failure or SQLite's "database is locked" raise: unless an outage is
    already under way, the database is asked a trivial question, and if it answers the
    error is not an outage (it is raised as before)."""
    cause = database_error(exc)
    if cause is None:
        return False
    if not is_away() and answers():
        return False
    away(where, cause)
    return True


def away(where: str, exc: BaseException) -> None:
    """Notes that ``where`` found the database away; logs it if nothing had yet."""
    global _away_since
    with _lock:
        if _away_since is not None:
            return
        _away_since = time.monotonic()
    first_line = (str(exc).strip().splitlines() or [""])[0][:200]
    log.warning(
        "The database is away (%s in %s: %s); answering 503 and skipping sweeps until it is back",
        type(exc).__name__,
        where,
        first_line,
    )


def back(where: str) -> None:
    """Notes that ``where`` reached the database; logs it if it had been away."""
    global _away_since
    with _lock:
        if _away_since is None:
            return
        seconds, _away_since = time.monotonic() - _away_since, None
    log.warning("The database is back (%s), after %.0f s away", where, seconds)


def answers() -> bool:
    """Whether the database answers a trivial query now."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


def reset() -> None:
    """Forgets an outage without a word (tests)."""
    global _away_since
    with _lock:
        _away_since = None
