"""The outbox when the database goes away around a send (issue 21): the fact
that a message went is recorded once the database answers, so it is not sent
twice; a failed send's release is retried; a send that failed on the database
is due again at the next sweep; a live slow send keeps its lease (the
heartbeat) and a dead sender's row is free once its lease runs out."""

from __future__ import annotations

import logging
import smtplib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.db import OperationalError, connection
from django.utils import timezone

from games.core import door
from games.mail_out import outbox
from games.mail_out.emails import GameEmail, message_for
from games.models import Event, Game, Notification


def one_owed(game: Game) -> Notification:
    """Send what the game's start owes, then make a move: the one row it owes."""
    outbox.sweep()
    mail.outbox.clear()
    seat = game.turn_seat
    assert seat is not None
    door.submit(game.pk, seat, "pass", game.last_seq, Event.Source.WEB)
    (row,) = Notification.objects.filter(sent_at__isnull=True)
    return row


def failing[**P, R](times: int, real: Callable[P, R]) -> Callable[P, R]:
    """``real``, but raising OperationalError (the database is away) the first
    ``times`` calls."""
    left = [times]

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        if left[0] > 0:
            left[0] -= 1
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    return call


def message_ids() -> list[str]:
    return [str(m.extra_headers["Message-ID"]) for m in mail.outbox]


