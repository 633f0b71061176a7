"""Each recipient gets a game's emails in the order things happened, also when
the first send of one of them fails and is tried again later."""

from __future__ import annotations

import smtplib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from games.mail_out import outbox
from games.mail_out.emails import GameEmail
from games.models import Game, Notification
from games.tasks import send_notifications

Kind = Notification.Kind


def first_mover_rows(game: Game) -> tuple[Notification, Notification]:
    """The game-started and your-turn rows owed to the player who moves first."""
    assert game.turn_seat is not None
    user = game.seats.get(index=game.turn_seat).user
    started = Notification.objects.get(game=game, user=user, kind=Kind.GAME_STARTED)
    turn = Notification.objects.get(game=game, user=user, kind=Kind.YOUR_TURN)
    assert started.pk < turn.pk
    return started, turn


def fail_sends_of_started(monkeypatch: pytest.MonkeyPatch, row: Notification, times: int) -> None:
    """The first ``times`` sends of the game-started email of ``row``'s
    recipient fail: the recipient's server says "try again later" to that
    message (greylisting: it backs off and counts its attempts; a failure of
    our own mail server would make every email wait, test_our_send_failures)."""
    assert row.user is not None and row.kind == Kind.GAME_STARTED
    address = row.user.email
    real_send = GameEmail.send
    left = [times]

    def flaky(self: GameEmail, fail_silently: bool = False) -> int:
        if left[0] and self.to == [address] and "has started" in self.subject:
            left[0] -= 1
            raise smtplib.SMTPRecipientsRefused({address: (451, b"4.7.1 Greylisted")})
        return real_send(self, fail_silently)

    monkeypatch.setattr(GameEmail, "send", flaky)


def subjects_to(mailoutbox: list[Any], address: str) -> list[str]:
    return [m.subject for m in mailoutbox if m.to == [address]]


def test_a_failed_first_send_is_not_overtaken(
    started_game: Callable[..., Game], mailoutbox: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = started_game()
    started, turn = first_mover_rows(game)
    assert started.user is not None
    address = started.user.email
    fail_sends_of_started(monkeypatch, started, times=1)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        outbox.sweep()
        assert len(mailoutbox) == 1  # the other player's game-started email only
        assert subjects_to(mailoutbox, address) == []
        turn.refresh_from_db()
        assert turn.sent_at is None and turn.attempts == 0  # held back, not tried
        assert send_notifications([turn.pk]) == 0  # a nudge for it alone waits too
        clock.shift(timedelta(minutes=1))
        assert outbox.sweep() == 2
    got = subjects_to(mailoutbox, address)
    assert len(got) == 2
    assert "has started" in got[0] and ": your turn — " in got[1]


def test_the_row_that_went_sends_what_it_held_back(
    started_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = started_game()
    started, turn = first_mover_rows(game)
    assert send_notifications([turn.pk]) == 0  # the older row goes first
    assert send_notifications([started.pk]) == 2  # then both, in order
    assert started.user is not None
    got = subjects_to(mailoutbox, started.user.email)
    assert "has started" in got[0] and ": your turn — " in got[1]


def test_a_row_that_keeps_failing_stops_holding_the_others_back(
    started_game: Callable[..., Game], mailoutbox: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = started_game()
    started, turn = first_mover_rows(game)
    fail_sends_of_started(monkeypatch, started, times=outbox.MAX_ATTEMPTS)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(outbox.HOLD_ATTEMPTS):
            turn.refresh_from_db()
            assert turn.sent_at is None
            outbox.sweep()
            started.refresh_from_db()
            assert started.retry_at is not None
            clock.move_to(started.retry_at)
        outbox.sweep()  # the row has failed HOLD_ATTEMPTS times: the next one goes
        turn.refresh_from_db()
        assert turn.sent_at is not None
    started.refresh_from_db()
    assert started.sent_at is None and started.attempts == outbox.HOLD_ATTEMPTS + 1
