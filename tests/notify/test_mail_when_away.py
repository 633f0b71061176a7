"""Mail only when away: a player playing on the page against a robot is told of
each reply by the page, not by email; the "your turn" emails wait while they are
here, and when they leave with it their turn, one email goes, the newest."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client

from accounts.models import User
from games.core import door, lobby
from games.live import presence
from games.mail_out import outbox
from games.models import Event, Game, Notification, RobotTurn
from games.robots import turns

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
MOVES = 10


def robot_game(ann: User, kind: str = "jumbulaya") -> Game:
    """A game against a robot, as the one-click button starts it (the crossword's
    games are long enough for ten moves whatever the robot plays)."""
    game = lobby.play_against_robot(ann, "casual", kind=kind)
    game.refresh_from_db()
    if game.turn_seat != 0:  # the robot opens: let it
        robots_reply(game)
    return game


def robots_reply(game: Game) -> None:
    """The robot turns owed, played now (as the worker would, at once)."""
    for row in RobotTurn.objects.filter(game=game, done_at__isnull=True):
        turns.play(row.pk)
    game.refresh_from_db()


def turn_emails(ann: User) -> list[str]:
    return [m.subject for m in mail.outbox if ann.email in m.to and "your turn" in m.subject]


def pass_on_the_page(client: Client, game: Game, n: int) -> None:
    answer = client.post(
        f"/games/{game.pk}/move/",
        {
            "notation": "pass",
            "confirmed": "yes",
            "expected_seq": str(game.last_seq),
            "idempotency_key": f"page-pass-number-{n:04d}",
        },
    )
    assert answer.status_code == 302, answer.content[:500]


@pytest.mark.slow
def test_ten_moves_on_the_page_against_a_robot_mail_nothing_then_one_email_when_away(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    with time_machine.travel(T0, tick=False) as clock:
        game = robot_game(ann, "crossword")
        assert client.get(f"/games/{game.pk}/").status_code == 200  # the page is open
        for n in range(MOVES):
            pass_on_the_page(client, game, n)
            robots_reply(game)
            outbox.sweep()  # whatever is due goes now
            assert game.turn_seat == 0 and game.status == Game.Status.PLAYING
            clock.shift(timedelta(seconds=20))  # she thinks a little each turn
            client.get(f"/games/{game.pk}/", headers={"HX-Request": "true"})  # live part
        assert turn_emails(ann) == []  # ten replies, told on the page, none mailed
        owed = Notification.objects.filter(user=ann, kind=Notification.Kind.YOUR_TURN)
        assert owed.count() >= MOVES  # each reply owed her one, deferred
        # She closes the page with it her turn: when her presence runs out, one email.
        clock.shift(presence.PRESENCE + timedelta(seconds=1))
        while outbox.sweep():
            pass
        assert len(turn_emails(ann)) == 1
        # Nothing more later: the older turns' emails are never sent.
        clock.shift(timedelta(hours=1))
        while outbox.sweep():
            pass
        assert len(turn_emails(ann)) == 1
        assert not owed.filter(sent_at__isnull=True).exists()  # every row settled


@pytest.mark.slow
def test_a_player_who_moves_by_email_or_api_is_mailed_each_turn(
    make_user: Callable[[str], User],
) -> None:
    """No page open: each robot reply makes it her turn and is mailed (she plays by mail)."""
    ann = make_user("ann")
    with time_machine.travel(T0, tick=False) as clock:
        game = robot_game(ann)
        for _ in range(3):
            door.submit(game.pk, ann, "pass", game.last_seq, Event.Source.EMAIL)
            robots_reply(game)
            outbox.sweep()
            clock.shift(timedelta(minutes=30))
        assert len(turn_emails(ann)) == 3
