"""The lobby: accepting invitations and joining open games."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core import door
from games.core.lobby import create_game
from games.core.tokens import INVITE_SALT, invite_token
from games.engine.jumbulaya import PRESETS
from games.models import Game


def invite_path(game: Game, email: str) -> str:
    return reverse("games:accept_invite", args=[invite_token(game.pk, email)])


@pytest.fixture
def ann(make_user: Callable[..., User]) -> User:
    return make_user("ann")


def new_game(creator: User, seats: int = 2, invite: tuple[str, ...] = (), **kw: object) -> Game:
    return create_game(
        creator, seat_count=seats, rules=PRESETS["official"], invite_emails=invite, **kw
    )


def test_the_invitation_page_shows_the_game(client: Client, ann: User) -> None:
    game = new_game(ann, invite=("bob@example.com",))
    response = client.get(invite_path(game, "bob@example.com"))  # not signed in
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ann invites you to play JUMBULAYA" in html
    assert "Players already seated: Ann." in html
    assert "A move uses at most 2 tiles from your rack." in html
    # Bob has no account yet: the page asks his name, offered from his address.
    assert 'value="Bob"' in html and "Join the game" in html
    assert "ann@example.com" not in html and "bob@example.com" not in html


def test_joining_needs_sign_in_and_comes_back(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    """An address with an account signs in by a sign-in link: the invitation
    link is no key to an existing account."""
    game = new_game(ann, invite=("bob@example.com",))
    make_user("bob")
    assert "Sign in to join" in client.get(invite_path(game, "bob@example.com")).content.decode()
    path = invite_path(game, "bob@example.com")
    response = client.post(path)
    assert response.status_code == 302
    location = response["Location"]
    assert location.startswith(reverse("accounts:sign_in"))
    assert "next=" in location and "/invite/" in location
    assert game.seats.get(index=1).user is None


def test_the_invited_user_joins_and_the_game_starts(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = new_game(ann, invite=("bob@example.com",))
    bob = make_user("bob")
    client.force_login(bob)
    response = client.post(invite_path(game, "bob@example.com"))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.seats.get(index=1).user == bob


def test_another_user_is_refused_for_a_closed_game(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = new_game(ann, invite=("bob@example.com",))
    client.force_login(make_user("eve"))
    path = invite_path(game, "bob@example.com")
    page = client.get(path)
    assert "sent to a different email address" in page.content.decode()
    assert "Join the game" not in page.content.decode()
    response = client.post(path)
    assert response.status_code == 409
    assert "sent to a different email address" in response.content.decode()
    assert "bob@example.com" not in response.content.decode()
    assert game.seats.get(index=1).user is None


def test_anyone_may_use_an_invitation_to_an_open_game(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = new_game(ann, seats=3, invite=("bob@example.com",), is_open=True)
    eve = make_user("eve")
    client.force_login(eve)
    response = client.post(invite_path(game, "bob@example.com"))
    assert response.status_code == 302
    # Eve takes the free uninvited seat; Bob's stays his.
    assert game.seats.get(index=2).user == eve
    assert game.seats.get(index=1).user is None


def test_an_expired_invitation(
    client: Client, ann: User, make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(ann, invite=("bob@example.com",))
    token = invite_token(game.pk, "bob@example.com")
    real_loads = signing.loads

    def loads(value: str, **kwargs: object) -> object:
        kwargs["max_age"] = -1
        return real_loads(value, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("games.core.tokens.signing.loads", loads)
    client.force_login(make_user("bob"))
    response = client.get(reverse("games:accept_invite", args=[token]))
    assert response.status_code == 410
    assert "This invitation has expired" in response.content.decode()


def test_a_bad_invitation_link(client: Client, ann: User) -> None:
    game = new_game(ann, invite=("bob@example.com",))
    token = invite_token(game.pk, "bob@example.com")
    response = client.get(reverse("games:accept_invite", args=[token[:-3] + "xyz"]))
    assert response.status_code == 400
    assert "This invitation link is not valid" in response.content.decode()
    forged = signing.dumps({"game": game.pk, "email": "x@example.com"}, salt="other")
    assert client.get(reverse("games:accept_invite", args=[forged])).status_code == 400
    gone = signing.dumps({"game": 9999, "email": "bob@example.com"}, salt=INVITE_SALT)
    response = client.get(reverse("games:accept_invite", args=[gone]))
    assert response.status_code == 404 and "no longer exists" in response.content.decode()


def test_an_invitation_to_a_started_game(
    client: Client, started_game: Callable[..., Game], make_user: Callable[..., User]
) -> None:
    game = started_game(players=2)
    bob = User.objects.get(username="bob")
    client.force_login(bob)
    response = client.post(invite_path(game, "bob@example.com"))
    assert response.status_code == 409
    assert "You already have a seat in this game." in response.content.decode()
    client.force_login(make_user("eve"))
    page = client.get(invite_path(game, "eve@example.com"))
    assert "This game has already started" in page.content.decode()


# --- open games --------------------------------------------------------------


def test_open_games_lists_games_with_free_seats(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    listed = new_game(ann, seats=3, is_open=True, move_hours=48)
    new_game(ann, invite=("bob@example.com",))  # not open
    full = new_game(ann, seats=2, invite=("cy@example.com",), is_open=True)  # no free seat
    eve = make_user("eve")
    client.force_login(eve)
    html = client.get(reverse("games:open_games")).content.decode()
    assert reverse("games:join", args=[listed.pk]) in html
    assert reverse("games:join", args=[full.pk]) not in html
    assert "Ann\u2019s 3-player game" in html
    assert "48 hours per move" in html
    assert "2 free seats" in html
    assert "@example.com" not in html


def test_joining_an_open_game_until_it_starts(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = new_game(ann, seats=3, is_open=True)
    join = reverse("games:join", args=[game.pk])
    for name in ("bob", "cy"):
        client.force_login(make_user(name))
        response = client.post(join)
        assert response.status_code == 302
        assert response["Location"] == reverse("games:game", args=[game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.turn_seat is not None and game.deadline_at is not None

    client.force_login(make_user("di"))
    response = client.post(join, follow=True)
    assert "This game has already started." in response.content.decode()


def test_joining_twice_or_a_closed_game_is_refused_clearly(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = new_game(ann, seats=3, is_open=True)
    closed = new_game(ann, invite=("bob@example.com",))
    client.force_login(make_user("eve"))
    client.post(reverse("games:join", args=[game.pk]))
    again = client.post(reverse("games:join", args=[game.pk]), follow=True)
    assert "You already have a seat in this game." in again.content.decode()
    # A game Eve may not see and is not invited to: the 404 of a game that is not there.
    assert client.post(reverse("games:join", args=[closed.pk])).status_code == 404
    assert client.get(reverse("games:join", args=[game.pk])).status_code == 302


def test_a_game_you_may_not_see_answers_every_join_alike(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    """Issue 27, finding 14: whether a private game exists, has started, is
    over or has no seat for you, joining it tells nobody who may not see it."""
    bob = make_user("bob")
    waiting = new_game(ann, seats=3, invite=("bob@example.com",))
    started = new_game(ann, invite=("bob@example.com",))
    client.force_login(bob)
    client.post(reverse("games:join", args=[started.pk]))
    over = new_game(ann, invite=("bob@example.com",))
    client.post(reverse("games:join", args=[over.pk]))
    door.submit(over.pk, 0, "resign", Game.objects.get(pk=over.pk).last_seq, "web")
    assert Game.objects.get(pk=over.pk).status == Game.Status.OVER
    games = [waiting, started, over]
    unnamed = User.objects.create_user(username="nameless", email="nameless@example.com")
    for user in (make_user("eve"), unnamed):
        client.force_login(user)
        for pk in [*(g.pk for g in games), 999_999]:
            answer = client.post(reverse("games:join", args=[pk]))
            assert answer.status_code == 404, (user, pk)
            assert answer.templates[0].name == "404.html"
            told = client.get(reverse("games:open_games")).content.decode()
            assert "already" not in told and "no seat" not in told and "exists" not in told
    assert [g.seats.filter(user__isnull=False).count() for g in games] == [1, 2, 2]
    # Those who may see the game, or were invited to it, are told why.
    client.force_login(ann)
    again = client.post(reverse("games:join", args=[waiting.pk]), follow=True)
    assert "You already have a seat in this game." in again.content.decode()
    public = new_game(ann, invite=("bob@example.com",), is_public=True)
    client.force_login(bob)
    client.post(reverse("games:join", args=[public.pk]))
    client.force_login(make_user("cy"))
    watched = client.post(reverse("games:join", args=[public.pk]), follow=True)
    assert "This game has already started." in watched.content.decode()
