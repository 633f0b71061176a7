"""While the database is away: pages answer 503 with Retry-After and a short page, the
sweeps return, and the log says once that the database is away and once that it is back
(issue 21, point 3).

The database is made to refuse every query on this thread's connection
(``connection.execute_wrapper``), as a stopped PostgreSQL refuses a connection; one test
points a second connection at a port where nothing listens."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from accounts.models import User
from games import tasks
from games.models import Game
from jumbulaya_site import outage

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parent.parent
REFUSED = 'connection to server at "127.0.0.1", port 5432 failed: Connection refused'


@contextmanager
def database_away() -> Iterator[None]:
    def refuse(*args: Any) -> Any:
        raise OperationalError(REFUSED)

    with connection.execute_wrapper(refuse):
        yield


def logged(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Every record at WARNING or above, from any logger but kombu's (which warns, when
    a test publishes a task, that the test broker's URL names no host)."""
    return [
        r for r in caplog.records if r.levelno >= logging.WARNING and r.name != "kombu.connection"
    ]


def assert_said_once(records: list[logging.LogRecord], words: str) -> None:
    said = [r for r in records if words in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in records]
    assert said[0].levelno == logging.WARNING
    assert "\n" not in said[0].getMessage()


def test_pages_answer_503_and_the_log_says_once_away_then_once_back(
    started_game: Callable[..., Game], caplog: pytest.LogCaptureFixture
) -> None:
    game = started_game()
    client = Client()
    client.force_login(game.created_by)
    pages = ["/dashboard/", f"/games/{game.pk}/", "/games/new/"]
    caplog.set_level(logging.DEBUG)
    with database_away():
        answers = [client.get(page) for page in pages * 5]
        moved = client.post(f"/games/{game.pk}/move/", {"move": "pass"})
        health = client.get("/healthz")
    # /healthz answers for monitors, in its own JSON: the database named as failing.
    assert health.status_code == 503 and health.json()["failing"] == ["database"]
    for response in [*answers, moved]:
        assert response.status_code == 503, response
        assert response["Retry-After"] == "30"
        assert response["Cache-Control"] == "no-store"
        html = response.content.decode()
        assert "<h1>Jumbulaya is briefly unavailable</h1>" in html
        assert "The service will be back in a few minutes." in html
        assert '<html lang="en">' in html and "<title>" in html
        # No traceback, nothing of the error's text: no host, port or settings.
        assert "Traceback" not in html and "5432" not in html and "OperationalError" not in html
    records = logged(caplog)
    assert_said_once(records, "The database is away")
    assert all(r.exc_info is None for r in caplog.records), "no traceback"
    assert [r for r in records if r.levelno >= logging.ERROR] == []
    assert len(records) == 1, [r.getMessage() for r in records]
    assert outage.is_away()

    assert client.get("/dashboard/").status_code == 200
    assert client.get("/dashboard/").status_code == 200
    records = logged(caplog)
    assert_said_once(records, "The database is back")
    assert len(records) == 2
    assert not outage.is_away()


def test_a_page_that_needs_no_database_says_it_is_back(
    make_user: Callable[[str], User], caplog: pytest.LogCaptureFixture
) -> None:
    client = Client()
    client.force_login(make_user("ann"))
    with database_away():
        assert client.get("/dashboard/").status_code == 503
        # The favicon needs no database: it answers, and the database is asked whether it
        # is back (it is not).
        assert client.get("/favicon.ico").status_code == 301
    assert outage.is_away()
    assert client.get("/favicon.ico").status_code == 301
    assert not outage.is_away()
    assert_said_once(logged(caplog), "The database is back")


def test_an_error_that_is_not_an_outage_is_a_500_as_before(
    make_user: Callable[[str], User],
) -> None:
    """A deadlock or SQLite's "database is locked" raise OperationalError too, while the
    database answers: not an outage."""

    def locked(execute: Any, sql: str, *args: Any) -> Any:
        if sql == "SELECT 1":  # the question whether the database answers
            return execute(sql, *args)
        raise OperationalError("database is locked")

    client = Client(raise_request_exception=False)
    client.force_login(make_user("ann"))
    with connection.execute_wrapper(locked):
        assert client.get("/dashboard/").status_code == 500
    assert not outage.is_away()


@pytest.mark.django_db(transaction=True)  # as in a worker: no transaction around it all
def test_a_sweep_returns_while_the_database_is_away_and_logs_once(
    started_game: Callable[..., Game], caplog: pytest.LogCaptureFixture
) -> None:
    started_game()
    caplog.set_level(logging.DEBUG)
    sweeps = [
        tasks.sweep_outbox,
        tasks.sweep_deadlines,
        tasks.sweep_claim_windows,
        tasks.send_digests,
        tasks.sweep_robot_turns,
        tasks.sweep_hints,
        tasks.sweep_analyses,
    ]
    with database_away():
        for _ in range(3):
            for sweep in sweeps:
                assert sweep() == 0  # returned, not raised
        assert tasks.send_notifications([1, 2]) == 0
        assert tasks.play_robot_turn(1) is None
        assert tasks.prepare_hints(1, 0, 1) is False
    records = logged(caplog)
    assert_said_once(records, "The database is away")
    assert "task sweep_outbox" in records[0].getMessage()
    assert all(r.exc_info is None for r in caplog.records)
    assert len(records) == 1

    tasks.sweep_deadlines()
    tasks.sweep_outbox()
    records = logged(caplog)
    assert_said_once(records, "The database is back")
    assert len(records) == 2


def test_a_sweep_still_raises_what_is_not_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.core import timeouts

    def broken() -> int:
        raise ValueError("a bug")

    monkeypatch.setattr(timeouts, "sweep_deadlines", broken)
    with pytest.raises(ValueError, match="a bug"):
        tasks.sweep_deadlines()
    assert not outage.is_away()


#: Many pages and two sweeps against a PostgreSQL that is not there, in a process of its own.
AGAINST_A_STOPPED_DATABASE = """
import django, logging
from django.test.utils import setup_test_environment
django.setup()
setup_test_environment()
from django.test import Client
from games import tasks
client = Client()
sign_in = {"email": "ann@example.com"}
pages = [client.post("/account/sign-in/", sign_in).status_code for _ in range(20)]
health = [client.get("/healthz").status_code for _ in range(5)]  # its own answer
home = [client.get("/").status_code for _ in range(5)]  # needs no database
print("pages", sorted(set(pages)), len(pages), "health", sorted(set(health)))
print("home", sorted(set(home)))
print("sweeps", tasks.sweep_deadlines(), tasks.sweep_outbox())
"""


def test_a_database_on_a_closed_port_is_an_outage(tmp_path: Path) -> None:
    """The real thing: psycopg's refused connection, in pages and in sweeps."""
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "JUMBULAYA_VAR_DIR": str(tmp_path / "var"),
        "DJANGO_SECRET_KEY": "test-only-secret-key",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": f"postgres://jumbulaya@127.0.0.1:{port}/jumbulaya",
    }
    done = subprocess.run(
        [sys.executable, "-c", AGAINST_A_STOPPED_DATABASE],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "pages [503] 20 health [503]" in done.stdout and "home [200]" in done.stdout
    assert "sweeps 0 0" in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    away = "The database is away (OperationalError in POST /account/sign-in/"
    assert f"WARNING jumbulaya_site.outage: {away}" in lines[0]
    assert "Traceback" not in done.stderr
