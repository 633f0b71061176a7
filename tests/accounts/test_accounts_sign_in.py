"""Passwordless sign-in: the request, the mail, the button, and every way a
link can be wrong."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core import signing
from django.core.mail import EmailMessage
from django.test import Client
from django.urls import reverse

from accounts import services, tokens
from accounts.models import User

pytestmark = pytest.mark.django_db

LinkIn = Callable[[EmailMessage], str]

SIGN_IN = reverse("accounts:sign_in")


def signed_in_id(client: Client) -> str | None:
    return client.session.get(SESSION_KEY)


def request_link(client: Client, email: str, next_url: str = "") -> Any:
    return client.post(SIGN_IN, {"email": email, "next": next_url})


def test_sign_in_page_carries_next(client: Client) -> None:
    response = client.get(SIGN_IN, {"next": "/games/7/"})
    assert response.status_code == 200
    assert 'value="/games/7/"' in response.text
    assert 'type="email"' in response.text


def test_full_sign_in_flow_for_a_new_address(
    client: Client, mailoutbox: list, link_in: LinkIn
) -> None:
    response = request_link(client, "New.Player@Example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:sign_in_sent")
    sent = client.get(response["Location"])
    assert "Check your mail" in sent.text

    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["new.player@example.com"]
    link = link_in(message)
    assert link.startswith("/account/sign-in/")

    # Following the link (what a mail scanner does) shows a button and signs nobody in.
    page = client.get(link)
    assert page.status_code == 200
    assert "<button" in page.text and "Sign in" in page.text
    assert signed_in_id(client) is None
    assert not User.objects.filter(email="new.player@example.com").exists()

    # Pressing the button signs in, makes the account and asks for a display name.
    response = client.post(link)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    user = User.objects.get(email="new.player@example.com")
    assert signed_in_id(client) == str(user.pk)
    assert user.username == "new.player"
    assert user.display_name == ""
    assert not user.has_usable_password()

    profile = client.get(response["Location"])
    assert profile.status_code == 200
    assert "Choose the name other players will see" in profile.text


def test_existing_user_with_a_name_goes_to_the_dashboard(
    client: Client, account: Callable[..., User], mailoutbox: list, link_in: LinkIn
) -> None:
    ann = account("ann")
    request_link(client, "ANN@example.com")
    response = client.post(link_in(mailoutbox[0]))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:dashboard")
    assert signed_in_id(client) == str(ann.pk)
    assert User.objects.filter(robot_level="").count() == 1  # people: not the robots


def test_safe_next_is_followed(
    client: Client, account: Callable[..., User], mailoutbox, link_in: LinkIn
) -> None:
    account("ann")
    request_link(client, "ann@example.com", "/games/7/")
    link = link_in(mailoutbox[0])
    assert "next=%2Fgames%2F7%2F" in link
    page = client.get(link)
    assert 'name="next" value="/games/7/"' in page.text
    response = client.post(link, {"next": "/games/7/"})
    assert response["Location"] == "/games/7/"


def test_new_account_keeps_next_through_the_profile(
    client: Client, mailoutbox, link_in: LinkIn
) -> None:
    request_link(client, "zed@example.com", "/games/7/")
    response = client.post(link_in(mailoutbox[0]), {"next": "/games/7/"})
    assert response["Location"] == reverse("accounts:profile") + "?next=%2Fgames%2F7%2F"
    saved = client.post(
        response["Location"],
        {
            "action": "profile",
            "next": "/games/7/",
            "profile-display_name": "Zed",
            "profile-time_zone": "UTC",
        },
    )
    assert saved["Location"] == "/games/7/"


@pytest.mark.parametrize(
    "evil",
    [
        "https://evil.example.com/",
        "//evil.example.com/",
        "/\\evil.example.com",
        "javascript:alert(1)",
        "http://testserver.evil.example.com/",
    ],
)
def test_open_redirect_in_next_is_ignored(
    client: Client, account: Callable[..., User], mailoutbox: list, evil: str, link_in: LinkIn
) -> None:
    account("ann")
    page = client.get(SIGN_IN, {"next": evil})
    assert evil not in page.text
    request_link(client, "ann@example.com", evil)
    link = link_in(mailoutbox[0])
    assert "next=" not in link
    # Even when the button's form is tampered with, the redirect stays on the site.
    response = client.post(link + "?next=" + evil, {"next": evil})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:dashboard")


def test_expired_link_shows_a_clear_page(
    client: Client, account: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    account("ann")
    minutes = settings.JUMBULAYA_SIGN_IN_MINUTES
    with monkeypatch.context() as m:
        # Sign the token as if it had been made (minutes + 1) minutes ago.
        real = signing.TimestampSigner.timestamp
        m.setattr(
            signing.TimestampSigner,
            "timestamp",
            lambda self: signing.b62_encode(signing.b62_decode(real(self)) - (minutes + 1) * 60),
        )
        token = tokens.sign_in_token("ann@example.com", None)
    url = reverse("accounts:sign_in_confirm", args=[token])
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 400
        assert "expired" in response.text
        assert reverse("accounts:sign_in") in response.text
    assert signed_in_id(client) is None


def test_link_expires_per_setting(client: Client, account, settings) -> None:
    account("ann")
    token = tokens.sign_in_token("ann@example.com", None)
    settings.JUMBULAYA_SIGN_IN_MINUTES = -1
    response = client.post(reverse("accounts:sign_in_confirm", args=[token]))
    assert response.status_code == 400
    assert "expired" in response.text


@pytest.mark.parametrize("kind", ["garbage", "truncated", "other purpose"])
def test_bad_link_shows_a_clear_page(client: Client, account, kind: str) -> None:
    ann = account("ann")
    token = {
        "garbage": "not-a-token:at:all",
        "truncated": tokens.sign_in_token("ann@example.com", None)[:-3],
        # Right key, wrong salt: an address-change link is no sign-in link.
        "other purpose": tokens.email_change_token(ann.pk, "ann@example.com", "ann@example.com"),
    }[kind]
    url = reverse("accounts:sign_in_confirm", args=[token])
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 400
        assert "not valid" in response.text
        assert reverse("accounts:sign_in") in response.text
    assert signed_in_id(client) is None


def test_tampered_address_is_refused(client: Client, account) -> None:
    account("ann")
    account("eve")
    token = tokens.sign_in_token("eve@example.com", None)
    _payload, signature = token.split(":", 1)
    forged_payload = {"email": "ann@example.com", "login": tokens.login_stamp(None)}
    forged = signing.dumps(forged_payload).split(":", 1)[0] + ":" + signature
    response = client.post(reverse("accounts:sign_in_confirm", args=[forged]))
    assert response.status_code == 400
    assert signed_in_id(client) is None


def test_invalid_address_is_explained(client: Client, mailoutbox: list) -> None:
    response = request_link(client, "not an address")
    assert response.status_code == 200
    assert "Enter an email address" in response.text
    assert mailoutbox == []


def test_mail_failure_is_explained(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ConnectionRefusedError

    monkeypatch.setattr(services.EmailMultiAlternatives, "send", broken)
    response = request_link(client, "ann@example.com")
    assert response.status_code == 503
    assert "could not send the email" in response.text


def fresh_link(email: str) -> tokens.SignInLink:
    """A sign-in link for ``email`` made now, as the mail would carry it."""
    user = User.objects.filter(email__iexact=email).first()
    return tokens.SignInLink(email, tokens.login_stamp(user.last_login if user else None))


def test_handles_are_unique(account: Callable[..., User]) -> None:
    account("ann", email="ann@old.example.com")
    user, created = services.sign_in_with_link(fresh_link("ann@example.com"))
    assert created and user.username == "ann2"
    user, created = services.sign_in_with_link(fresh_link("ann@other.example.com"))
    assert created and user.username == "ann3"
    user, created = services.sign_in_with_link(fresh_link("ANN@example.com"))
    assert not created and user.username == "ann2"
    user, _ = services.sign_in_with_link(fresh_link("ü@example.com"))
    assert user.username == "player"


def test_disabled_account_cannot_sign_in(client: Client, account) -> None:
    account("ann", is_active=False)
    url = reverse("accounts:sign_in_confirm", args=[tokens.sign_in_token("ann@example.com", None)])
    response = client.post(url)
    assert response.status_code == 403
    assert "disabled" in response.text
    assert signed_in_id(client) is None


def test_sign_out_requires_post(client: Client, account: Callable[..., User]) -> None:
    ann = account("ann")
    client.force_login(ann)
    url = reverse("accounts:sign_out")
    response = client.get(url)
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert "<button" in response.text
    assert signed_in_id(client) == str(ann.pk)

    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")
    assert signed_in_id(client) is None
