"""The daily digest: once a local day, at the user's hour, only when a game awaits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from accounts.models import User
from games.mail_out import digests, tracking
from games.models import Game, MailStatus, Seat


def digest_user(game: Game, hour: int = 8, zone: str = "Europe/Paris") -> User:
    assert game.turn_seat is not None
    user = game.seats.get(index=game.turn_seat).user
    assert user is not None
    User.objects.filter(pk=user.pk).update(email_mode="digest", digest_hour=hour, time_zone=zone)
    user.refresh_from_db()
    return user


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 1, day, hour, minute, tzinfo=UTC)  # Paris is UTC+1 in January


def test_the_digest_goes_once_a_day_at_the_local_hour(
    started_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = started_game()
    user = digest_user(game)
    assert digests.send_due(at(5, 6, 55)) == 0  # 07:55 in Paris
    assert digests.send_due(at(5, 7, 0)) == 1  # 08:00 in Paris
    for minute in (5, 10, 15):
        assert digests.send_due(at(5, 7, minute)) == 0
    assert digests.send_due(at(5, 22, 50)) == 0
    assert digests.send_due(at(6, 7, 5)) == 1  # the next day
    assert len(mailoutbox) == 2
    mail = mailoutbox[0]
    assert mail.to == [user.email]
    assert mail.subject == "Jumbulaya by mail: 1 game awaiting your move"
    assert f"Game {game.pk} (JUMBULAYA) against" in mail.body and "/t/" in mail.body
    assert "(Europe/Paris)" in mail.body
    assert mail.extra_headers["Auto-Submitted"] == "auto-generated"
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    user.refresh_from_db()
    assert user.digest_sent_at == at(6, 7, 5)


def test_changing_the_hour_does_not_bring_a_second_digest(
    started_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = started_game()
    user = digest_user(game, hour=8)
    assert digests.send_due(at(5, 7, 0)) == 1
    User.objects.filter(pk=user.pk).update(digest_hour=20)
    assert digests.send_due(at(5, 19, 30)) == 0
    assert len(mailoutbox) == 1


def test_no_digest_when_nothing_awaits(
    started_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = started_game()
    user = digest_user(game)
    Seat.objects.filter(game=game, user=user).update(muted=True)  # muted games are left out
    assert digests.send_due(at(5, 7, 30)) == 0
    assert mailoutbox == []


def test_no_digest_to_an_address_whose_mail_stopped(
    started_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    """A hard bounce stops all game mail to the address, the digest too, until
    it is confirmed again."""
    game = started_game()
    user = digest_user(game)
    MailStatus.objects.create(address=user.email.lower(), stopped_at=at(4, 9), reason="bounced")
    assert digests.send_due(at(5, 7, 30)) == 0
    assert mailoutbox == []
    tracking.restore(user.email)
    assert digests.send_due(at(6, 7, 30)) == 1


def test_only_digest_users_get_one(
    started_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    started_game()
    assert digests.send_due(at(5, 12)) == 0
    assert mailoutbox == []


def test_a_failed_digest_is_tried_again(
    started_game: Callable[..., Game], mailoutbox: list[Any], monkeypatch: Any
) -> None:
    game = started_game()
    user = digest_user(game)

    def fail(*args: Any, **kwargs: Any) -> None:
        raise OSError("mail server down")

    with monkeypatch.context() as m:
        m.setattr("games.mail_out.emails.GameEmail.send", fail)
        assert digests.send_due(at(5, 7, 0)) == 0
    user.refresh_from_db()
    assert user.digest_sent_at is None
    assert digests.send_due(at(5, 7, 5)) == 1
