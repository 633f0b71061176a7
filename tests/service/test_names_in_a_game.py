"""Players of one game can be told apart: a seat is refused to a player whose
name could be taken for that of a player already seated."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core.services import CannotJoin, create_game, join_game
from games.engine import PRESETS
from games.models import Game


def player(name: str, display_name: str) -> User:
    return User.objects.create_user(
        username=name, email=f"{name}@example.com", display_name=display_name
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), [("Ann", "ann"), ("Bob", "B0b"), ("Al", "AI")])
def test_a_look_alike_name_cannot_join(first: str, second: str) -> None:
    host = player("host", first)
    guest = player("guest", second)
    game = create_game(host, seat_count=2, rules=PRESETS["official"], invite_emails=[guest.email])
    with pytest.raises(CannotJoin) as refused:
        join_game(game.pk, guest)
    assert f"Your display name, “{second}”, could be taken for that of {first}" in str(
        refused.value
    )
    assert game.seats.get(index=1).user is None
    # Renamed, the guest joins and the game begins.
    User.objects.filter(pk=guest.pk).update(display_name=f"{second} B.")
    guest.refresh_from_db()
    join_game(game.pk, guest)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_an_open_game_says_why_on_the_page(
    client: Client, make_user: Callable[[str], User]
) -> None:
    ann = make_user("ann")
    other = player("ann2", "ANN")
    game = create_game(ann, seat_count=2, rules=PRESETS["official"], is_open=True)
    client.force_login(other)
    response = client.post(reverse("games:join", args=[game.pk]), follow=True)
    assert "could be taken for that of Ann" in response.content.decode()
    assert game.seats.get(index=1).user is None
