"""Players of one game can be told apart: a seat is refused to a player whose
name could be taken for that of a player already seated."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import User
from games.core.door import submit
from games.core.lobby import CannotJoin, create_game, join_game, join_with_name
from games.engine.jumbulaya import PRESETS
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


# --- renaming: the same check, for every game not over ----------------------------


def rename(client: Client, name: str, tz: str = "UTC") -> HttpResponse:
    return client.post(
        reverse("accounts:profile"),
        {"action": "profile", "profile-display_name": name, "profile-time_zone": tz},
    )


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def game_of(*users: User, seats: int | None = None) -> Game:
    """A game of ``users`` (all seated; it begins when ``seats`` is theirs)."""
    host, *guests = users
    game = create_game(
        host,
        seat_count=seats or len(users),
        rules=PRESETS["official"],
        invite_emails=[u.email for u in guests],
    )
    for guest in guests:
        join_game(game.pk, guest)
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("new", ["Bob", "bob", "B0b"])
def test_a_rename_that_could_be_taken_for_a_co_players_name_is_refused(new: str) -> None:
    ann, bob = player("ann", "Ann"), player("bob", "Bob")
    game = game_of(ann, bob)
    assert game.status == Game.Status.PLAYING
    response = rename(signed_in(ann), new, "Europe/Paris")
    assert response.status_code == 400
    assert f"“{new}” could be taken for the name of Bob in game {game.pk}" in response.text
    ann.refresh_from_db()
    assert (ann.display_name, ann.time_zone) == ("Ann", "UTC")  # nothing changed
    # The header still shows the saved name.
    assert '<a href="/account/profile/">Ann</a>' in response.text


@pytest.mark.django_db
def test_a_game_waiting_for_players_counts_and_every_game_is_named() -> None:
    ann, bob, bobby = player("ann", "Ann"), player("bob", "Bob"), player("bobby", "B0B")
    playing = game_of(ann, bob)
    waiting = game_of(ann, bobby, seats=3)
    assert waiting.status == Game.Status.OPEN
    with pytest.raises(ValidationError) as refused:
        services.update_profile(ann, display_name="bob", time_zone="UTC")
    said = refused.value.messages[0]
    assert f"Bob in game {playing.pk}" in said and f"B0B in game {waiting.pk}" in said
    assert User.objects.get(pk=ann.pk).display_name == "Ann"


@pytest.mark.django_db
def test_games_over_seats_free_and_other_peoples_games_do_not_count() -> None:
    ann, bob, cy, di = (player(n, n.title()) for n in ("ann", "bob", "cy", "di"))
    over = game_of(ann, bob)
    submit(over.pk, over.turn_seat or 0, "resign", over.last_seq, "web")
    assert Game.objects.get(pk=over.pk).status == Game.Status.OVER
    create_game(ann, seat_count=2, rules=PRESETS["official"], invite_emails=["cy2@example.com"])
    game_of(cy, di)  # Ann is not in it
    services.update_profile(ann, display_name="Bob", time_zone="UTC")
    services.update_profile(ann, display_name="Di", time_zone="UTC")
    assert User.objects.get(pk=ann.pk).display_name == "Di"


@pytest.mark.django_db
def test_keeping_a_name_that_clashed_before_the_check_still_saves_the_rest() -> None:
    ann, bob = player("ann", "Ann"), player("bob", "Bob")
    game_of(ann, bob)
    User.objects.filter(pk=ann.pk).update(display_name="BOB")  # from before the check
    response = rename(signed_in(User.objects.get(pk=ann.pk)), "BOB", "Europe/Paris")
    assert response.status_code == 302
    assert User.objects.get(pk=ann.pk).time_zone == "Europe/Paris"


@pytest.mark.django_db
def test_naming_oneself_on_the_way_into_a_game_is_checked_in_the_others() -> None:
    """A player without a name (or one the rules now refuse) names themself on
    an invitation: the name is checked against their live games too."""
    ann, bob, cy = player("ann", "Ann"), player("bob", "Bob"), player("cy", "Cy")
    playing = game_of(ann, bob)
    User.objects.filter(pk=ann.pk).update(display_name="")
    ann.refresh_from_db()
    other = create_game(cy, seat_count=2, rules=PRESETS["official"], invite_emails=[ann.email])
    with pytest.raises(CannotJoin) as refused:
        join_with_name(other.pk, ann, "Bob")
    assert f"Bob in game {playing.pk}" in str(refused.value)
    assert User.objects.get(pk=ann.pk).display_name == ""
    assert other.seats.get(index=1).user is None