@pytest.mark.django_db
def test_a_send_whose_mark_fails_is_recorded_once_the_database_answers(
    started_game: Callable[..., Game],
    kit: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    row = one_owed(started_game())
    monkeypatch.setattr(outbox, "_mark_sent", failing(4, outbox._mark_sent))
    with caplog.at_level(logging.WARNING, logger=outbox.__name__):
        assert outbox.send(row.pk) is True
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1 and row.last_error == ""
    waits = [r for r in caplog.records if "the database is away" in r.getMessage()]
    assert len(waits) == 1, caplog.text  # said once, not once per try
    assert any("the database is back" in r.getMessage() for r in caplog.records)
    # Nothing takes the row again, however long after.
    with time_machine.travel(timezone.now() + outbox.TAKE_LEASE * 10):
        assert outbox.sweep() == 0
    assert kit.sent_per_row() == {row.pk: 1}


@pytest.mark.django_db
def test_a_send_never_recorded_goes_again_with_the_same_message_id(
    started_game: Callable[..., Game], kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database away for longer than the sender waits: the row is sent again
    once its lease has run out, and the copy has the first send's Message-ID."""
    row = one_owed(started_game())
    monkeypatch.setattr(outbox, "RECORD_PATIENCE", timedelta(seconds=0.3))
    monkeypatch.setattr(outbox, "_mark_sent", failing(10**6, outbox._mark_sent))
    assert outbox.send(row.pk) is True  # it went; the row does not know
    row.refresh_from_db()
    assert row.sent_at is None and row.taken_at is not None
    assert outbox.sweep() == 0  # the lease still holds it
    monkeypatch.undo()
    with time_machine.travel(timezone.now() + outbox.TAKE_LEASE + timedelta(seconds=1)):
        assert outbox.sweep() == 1
    first, again = message_ids()
    assert first == again
    assert kit.sent_per_row() == {row.pk: 2}


@pytest.mark.django_db
def test_a_failed_sends_release_is_retried_until_the_database_answers(
    started_game: Callable[..., Game], kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = one_owed(started_game())

    def refused(self: GameEmail, fail_silently: bool = False) -> int:
        raise smtplib.SMTPDataError(554, b"5.7.1 Message content rejected")

    monkeypatch.setattr(GameEmail, "send", refused)
    monkeypatch.setattr(outbox, "_release", failing(3, outbox._release))
    with time_machine.travel(timezone.now(), tick=False):
        assert outbox.send(row.pk) is False
        row.refresh_from_db()
        assert row.taken_at is None and row.sent_at is None and row.attempts == 1
        assert row.retry_at == timezone.now() + timedelta(minutes=1)  # the usual back-off
        assert row.last_error == "SMTPDataError: (554, b'5.7.1 Message content rejected')"
    monkeypatch.undo()
    with time_machine.travel(timezone.now() + timedelta(minutes=1, seconds=1)):
        assert outbox.sweep() == 1
    assert kit.sent_per_row() == {row.pk: 1}


@pytest.mark.django_db
def test_a_send_that_failed_on_the_database_is_due_at_the_next_sweep(
    started_game: Callable[..., Game],
    kit: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Due again at once, and said in one line: an outage is no fault of the
    email's, and a traceback per send would bury the log (issue 21's point 3)."""
    row = one_owed(started_game())
    monkeypatch.setattr(outbox, "message_for", failing(1, message_for))
    with caplog.at_level(logging.WARNING, logger=outbox.__name__):
        assert outbox.send(row.pk) is False
    said = [r for r in caplog.records if r.name == outbox.__name__]
    assert [r.levelno for r in said] == [logging.WARNING] and said[0].exc_info is None
    assert "the database failed (OperationalError" in said[0].getMessage()
    row.refresh_from_db()
    assert row.taken_at is None and row.sent_at is None and row.attempts == 1
    assert row.retry_at is not None and row.retry_at <= timezone.now()  # no back-off
    assert row.last_error.startswith("OperationalError")
    assert outbox.sweep() == 1
    assert kit.sent_per_row() == {row.pk: 1}


@contextmanager
def short_lease(monkeypatch: pytest.MonkeyPatch, seconds: float) -> Iterator[None]:
    """A lease of ``seconds`` and a heartbeat a third of it, for the block."""
    with monkeypatch.context() as m:
        m.setattr(outbox, "TAKE_LEASE", timedelta(seconds=seconds))
        m.setattr(outbox, "HEARTBEAT", timedelta(seconds=seconds / 3))
        yield


@pytest.mark.django_db(transaction=True)
def test_a_live_slow_send_is_not_taken_over(
    started_game: Callable[..., Game], kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A send that lasts four leases keeps its lease (the heartbeat renews it):
    sweeps meanwhile send nothing, and the email goes once."""
    row = one_owed(started_game())
    real_send = GameEmail.send
    started = threading.Event()

    def slow(self: GameEmail, fail_silently: bool = False) -> int:
        started.set()
        time.sleep(4.0)
        return real_send(self, fail_silently)

    monkeypatch.setattr(GameEmail, "send", slow)
    results: list[bool] = []

    def sender() -> None:
        try:
            results.append(outbox.send(row.pk))
        finally:
            connection.close()

    with short_lease(monkeypatch, 1.0):
        thread = threading.Thread(target=sender)
        thread.start()
        assert started.wait(10)
        sweeps = []
        while thread.is_alive():
            sweeps.append(outbox.sweep())
            time.sleep(0.1)
        thread.join()
    assert results == [True]
    assert len(sweeps) > 20 and sum(sweeps) == 0
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1
    assert kit.sent_per_row() == {row.pk: 1}


@pytest.mark.django_db(transaction=True)
def test_a_row_whose_sender_died_is_swept_once_the_lease_runs_out(
    started_game: Callable[..., Game], kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row taken by a sender no heartbeat renews (it was killed) is free after the
    lease, in real time, not after minutes."""
    row = one_owed(started_game())
    with short_lease(monkeypatch, 1.0):
        assert outbox.take(row.pk)  # and then the sender died
        taken = time.monotonic()
        while outbox.sweep() == 0:
            assert time.monotonic() - taken < 5, "the lease never ran out"
            time.sleep(0.05)
        took = time.monotonic() - taken
    assert 1.0 <= took < 1.5
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2
    assert kit.sent_per_row() == {row.pk: 1}


def test_beat_sweeps_the_outbox_often_enough_for_two_minutes() -> None:
    """A row left by a dead sender is free after the lease and beat's next
    sweep sends it: both together stay well under two minutes."""
    every = float(settings.CELERY_BEAT_SCHEDULE["send-the-outbox"]["schedule"])  # type: ignore[arg-type]
    assert outbox.TAKE_LEASE + timedelta(seconds=every) <= timedelta(seconds=90)
    assert outbox.HEARTBEAT * 3 <= outbox.TAKE_LEASE


@contextmanager
def database_away_for(seconds: float) -> Iterator[Callable[[], None]]:
    """A PostgreSQL test database that a call cuts off: every connection to it
    is ended and none is let in for ``seconds`` (the server itself, which
    other databases share, stays up)."""
    import psycopg

    db = settings.DATABASES["default"]
    admin = psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
        password=db.get("PASSWORD") or None, dbname="postgres", autocommit=True,
    )  # fmt: skip
    name = db["NAME"]
    back = threading.Event()
    back.set()  # until a cut

    def let_in() -> None:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        back.set()

    def cut() -> None:
        back.clear()
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )
        threading.Timer(seconds, let_in).start()

    try:
        yield cut
    finally:
        back.wait(seconds + 10)  # the timer lets them in before this goes on
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        admin.close()


@pytest.mark.django_db(transaction=True)
def test_the_database_cut_between_the_send_and_the_mark_costs_no_second_email(
    started_game: Callable[..., Game],
    kit: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The real thing on PostgreSQL: right after the mail server took the
    message, the database ends the sender's connection and lets no one in for
    3 seconds.  The sender records the send when it is back: one email."""
    if connection.vendor != "postgresql":
        pytest.skip("cuts a PostgreSQL database off (DATABASE_URL=postgres://...)")
    row = one_owed(started_game())
    real_send = GameEmail.send
    with database_away_for(3.0) as cut:

        def send_then_cut(self: GameEmail, fail_silently: bool = False) -> int:
            sent = real_send(self, fail_silently)
            cut()
            return sent

        monkeypatch.setattr(GameEmail, "send", send_then_cut)
        with caplog.at_level(logging.WARNING, logger=outbox.__name__):
            t0 = time.monotonic()
            assert outbox.send(row.pk) is True
            took = time.monotonic() - t0
    monkeypatch.undo()
    assert took >= 2.5  # it waited for the database rather than giving up
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1
    assert "the database is away" in caplog.text
    with time_machine.travel(timezone.now() + outbox.TAKE_LEASE * 10):
        assert outbox.sweep() == 0
    assert kit.sent_per_row() == {row.pk: 1}
