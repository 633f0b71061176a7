"""What the pages say once mail to a player stopped: the other players of a
game of every kind are told (issue 28, point 7), spectators are not, and only
a page that showed the player the banner counts as their warning (point 8)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.test import Client

from accounts.models import User
from games import kinds
from games.core import door
from games.mail_out import tracking
from games.models import Game, MailStatus

pytestmark = pytest.mark.django_db

NOTE = "mail is not reaching Bob"


def stop_bob() -> None:
    tracking.note(
        key="test:bob:bounced",
        via="test",
        event="bounced",
        weight="hard",
        address="bob@example.com",
        occurred_at=datetime.now(UTC),
        detail="550 5.1.1 no such user",
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", [k.name for k in kinds.all()])
def test_the_other_players_of_a_game_of_every_kind_are_told_and_no_one_else(
    client: Client, started_game: Callable[..., Game], make_user: Callable[[str], User], kind: str
) -> None:
    shape = kinds.get(kind)
    rules = next(iter(shape.presets.values()))
    game = started_game(players=shape.min_players, kind=kind, rules=rules, is_public=True)
    stop_bob()
    pages = {"ann": NOTE, "bob": None, "zoe": None}  # a co-player, Bob, a spectator
    make_user("zoe")
    for name, told in pages.items():
        client.force_login(User.objects.get(username=name))
        for headers in ({}, {"HX-Request": "true"}):  # the page, and its live part
            page = client.get(f"/games/{game.pk}/", headers=headers)
            assert page.status_code == 200 and "Bob" in page.text
            if told:
                assert told in page.text and "bob@example.com" not in page.text
            else:
                assert "mail is not reaching" not in page.text
                assert "mail-stopped-note" not in page.text


def test_the_background_poll_and_live_refreshes_do_not_count_as_seeing_the_banner(
    client: Client, started_game: Callable[..., Game]
) -> None:
    game = started_game(players=2)
    stop_bob()
    client.force_login(User.objects.get(username="bob"))
    seen = game.last_seq
    assert game.turn_seat is not None
    door.submit(game.pk, game.turn_seat, "pass", game.last_seq, "web")
    poll = client.get(f"/games/{game.pk}/changes/?seen={seen}", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and "The game has moved on" in poll.text
    live = client.get(f"/games/{game.pk}/", headers={"HX-Request": "true"})
    assert live.status_code == 200 and "We have stopped emailing you" not in live.text
    assert MailStatus.objects.get(address="bob@example.com").warned_at is None
    page = client.get(f"/games/{game.pk}/")
    assert "We have stopped emailing you" in page.text
    assert MailStatus.objects.get(address="bob@example.com").warned_at is not None
