"""Inviting people to a game already made (``services.invite``, the game
page's box): any player of a game waiting for players may, with the same email
and daily limit as invitations made with a new game; a game that has started,
has no free seat, or an inviter who is not in it, is refused."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core import projection
from games.core.door import NotAPlayer
from games.core.limits import BadAddress, OverLimit
from games.core.lobby import CannotInvite, create_game, invite, join_game
from games.engine.jumbulaya import PRESETS
from games.mail_out import outbox
from games.models import Game, Notification

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
HOUR = timedelta(hours=1)


@pytest.fixture
def ann(make_user: Callable[[str], User]) -> User:
    return make_user("ann")


def open_game(creator: User, seats: int = 3, invite_emails: Sequence[str] = ()) -> Game:
    return create_game(
        creator,
        seat_count=seats,
        rules=PRESETS["official"],
        invite_emails=invite_emails,
        is_open=True,
    )


def invited(game: Game) -> list[str]:
    return [s.invited_email for s in game.seats.order_by("index")]


def test_a_player_invites_to_the_free_seats_and_the_email_names_them(
    ann: User, make_user: Callable[[str], User], mailoutbox: list[Any]
) -> None:
    game = open_game(ann, seats=4, invite_emails=["cy@example.com"])
    bob = make_user("bob")
    join_game(game.pk, bob)  # Bob takes the open seat 2, then invites to the last
    assert outbox.sweep() == 1  # Cy's, made with the game
    mailoutbox.clear()
    seats = invite(game.pk, bob, [" Di@Example.com "])
    assert [s.index for s in seats] == [3]
    assert invited(game) == ["", "cy@example.com", "", "di@example.com"]
    assert outbox.sweep() == 1
    (mail,) = mailoutbox
    assert mail.to == ["di@example.com"]
    assert mail.subject == f"Game {game.pk}: Bob invites you to play JUMBULAYA"
    assert "Players already seated: Ann, Bob." in mail.body
    link = next(word for word in mail.body.split() if "/invite/" in word)
    di = make_user("di")
    client = Client()
    client.force_login(di)
    path = link.removeprefix("http://127.0.0.1:8000")
    page = client.get(path).content.decode()
    assert "Bob" in page and "Join the game" in page
    assert client.post(path).status_code == 302
    assert game.seats.get(index=3).user == di


def test_refused_when_the_game_has_started(ann: User, make_user: Callable[[str], User]) -> None:
    game = open_game(ann, seats=2)
    join_game(game.pk, make_user("bob"))
    with pytest.raises(CannotInvite, match="This game has started"):
        invite(game.pk, ann, ["cy@example.com"])
    assert not Notification.objects.filter(kind=Notification.Kind.INVITED).exists()


def test_refused_without_enough_free_seats(ann: User) -> None:
    game = open_game(ann, seats=3, invite_emails=["bob@example.com"])
    with pytest.raises(CannotInvite, match="1 free seat left for an invitation; you invited 2"):
        invite(game.pk, ann, ["cy@example.com", "di@example.com"])
    invite(game.pk, ann, ["cy@example.com"])
    with pytest.raises(CannotInvite, match="no seat left for an invitation"):
        invite(game.pk, ann, ["di@example.com"])
    assert invited(game) == ["", "bob@example.com", "cy@example.com"]


def test_refused_to_someone_not_in_the_game(ann: User, make_user: Callable[[str], User]) -> None:
    game = open_game(ann)
    with pytest.raises(NotAPlayer, match="Only the players of this game"):
        invite(game.pk, make_user("eve"), ["cy@example.com"])
    with pytest.raises(NotAPlayer, match="no such game"):
        invite(game.pk + 1000, ann, ["cy@example.com"])
    assert invited(game) == ["", "", ""]


@pytest.mark.parametrize(
    ("emails", "refusal"),
    [
        (["not an address"], BadAddress),
        (["cy@"], BadAddress),
        ([], BadAddress),
        (["cy@example.com", "CY@example.com"], projection.ServiceError),
        (["ann@example.com"], projection.ServiceError),
    ],
)
def test_refused_addresses_change_nothing(
    ann: User, emails: list[str], refusal: type[Exception]
) -> None:
    game = open_game(ann)
    with pytest.raises(refusal):
        invite(game.pk, ann, emails)
    assert invited(game) == ["", "", ""]
    assert not Notification.objects.exists()


def test_an_address_already_invited_or_seated_is_refused(
    ann: User, make_user: Callable[[str], User]
) -> None:
    game = open_game(ann, seats=4, invite_emails=["bob@example.com"])
    join_game(game.pk, make_user("cy"))
    for email in ("bob@example.com", "cy@example.com"):
        with pytest.raises(CannotInvite, match=f"{email} is invited to this game already"):
            invite(game.pk, ann, [email])


def test_invitations_to_a_game_count_towards_the_daily_limit(ann: User, settings: Any) -> None:
    settings.JUMBULAYA_INVITATIONS_PER_DAY = 3
    with time_machine.travel(T0, tick=False):
        first = open_game(ann, seats=3, invite_emails=["a@example.com", "b@example.com"])
        second = open_game(ann, seats=3)
    with time_machine.travel(T0 + HOUR, tick=False):
        invite(second.pk, ann, ["c@example.com"])  # the third of three
        with pytest.raises(OverLimit) as refused:
            invite(second.pk, ann, ["d@example.com"])
    assert str(refused.value) == (
        "One account may send 3 invitations in 24 hours, and your games have sent 3 in the "
        "last 24 hours. Your 1 invitation can go from Tue 3 Mar, 09:01 (UTC). Until then, "
        "invite fewer people (none now), or ask another player of the game to invite them."
    )
    # An invitation made to a game later counts from when it was made, not from the game.
    with time_machine.travel(T0 + 24 * HOUR + timedelta(seconds=1), tick=False):
        open_game(ann, seats=3, invite_emails=["e@example.com", "f@example.com"])  # a, b left
        with pytest.raises(OverLimit, match="from Tue 3 Mar, 10:01"):
            open_game(ann, seats=2, invite_emails=["g@example.com"])  # c leaves at 10:00
    assert invited(first) == ["", "a@example.com", "b@example.com"]
    assert Notification.objects.filter(kind=Notification.Kind.INVITED).count() == 5


def test_the_limit_is_the_inviters_not_the_creators(
    ann: User, make_user: Callable[[str], User], settings: Any
) -> None:
    settings.JUMBULAYA_INVITATIONS_PER_DAY = 1
    game = open_game(ann, seats=4, invite_emails=["cy@example.com"])  # Ann's one
    bob = make_user("bob")
    join_game(game.pk, bob)
    with pytest.raises(OverLimit):
        invite(game.pk, ann, ["di@example.com"])
    invite(game.pk, bob, ["di@example.com"])  # Bob's one
    assert invited(game) == ["", "cy@example.com", "", "di@example.com"]


def test_the_game_page_offers_the_box_to_its_players_only(
    ann: User, make_user: Callable[[str], User]
) -> None:
    game = create_game(
        ann, seat_count=3, rules=PRESETS["official"], invite_emails=["bob@example.com"],
        is_open=True, is_public=True,
    )  # fmt: skip
    page = reverse("games:game", args=[game.pk])
    mine = Client()
    mine.force_login(ann)
    html = mine.get(page).content.decode()
    assert 'name="emails"' in html and "one seat is free for an invitation" in html
    watcher = Client()
    watcher.force_login(make_user("eve"))
    assert 'name="emails"' not in watcher.get(page).content.decode()
    refused = watcher.post(reverse("games:invite", args=[game.pk]), {"emails": "x@example.com"})
    assert refused.status_code == 403
    assert invited(game) == ["", "bob@example.com", ""]


def test_the_game_page_invites_and_says_so(ann: User, mailoutbox: list[Any]) -> None:
    game = open_game(ann, seats=3)
    client = Client()
    client.force_login(ann)
    url = reverse("games:invite", args=[game.pk])
    sent = client.post(url, {"emails": "bob@example.com,\ncy@example.com"}, follow=True)
    assert sent.redirect_chain == [(reverse("games:game", args=[game.pk]), 302)]
    html = sent.content.decode()
    assert "An invitation was sent to bob@example.com, cy@example.com." in html
    assert 'name="emails"' not in html  # no seat is left to invite to
    assert outbox.sweep() == 2
    assert sorted(m.to[0] for m in mailoutbox) == ["bob@example.com", "cy@example.com"]


def test_the_game_page_says_why_nothing_was_sent(
    ann: User, make_user: Callable[[str], User]
) -> None:
    game = open_game(ann, seats=2)
    client = Client()
    client.force_login(ann)
    url = reverse("games:invite", args=[game.pk])
    bad = client.post(url, {"emails": "bob at example"}, follow=True).content.decode()
    assert "is not an email address." in bad
    join_game(game.pk, make_user("bob"))
    late = client.post(url, {"emails": "cy@example.com"}, follow=True).content.decode()
    assert "This game has started" in late
    assert Client().post(url, {"emails": "cy@example.com"}).status_code == 302  # sign in first
    stranger = Client()
    stranger.force_login(make_user("eve"))
    assert stranger.post(url, {"emails": "cy@example.com"}).status_code == 404
    assert not Notification.objects.filter(kind=Notification.Kind.INVITED).exists()
