"""A real Celery worker for the outbox tests: a thread consuming real messages
from the broker the app points at (``memory://`` unless a test switches it),
never eager mode.  Tests that start one need ``django_db(transaction=True)``:
the worker thread reads and writes the database on its own connection."""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from celery.worker import WorkController
from celery.worker import state as worker_state
from django.core import mail
from django.core.mail import EmailMessage

from games.models import Notification
from games.tasks import send_notifications
from jumbulaya_site.celery import app as celery_app

#: How long a test waits for the worker to send an email.
WAIT_SECONDS = 10.0
#: The in-memory transport polls its queues once a second by default.
MEMORY_OPTIONS = {"polling_interval": 0.05}
_TURN_LINK = re.compile(r"https?://[^\s\"'<>]+?(/t/[^/\s\"'<>]+/)")
_MESSAGE_ROW = re.compile(r"^<game-\d+\.\d+\.[a-z_]+\.(\d+)[.@]")
#: A game thread's root: the game-started email to one player (no row in it).
_THREAD_ROOT = re.compile(r"^<game-(\d+)\.g\d+u(\d+)k[a-z2-7]+@")


def reset_pools(app: Celery) -> None:
    """Forget the app's broker connection pools so the next publish connects to
    the broker ``app.conf`` names now (Celery caches them at first use and, like
    after a fork, rebuilds them when they are gone).  They are not closed: kombu
    keeps one pool per broker for the whole process and hands it out again."""
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def use_broker(app: Celery, url: str, **conf: Any) -> Iterator[Celery]:
    """Point ``app`` at the broker ``url`` (and any other ``conf`` settings)
    for the block; restore what was there afterwards."""
    names = ["broker_url", *conf]
    saved = {name: app.conf[name] for name in names}
    app.conf.broker_url = url
    for name, value in conf.items():
        app.conf[name] = value
    reset_pools(app)
    try:
        yield app
    finally:
        for name, value in saved.items():
            app.conf[name] = value
        reset_pools(app)


def purge(app: Celery) -> int:
    """Drop the messages waiting in the app's default queue (left by earlier
    tests' nudges, which no worker consumed)."""
    with app.connection_for_write() as conn:
        return int(conn.default_channel.queue_purge(app.conf.task_default_queue) or 0)


@contextmanager
def running_worker(app: Celery) -> Iterator[WorkController]:
    """A solo worker thread on ``app``'s current broker and default queue."""
    app.conf.worker_hijack_root_logger = False  # leave pytest's log capture alone
    purge(app)
    with start_worker(
        app,
        pool="solo",
        perform_ping_check=False,
        queues=[app.conf.task_default_queue],
        shutdown_timeout=15.0,
    ) as worker:
        try:
            yield worker
        finally:
            # Ask the worker to stop, then ring twice: its loop looks at the stop
            # flag between waits of up to 2 s for a message, and waits once more
            # after it has seen it.  (Sending nothing is harmless.)
            worker_state.should_terminate = 0
            with contextlib.suppress(Exception):
                send_notifications.delay([])
                send_notifications.delay([])


def wait_for[T](probe: Callable[[], T], what: str, timeout: float = WAIT_SECONDS) -> T:
    """Poll ``probe`` until it returns something truthy; fail after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.05)


def mail_to(address: str, subject_part: str) -> list[EmailMessage]:
    return [m for m in mail.outbox if address in m.to and subject_part in m.subject]


def row_of(message: EmailMessage) -> int:
    """The notification a sent email stands for (its Message-ID names the row,
    but for a thread's root: the game-started row of that game and player)."""
    message_id = message.extra_headers["Message-ID"]
    root = _THREAD_ROOT.search(message_id)
    if root is not None:
        return Notification.objects.get(
            game_id=int(root.group(1)),
            user_id=int(root.group(2)),
            kind=Notification.Kind.GAME_STARTED,
        ).pk
    found = _MESSAGE_ROW.search(message_id)
    assert found is not None, message_id
    return int(found.group(1))


def sent_per_row() -> Counter[int]:
    return Counter(row_of(m) for m in mail.outbox)


def turn_link_path(message: EmailMessage) -> str:
    """The path of the turn link in an email's text."""
    found = _TURN_LINK.search(str(message.body))
    assert found is not None, f"no turn link in {message.subject!r}"
    return found.group(1)


def assert_each_row_sent_once() -> None:
    """Every notification is marked sent after being taken once, and no email went twice."""
    rows = list(Notification.objects.values("pk", "kind", "sent_at", "attempts", "last_error"))
    assert rows, "no notification rows"
    unsent = [r for r in rows if r["sent_at"] is None]
    assert not unsent, unsent
    assert all(r["attempts"] == 1 and r["last_error"] == "" for r in rows), rows
    twice = {pk: n for pk, n in sent_per_row().items() if n != 1}
    assert not twice, f"emails sent more than once: {twice}"


def unique_queue() -> str:
    return f"jumbulaya-test-{uuid.uuid4().hex[:12]}"


class WorkerKit:
    """The helpers the worker tests share (a fixture: test modules cannot import
    a conftest that is not in a package)."""

    WAIT_SECONDS = WAIT_SECONDS

    def __init__(self, app: Celery) -> None:
        self.app = app

    def use_broker(self, url: str, **conf: Any) -> AbstractContextManager[Celery]:
        return use_broker(self.app, url, **conf)

    def running_worker(self) -> AbstractContextManager[WorkController]:
        return running_worker(self.app)

    wait_for = staticmethod(wait_for)
    mail_to = staticmethod(mail_to)
    row_of = staticmethod(row_of)
    sent_per_row = staticmethod(sent_per_row)
    turn_link_path = staticmethod(turn_link_path)
    assert_each_row_sent_once = staticmethod(assert_each_row_sent_once)
    unique_queue = staticmethod(unique_queue)


@pytest.fixture
def jumbulaya_app() -> Iterator[Celery]:
    """The project's Celery app on the in-memory broker (as the session sets it),
    with fresh connection pools before and after."""
    assert celery_app.conf.broker_url == "memory://", celery_app.conf.broker_url
    reset_pools(celery_app)
    yield celery_app
    reset_pools(celery_app)


@pytest.fixture
def kit(jumbulaya_app: Celery) -> WorkerKit:
    return WorkerKit(jumbulaya_app)


@pytest.fixture
def live_worker(jumbulaya_app: Celery) -> Iterator[WorkController]:
    """A real worker thread on the in-memory broker for the whole test."""
    with (
        use_broker(jumbulaya_app, "memory://", broker_transport_options=MEMORY_OPTIONS),
        running_worker(jumbulaya_app) as worker,
    ):
        yield worker
