"""The outbox when things fail: a broker that is down, a worker that dies
holding a row it took, two sweeps at once, and an email that fails to send."""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.core import door, lobby, projection
from games.engine.jumbulaya import PRESETS, legal_moves
from games.mail_out import outbox
from games.mail_out.emails import GameEmail
from games.models import Event, Game, Notification
from games.tasks import sweep_outbox

#: Nothing listens on port 1: connections are refused at once.
DOWN_BROKER = "redis://127.0.0.1:1/0"
#: Short timeouts and no connection retry, for a broker that is down.
SHORT_OPTIONS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5, "max_retries": 0}
#: What the settings configure for a Redis broker.
SETTINGS_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5, "max_retries": 0}


def new_game(make_user: Callable[[str], User], name: str) -> Game:
    """A started two-player game between ``name``-a and ``name``-b."""
    a, b = make_user(f"{name}a"), make_user(f"{name}b")
    game = lobby.create_game(a, seat_count=2, rules=PRESETS["official"], invite_emails=[b.email])
    lobby.join_game(game.pk, b)
    game.refresh_from_db()
    return game


def a_move(game: Game) -> str:
    state = projection.current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, projection.game_lexicon(game))
    return moves[0].notation() if moves else "pass"


def move(game: Game) -> float:
    """Make a legal move for the player whose turn it is; the seconds it took."""
    seat = game.turn_seat
    assert seat is not None
    notation = a_move(game)
    t0 = time.perf_counter()
    door.submit(game.pk, seat, notation, game.last_seq, Event.Source.WEB)
    took = time.perf_counter() - t0
    game.refresh_from_db()
    return took


def owed() -> list[Notification]:
    return list(Notification.objects.filter(sent_at__isnull=True).order_by("pk"))


def send_what_is_owed() -> None:
    """Send the rows owed so far (a game's start) and forget their emails."""
    outbox.sweep()
    assert not owed()
    mail.outbox.clear()


# --- the broker is down --------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_moves_made_while_the_broker_is_down_are_emailed_once_it_is_back(
    make_user: Callable[[str], User], kit: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [new_game(make_user, f"g{i}") for i in range(5)]
    send_what_is_owed()

    with kit.use_broker(
        DOWN_BROKER, broker_transport_options=SHORT_OPTIONS, broker_connection_timeout=0.5
    ):
        short = [move(game) for game in games[:4]]  # none raises: each returns
    with kit.use_broker(
        DOWN_BROKER, broker_transport_options=SETTINGS_OPTIONS, broker_connection_timeout=2
    ):
        as_configured = move(games[4])
    with capsys.disabled():
        print(
            "\n[broker down] move took "
            + ", ".join(f"{s * 1000:.0f} ms" for s in short)
            + f" with short timeouts and no retry; {as_configured * 1000:.0f} ms with the "
            "settings' Redis options"
        )

    waiting = owed()
    assert mail.outbox == []
    assert [(n.kind, n.game_id) for n in waiting] == [
        (Notification.Kind.YOUR_TURN, g.pk) for g in games
    ]
    assert all(n.taken_at is None and n.attempts == 0 for n in waiting)

    # The broker is back: beat's sweep, through a real worker, sends them all.
    with kit.use_broker("memory://", broker_transport_options={"polling_interval": 0.05}):
        with kit.running_worker():
            sweep_outbox.delay()
            kit.wait_for(lambda: not owed(), "the worker's sweep to send the waiting emails")
        assert outbox.sweep() == 0
        assert outbox.sweep() == 0
    counts = kit.sent_per_row()
    assert {n.pk: counts[n.pk] for n in waiting} == {n.pk: 1 for n in waiting}
    for game in games:
        assert game.turn_seat is not None
        to = game.seats.get(index=game.turn_seat).user
        assert to is not None and kit.mail_to(to.email, f"Game {game.pk}: your turn")
    kit.assert_each_row_sent_once()


# --- a worker dies holding a row it took -------------------------------------


@pytest.mark.django_db
def test_a_row_left_by_a_dead_worker_is_taken_over_after_the_timeout(
    started_game: Callable[..., Game], kit: Any
) -> None:
    game = started_game()
    send_what_is_owed()
    move(game)
    (row,) = owed()
    assert outbox.take(row.pk)  # the worker took the row, then died before sending

    assert outbox.sweep() == 0  # taken: not sent
    assert mail.outbox == []
    now = timezone.now()
    with time_machine.travel(now + outbox.TAKE_LEASE - timedelta(seconds=5), tick=False):
        assert outbox.sweep() == 0  # still protected
    with time_machine.travel(now + outbox.TAKE_LEASE + timedelta(seconds=5), tick=False):
        assert outbox.sweep() == 1
        assert outbox.sweep() == 0
    assert outbox.sweep() == 0
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2
    assert kit.sent_per_row() == {row.pk: 1}


# --- two sweeps at once ----------------------------------------------------------


