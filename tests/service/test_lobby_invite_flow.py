"""From an invitation email to a seat: one email, one page, a name on the way."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core.lobby import create_game, join_game
from games.core.tokens import invite_token
from games.engine.jumbulaya import PRESETS
from games.mail_out import outbox
from games.mail_out.invitations import game_facts
from games.models import Game


@pytest.fixture
def ann(make_user: Callable[..., User]) -> User:
    return make_user("ann")


def invite(creator: User, email: str, seats: int = 2, **kw: Any) -> Game:
    return create_game(
        creator, seat_count=seats, rules=PRESETS["official"], invite_emails=[email], **kw
    )


def invite_path(game: Game, email: str) -> str:
    return reverse("games:accept_invite", args=[invite_token(game.pk, email)])


def link_of(message: Any) -> str:
    (url,) = re.findall(re.escape(settings.JUMBULAYA_SITE_URL) + r"(/invite/\S+)", message.body)
    return str(url)


def test_the_invitation_email_tells_the_games_settings(
    ann: User, make_user: Callable[..., User], mailoutbox: list[Any]
) -> None:
    cy = make_user("cy")
    game = invite(ann, "bob@example.com", seats=3, move_hours=36, claim_window=False, is_open=True)
    join_game(game.pk, cy)  # Cy takes the open seat before the email goes
    assert outbox.sweep() == 1
    (message,) = mailoutbox
    html = message.alternatives[0][0]
    for text in (message.body, html):
        assert "Players already seated: Ann, Cy." in text
        assert "Rules: Official (the 2009 rule sheet)." in text
        assert "Time per move: 36 hours" in text
        assert "JUMBULAYA claim window: off." in text
        assert "Word list: ENABLE (the default)." in text
    assert "cy@example.com" not in message.body and "ann@example.com" not in message.body


def test_game_facts_in_words(ann: User) -> None:
    game = invite(ann, "bob@example.com", move_hours=72, skip_weekends=True)
    facts = game_facts(game, ["Ann"])
    assert facts[0] == "Players already seated: Ann."
    assert facts[1].startswith("Rules: ")
    assert facts[2].startswith("Time per move: 3 days, not counting Saturdays and Sundays;")
    assert facts[3].startswith("JUMBULAYA claim window: on.")
    assert game_facts(game, [])[0] == "No one is seated yet."


def test_a_new_player_goes_from_the_email_to_the_game_page(
    client: Client, ann: User, mailoutbox: list[Any]
) -> None:
    game = invite(ann, "bob.smith@example.com")
    assert outbox.sweep() == 1
    path = link_of(mailoutbox[0])
    page = client.get(path)
    html = page.content.decode()
    assert page.status_code == 200
    assert "Players already seated: Ann." in html
    assert 'value="Bob Smith"' in html  # offered from the address
    assert "bob.smith@example.com" not in html
    response = client.post(path, {"display_name": "Bobby"})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    bob = User.objects.get(email="bob.smith@example.com")
    assert bob.display_name == "Bobby" and bob.last_login is not None
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.seats.get(index=1).user == bob
    # Signed in: the game page is theirs, and no sign-in email was needed.
    assert client.get(response["Location"]).context["user"] == bob
    assert len(mailoutbox) == 1  # the invitation alone: no sign-in email


def test_a_refused_name_changes_nothing(client: Client, ann: User) -> None:
    game = invite(ann, "bob@example.com")
    response = client.post(invite_path(game, "bob@example.com"), {"display_name": "www.evil.com"})
    assert response.status_code == 400
    assert "web address" in response.content.decode()
    assert not User.objects.filter(email="bob@example.com").exists()
    assert game.seats.get(index=1).user is None
    assert "_auth_user_id" not in client.session


def test_a_look_alike_name_is_refused_on_the_form(client: Client, ann: User) -> None:
    game = invite(ann, "bob@example.com")
    response = client.post(invite_path(game, "bob@example.com"), {"display_name": "ANN"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "could be taken for the name of Ann" in html
    assert 'class="error"' in html
    assert not User.objects.filter(email="bob@example.com").exists()
    assert game.seats.get(index=1).user is None


def test_the_link_signs_in_to_no_existing_account(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = invite(ann, "bob@example.com")
    make_user("bob")
    path = invite_path(game, "bob@example.com")
    response = client.post(path, {"display_name": "Bob"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:sign_in"))
    assert "_auth_user_id" not in client.session
    assert game.seats.get(index=1).user is None


def test_a_used_invitation_signs_no_one_in_again(client: Client, ann: User) -> None:
    game = invite(ann, "bob@example.com")
    path = invite_path(game, "bob@example.com")
    assert client.post(path, {"display_name": "Bob"}).status_code == 302
    other = Client()
    response = other.post(path, {"display_name": "Mallory"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:sign_in"))
    assert "_auth_user_id" not in other.session
    assert User.objects.get(email="bob@example.com").display_name == "Bob"


def test_a_signed_in_player_without_a_name_names_themself_to_join(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = invite(ann, "dee.lee@example.com")
    dee = User.objects.create_user(username="dee", email="dee.lee@example.com")
    client.force_login(dee)
    path = invite_path(game, "dee.lee@example.com")
    assert 'value="Dee Lee"' in client.get(path).content.decode()
    refused = client.post(path, {"display_name": "Ann"})
    assert refused.status_code == 409
    dee.refresh_from_db()
    assert dee.display_name == ""  # the refused seat left the name as it was
    assert game.seats.get(index=1).user is None
    response = client.post(path, {"display_name": "Dee"})
    assert response.status_code == 302
    dee.refresh_from_db()
    assert dee.display_name == "Dee"
    assert game.seats.get(index=1).user == dee


def test_joining_an_open_game_without_a_name_asks_it_first(
    client: Client, ann: User, make_user: Callable[..., User]
) -> None:
    game = create_game(ann, seat_count=2, rules=PRESETS["official"], is_open=True)
    client.force_login(User.objects.create_user(username="eve", email="eve@example.com"))
    response = client.post(reverse("games:join", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:profile"))
    assert "next=" in response["Location"]
    assert game.seats.get(index=1).user is None
