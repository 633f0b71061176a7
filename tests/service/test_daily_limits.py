"""How many games and invitations one account may create in any 24 hours
(JUMBULAYA_GAMES_PER_DAY, JUMBULAYA_INVITATIONS_PER_DAY): counted in the
database, refused with the limit and the moment it frees up, staff exempt."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core.limits import OverLimit
from games.core.lobby import create_game
from games.engine.jumbulaya import PRESETS
from games.models import Game, Notification

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
HOUR = timedelta(hours=1)


@pytest.fixture
def ann(make_user: Callable[[str], User]) -> User:
    return make_user("ann")


def new_game(creator: User, invite: Sequence[str] = (), at: datetime = T0) -> Game:
    with time_machine.travel(at, tick=False):
        return create_game(
            creator,
            seat_count=max(2, len(invite) + 1),
            rules=PRESETS["official"],
            invite_emails=invite,
            is_open=not invite,
        )


def addresses(n: int, start: int = 0) -> list[str]:
    return [f"friend{i}@example.com" for i in range(start, start + n)]


def test_the_issue_one_account_inviting_fifteen_addresses_at_once(ann: User) -> None:
    """Fifteen invitations to arbitrary addresses in under a second: the
    default allows ten a day; the rest are refused and never written."""
    made = 0
    for address in addresses(15):
        try:
            new_game(ann, [address])
        except OverLimit:
            continue
        made += 1
    assert made == 10
    assert Notification.objects.filter(kind=Notification.Kind.INVITED).count() == 10


def test_games_per_day(ann: User, settings: Any) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 3
    for hours in range(3):
        new_game(ann, at=T0 + hours * HOUR)
    with pytest.raises(OverLimit) as refused:
        new_game(ann, at=T0 + 5 * HOUR)
    # The first game leaves the 24 hours at 09:00 the next day.
    assert str(refused.value) == (
        "You have created 3 games in the last 24 hours, as many as one account may. "
        "You can create another from Tue 3 Mar, 09:01 (UTC)."
    )
    assert Game.objects.filter(created_by=ann).count() == 3
    new_game(ann, at=T0 + 24 * HOUR + timedelta(seconds=1))


def test_the_moment_is_in_the_creators_time_zone(ann: User, settings: Any) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 1
    User.objects.filter(pk=ann.pk).update(time_zone="Asia/Tokyo")
    ann.refresh_from_db()
    new_game(ann)
    with pytest.raises(OverLimit, match=r"from Tue 3 Mar, 18:01 \(Asia/Tokyo\)"):
        new_game(ann, at=T0 + HOUR)


def test_invitations_per_day(ann: User, settings: Any) -> None:
    settings.JUMBULAYA_INVITATIONS_PER_DAY = 4
    new_game(ann, addresses(3), at=T0)
    with pytest.raises(OverLimit) as refused:
        new_game(ann, addresses(2, start=3), at=T0 + HOUR)
    assert str(refused.value) == (
        "One account may send 4 invitations in 24 hours, and your games have sent 3 in the "
        "last 24 hours. This game's 2 invitations can go from Tue 3 Mar, 09:01 (UTC). Until "
        "then, invite fewer people (1 now), or make the game open so that anyone can join it "
        "without an invitation."
    )
    new_game(ann, addresses(1, start=3), at=T0 + HOUR)  # the one left
    new_game(ann, at=T0 + 2 * HOUR)  # an open game needs no invitation
    with pytest.raises(OverLimit, match=r"invite fewer people \(none now\)"):
        new_game(ann, addresses(1, start=4), at=T0 + 2 * HOUR)
    # At 09:00 the next day the first game's three leave the window; the fourth at 10:00.
    later = T0 + 24 * HOUR + timedelta(seconds=1)
    new_game(ann, addresses(3, start=4), at=later)
    with pytest.raises(OverLimit, match="from Tue 3 Mar, 10:01"):
        new_game(ann, addresses(1, start=7), at=later)
    assert Notification.objects.filter(kind=Notification.Kind.INVITED).count() == 7


def test_more_invitations_than_a_day_allows_at_once(ann: User, settings: Any) -> None:
    settings.JUMBULAYA_INVITATIONS_PER_DAY = 2
    with pytest.raises(OverLimit, match="at most 2 invitations in 24 hours"):
        new_game(ann, addresses(3))


def test_limits_are_per_account(ann: User, make_user: Callable[[str], User], settings: Any) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 1
    settings.JUMBULAYA_INVITATIONS_PER_DAY = 1
    new_game(ann, addresses(1))
    new_game(make_user("bob"), addresses(1, start=1))


def test_staff_are_exempt(make_user: Callable[[str], User], settings: Any) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 1
    settings.JUMBULAYA_INVITATIONS_PER_DAY = 1
    boss = make_user("boss")
    User.objects.filter(pk=boss.pk).update(is_staff=True)
    boss.refresh_from_db()
    for n in range(3):
        new_game(boss, addresses(3, start=3 * n))
    assert Game.objects.filter(created_by=boss).count() == 3


def test_zero_turns_a_limit_off(ann: User, settings: Any) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 0
    settings.JUMBULAYA_INVITATIONS_PER_DAY = 0
    for n in range(25):
        new_game(ann, addresses(1, start=n))
    assert Game.objects.filter(created_by=ann).count() == 25


def test_the_create_page_shows_the_refusal(client: Client, ann: User, settings: Any) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 1
    new_game(ann, at=datetime.now(UTC))
    client.force_login(ann)
    form = {
        "seat_count": "2",
        "preset": "official",
        "options_from": "official",
        "rack_limit": "2",
        "new_word": "current",
        "stall_rounds": "0",
        "lexicon_name": "default",
        "move_hours": "72",
        "invite_emails": "bob@example.com",
    }
    response = client.post(reverse("games:create"), form)
    assert response.status_code == 400
    assert "You have created 1 game in the last 24 hours" in response.content.decode()
    assert Game.objects.count() == 1