def _race(*jobs: Callable[[], int]) -> list[int | BaseException]:
    barrier = threading.Barrier(len(jobs))
    results: list[int | BaseException] = [0] * len(jobs)

    def run(i: int, job: Callable[[], int]) -> None:
        try:
            barrier.wait()
            results[i] = job()
        except BaseException as e:  # the outcome is what the test looks at
            results[i] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_sweeps_at_once_send_each_email_once(
    make_user: Callable[[str], User], kit: Any, attempt: int
) -> None:
    games = [new_game(make_user, f"r{i}") for i in range(4)]
    for game in games:
        move(game)
    rows = owed()
    assert len(rows) >= 4 * 5  # per game: an invitation, two "started", two turns
    results = _race(outbox.sweep, outbox.sweep)
    assert all(isinstance(r, int) for r in results), results
    assert sum(r for r in results if isinstance(r, int)) == len(rows)
    assert not owed()
    kit.assert_each_row_sent_once()
    assert outbox.sweep() == 0


# --- sending fails ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_failed_send_leaves_the_row_for_the_next_sweep(
    started_game: Callable[..., Game], kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = started_game()
    send_what_is_owed()
    move(game)
    (row,) = owed()

    real_send = GameEmail.send
    failures = [smtplib.SMTPServerDisconnected("the mail server went away")]

    def flaky_send(self: GameEmail, fail_silently: bool = False) -> int:
        if failures:
            raise failures.pop()
        return real_send(self, fail_silently)

    monkeypatch.setattr(GameEmail, "send", flaky_send)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert outbox.send(row.pk) is False
        row.refresh_from_db()
        # The server's fault, not the row's: the attempt is not counted, and the row
        # waits for the server's next try.
        assert row.sent_at is None and row.taken_at is None and row.attempts == 0
        assert row.last_error == "SMTPServerDisconnected: the mail server went away"
        assert row.retry_at == timezone.now() + timedelta(minutes=1)
        assert mail.outbox == []
        assert outbox.sweep() == 0  # not before its retry time
        clock.shift(timedelta(minutes=1))
        assert outbox.sweep() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.last_error == "" and row.attempts == 1
    assert outbox.sweep() == 0
    assert kit.sent_per_row() == {row.pk: 1}


@pytest.mark.slow
@pytest.mark.django_db
def test_a_message_that_always_fails_is_tried_less_often_then_given_up(
    started_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retries a minute, two, four... then every six hours, for about a week;
    meanwhile the other rows go out as usual."""
    game = started_game()
    send_what_is_owed()
    move(game)
    (doomed,) = owed()
    real_send = GameEmail.send

    def refuse_one(self: GameEmail, fail_silently: bool = False) -> int:
        if self.to == [doomed.user.email] and "your turn" in self.subject:
            # Temporary (4xx): tried again; a permanent 5xx would stop the address at once.
            raise smtplib.SMTPRecipientsRefused({self.to[0]: (451, b"mailbox busy, try later")})
        return real_send(self, fail_silently)

    monkeypatch.setattr(GameEmail, "send", refuse_one)
    delays = []
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(outbox.MAX_ATTEMPTS):
            assert outbox.sweep() == 0
            doomed.refresh_from_db()
            assert doomed.retry_at is not None
            delays.append(doomed.retry_at - timezone.now())
            clock.move_to(doomed.retry_at)
        move(game)  # the other player's turn email still goes
        assert [n.pk for n in owed()] == [doomed.pk, doomed.pk + 1]
        assert outbox.sweep() == 1
        clock.shift(timedelta(days=30))
        assert outbox.sweep() == 0  # given up: not tried again
    doomed.refresh_from_db()
    assert doomed.attempts == outbox.MAX_ATTEMPTS and doomed.sent_at is None
    assert "mailbox busy" in doomed.last_error
    minute = timedelta(minutes=1)
    assert delays[:4] == [minute, 2 * minute, 4 * minute, 8 * minute]
    assert max(delays) == outbox.MAX_RETRY_DELAY
    assert timedelta(days=6) < sum(delays, timedelta(0)) < timedelta(days=10)


@pytest.mark.django_db
def test_a_backlog_is_shared_out_to_every_worker(
    make_user: Callable[[str], User], kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an outage the sweep sends one batch itself and rings the rest as send
    tasks, so every worker process takes a share (issue 21: no owed email may
    wait two minutes after the broker comes back with a backlog)."""
    games = [new_game(make_user, f"b{i}") for i in range(2)]
    for game in games:
        move(game)
    due = list(Notification.objects.filter(outbox._takeable()).order_by("pk"))
    assert len(due) > 3 and len(owed()) > len(due)  # some wait behind an older row
    rung: list[list[int]] = []
    monkeypatch.setattr(outbox, "NUDGE_BATCH", 3)
    monkeypatch.setattr(outbox, "_ring", rung.append)
    assert outbox.sweep() >= 3  # the first batch here (and the rows they held back)
    assert [pk for batch in rung for pk in batch] == [row.pk for row in due[3:]]
    assert all(0 < len(batch) <= 3 for batch in rung)
    for batch in rung:  # what the workers' send tasks do with them
        outbox.send_in_order(batch)
    assert not owed()
    kit.assert_each_row_sent_once()
