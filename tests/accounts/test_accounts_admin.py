"""Staff pages: every registered model's list loads, and the event log cannot
be edited from them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from games.models import Event, Game, Notification, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(account: Callable[..., User]) -> Game:
    ann = account("ann")
    game = Game.objects.create(
        created_by=ann,
        seat_count=2,
        rules={"preset": "official"},
        lexicon_name="test",
        lexicon_sha256="0" * 64,
        last_seq=1,
    )
    Seat.objects.create(game=game, index=0, user=ann)
    Seat.objects.create(game=game, index=1, invited_email="bob@example.com")
    Event.objects.create(game=game, seq=1, type="created", source="system", payload={})
    Notification.objects.create(kind="invited", email="bob@example.com", game=game)
    return game


@pytest.fixture
def staff(account: Callable[..., User]) -> User:
    return account("boss", is_staff=True, is_superuser=True)


def test_changelists_load(client: Client, staff: User, game: Game) -> None:
    client.force_login(staff)
    for model in (User, Game, Seat, Event, Notification):
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        response = client.get(url)
        assert response.status_code == 200, url
        assert client.get(url, {"q": "bob"}).status_code == 200, url


def test_detail_pages_load(client: Client, staff: User, game: Game) -> None:
    client.force_login(staff)
    for obj in (staff, game, game.seats.first(), game.events.first(), game.notifications.first()):
        meta = obj._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("admin:accounts_user_add")).status_code == 200


def test_user_list_shows_email_and_name(client: Client, staff: User, game: Game) -> None:
    client.force_login(staff)
    response = client.get(reverse("admin:accounts_user_changelist"))
    assert "ann@example.com" in response.text and "Ann" in response.text


def test_staff_can_add_a_passwordless_user(client: Client, staff: User) -> None:
    client.force_login(staff)
    response = client.post(
        reverse("admin:accounts_user_add"),
        {
            "email": "cy@example.com",
            "username": "cy",
            "display_name": "Cy",
            "usable_password": "false",
        },
    )
    assert response.status_code == 302, response.text
    cy = User.objects.get(username="cy")
    assert cy.email == "cy@example.com" and not cy.has_usable_password()


def test_event_admin_refuses_add_change_delete(client: Client, staff: User, game: Game) -> None:
    client.force_login(staff)
    event = game.events.get()
    assert client.get(reverse("admin:games_event_add")).status_code == 403
    change = reverse("admin:games_event_change", args=[event.pk])
    page = client.get(change)
    assert page.status_code == 200  # shown, read-only
    assert 'name="_save"' not in page.text
    response = client.post(change, {"type": "forged", "seq": 9, "source": "web", "payload": "{}"})
    assert response.status_code == 403
    assert client.get(reverse("admin:games_event_delete", args=[event.pk])).status_code == 403
    assert (
        client.post(
            reverse("admin:games_event_delete", args=[event.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    response = client.post(
        reverse("admin:games_event_changelist"),
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )
    event.refresh_from_db()
    assert (event.type, event.seq) == ("created", 1)

    request = RequestFactory().get("/")
    request.user = staff
    model_admin = admin.site._registry[Event]
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, event)
    assert not model_admin.has_delete_permission(request, event)
    assert model_admin.has_view_permission(request, event)


def test_admin_needs_staff(client: Client, account: Callable[..., User]) -> None:
    client.force_login(account("ann"))
    response = client.get(reverse("admin:games_event_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_admin_sign_in_goes_to_the_email_sign_in(client: Client) -> None:
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == "/account/sign-in/?next=/admin/"
