"""The PostgreSQL databases the service, notify and inbound benches make, use and
drop: one each, so the sections may run at the same time."""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import psycopg

from .stats import note

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def admin_url() -> str:
    """The PostgreSQL server to use: ``DATABASE_URL`` when it names one, else the
    local default."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else DEFAULT_URL


def shown(url: str) -> str:
    """``url`` without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def reachable(url: str) -> str | None:
    """``None`` when PostgreSQL answers at ``url``, else why not."""
    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as e:  # any failure means: skip the section
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e) else ''}"
    return None


@dataclass(frozen=True)
class BenchDatabase:
    """Database ``name`` on the server at ``admin`` (a URL to a database that is
    always there, such as ``postgres``)."""

    name: str
    admin: str

    @property
    def url(self) -> str:
        return urlunsplit(urlsplit(self.admin)._replace(path=f"/{self.name}"))

    def sessions(self) -> int:
        """Sessions on the database: another run of the same section is using it."""
        with psycopg.connect(self.admin, autocommit=True, connect_timeout=3) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.name,)
            ).fetchone()
        return int(row[0]) if row else 0

    def recreate(self) -> None:
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {self.name}")

    def drop(self) -> None:
        try:
            with psycopg.connect(self.admin, autocommit=True, connect_timeout=3) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
        except Exception as e:  # best effort
            note(f"could not drop {self.name}: {e}")


def unavailable(db: BenchDatabase) -> str | None:
    """Why a section cannot use ``db`` now (``None`` when it can)."""
    why = reachable(db.admin)
    if why is not None:
        return f"PostgreSQL not reachable at {shown(db.admin)} ({why})"
    busy = db.sessions()
    if busy:
        return f"{db.name} is in use by {busy} session(s): another run of this section?"
    return None
