"""The profile page: name and time zone, and changing the address by a link
sent to the new one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.test import Client
from django.urls import reverse

from accounts import services, tokens
from accounts.models import User

pytestmark = pytest.mark.django_db

PROFILE = reverse("accounts:profile")
Account = Callable[..., User]
LinkIn = Callable[[EmailMessage], str]


def save_profile(client: Client, name: str, tz: str) -> object:
    return client.post(
        PROFILE,
        {"action": "profile", "profile-display_name": name, "profile-time_zone": tz},
    )


def ask_for_change(client: Client, new_email: str) -> object:
    return client.post(PROFILE, {"action": "email", "email-new_email": new_email})


def test_profile_needs_sign_in(client: Client) -> None:
    response = client.get(PROFILE)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:sign_in')}?next={PROFILE}"


def test_profile_shows_own_address_only(client: Client, account: Account) -> None:
    ann = account("ann")
    account("bob")
    client.force_login(ann)
    response = client.get(PROFILE)
    assert response.status_code == 200
    assert "ann@example.com" in response.text
    assert "bob@example.com" not in response.text
    assert '<option value="Europe/Paris">Europe/Paris</option>' in response.text
    assert '<option value="America/New_York">America/New York</option>' in response.text
    assert f'href="{reverse("games:email_preferences")}"' in response.text


def test_profile_update(client: Client, account: Account) -> None:
    ann = account("ann")
    client.force_login(ann)
    response = save_profile(client, "  Annie B.  ", "Europe/Paris")
    assert response.status_code == 302
    assert response["Location"] == PROFILE
    ann.refresh_from_db()
    assert (ann.display_name, ann.time_zone) == ("Annie B.", "Europe/Paris")
    assert "Your profile is saved." in client.get(PROFILE).text


@pytest.mark.parametrize(
    ("name", "tz", "error"),
    [
        ("Ann", "Mars/Olympus_Mons", "Choose a time zone from the list"),
        ("Ann", "", "Choose your time zone."),
        ("   ", "UTC", "Enter the name other players will see."),
        ("x" * 41, "UTC", "40 characters or fewer"),
    ],
)
def test_profile_validation(
    client: Client, account: Account, name: str, tz: str, error: str
) -> None:
    ann = account("ann")
    client.force_login(ann)
    response = save_profile(client, name, tz)
    assert response.status_code == 400
    assert error in response.text
    ann.refresh_from_db()
    assert (ann.display_name, ann.time_zone) == ("Ann", "UTC")
    # The header still shows the saved name, not the refused one.
    assert '<a href="/account/profile/">Ann</a>' in response.text


def test_update_profile_service_validates(account: Account) -> None:
    ann = account("ann")
    with pytest.raises(ValidationError):
        services.update_profile(ann, display_name="", time_zone="UTC")
    with pytest.raises(ValidationError):
        services.update_profile(ann, display_name="Ann", time_zone="Nowhere/Else")


def test_email_change_flow(client: Client, account: Account, mailoutbox, link_in: LinkIn) -> None:
    ann = account("ann")
    client.force_login(ann)
    response = ask_for_change(client, "Ann.New@Example.org")
    assert response.status_code == 302
    assert "We sent a confirmation link to ann.new@example.org" in client.get(PROFILE).text
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["ann.new@example.org"]
    link = link_in(message)
    assert link.startswith("/account/email/")

    page = client.get(link)
    assert page.status_code == 200
    assert "ann.new@example.org" in page.text and "<button" in page.text
    ann.refresh_from_db()
    assert ann.email == "ann@example.com"  # GET changes nothing

    response = client.post(link)
    assert response.status_code == 302
    assert response["Location"] == PROFILE
    ann.refresh_from_db()
    assert ann.email == "ann.new@example.org"
    assert client.session[SESSION_KEY] == str(ann.pk)
    assert "Your address is now ann.new@example.org." in client.get(PROFILE).text


def test_email_change_to_own_address_is_refused(client: Client, account: Account, mailoutbox):
    client.force_login(account("ann"))
    response = ask_for_change(client, "ANN@example.com")
    assert response.status_code == 400
    assert "That is already your address." in response.text
    assert mailoutbox == []


def test_email_change_to_a_taken_address_does_not_say_so(
    client: Client, account: Account, mailoutbox, link_in: LinkIn
) -> None:
    """The page answers as for a free address; the mail to that address explains."""
    client.force_login(account("ann"))
    account("bob")
    response = ask_for_change(client, "bob@example.com")
    assert response.status_code == 302
    assert "We sent a confirmation link to bob@example.com" in client.get(PROFILE).text
    body = str(mailoutbox[0].body)
    assert "already has an account" in body
    assert "/account/email/" not in body
    assert link_in(mailoutbox[0]) == reverse("accounts:sign_in")


def test_email_taken_meanwhile(
    client: Client, account: Account, mailoutbox, link_in: LinkIn
) -> None:
    ann = account("ann")
    client.force_login(ann)
    ask_for_change(client, "shared@example.com")
    link = link_in(mailoutbox[0])
    account("bob", email="shared@example.com")  # someone else gets there first
    response = client.post(link)
    assert response.status_code == 409
    assert "That address now belongs to another account" in response.text
    ann.refresh_from_db()
    assert ann.email == "ann@example.com"


def test_email_link_for_another_user(client: Client, account: Account) -> None:
    ann = account("ann")
    bob = account("bob")
    link = reverse(
        "accounts:confirm_email",
        args=[tokens.email_change_token(ann.pk, ann.email, "x@example.com")],
    )
    client.force_login(bob)
    for response in (client.get(link), client.post(link)):
        assert response.status_code == 403
        assert "made for a different account" in response.text
    bob.refresh_from_db()
    ann.refresh_from_db()
    assert (ann.email, bob.email) == ("ann@example.com", "bob@example.com")


def test_email_link_when_signed_out_goes_to_sign_in(client: Client, account: Account) -> None:
    ann = account("ann")
    link = reverse(
        "accounts:confirm_email",
        args=[tokens.email_change_token(ann.pk, ann.email, "x@example.com")],
    )
    for response in (client.get(link), client.post(link)):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:sign_in") + "?next=")
    ann.refresh_from_db()
    assert ann.email == "ann@example.com"


def test_email_link_bad_or_expired(client: Client, account: Account, monkeypatch) -> None:
    ann = account("ann")
    client.force_login(ann)
    bad = reverse("accounts:confirm_email", args=["junk"])
    response = client.post(bad)
    assert response.status_code == 400
    assert "not valid" in response.text

    with monkeypatch.context() as m:
        real = signing.TimestampSigner.timestamp
        four_days = 4 * 24 * 3600
        m.setattr(
            signing.TimestampSigner,
            "timestamp",
            lambda self: signing.b62_encode(signing.b62_decode(real(self)) - four_days),
        )
        token = tokens.email_change_token(ann.pk, ann.email, "x@example.com")
    response = client.post(reverse("accounts:confirm_email", args=[token]))
    assert response.status_code == 400
    assert "expired" in response.text
    ann.refresh_from_db()
    assert ann.email == "ann@example.com"


def test_email_change_is_rate_limited(
    client: Client, account: Account, mailoutbox, settings
) -> None:
    """Confirmations count against the same limits as sign-in links, by mailbox."""
    client.force_login(account("ann"))
    limit = settings.JUMBULAYA_ACCOUNT_MAILS_PER_ADDRESS
    for n in range(limit):
        assert ask_for_change(client, f"target+{n}@example.com").status_code == 302
    response = ask_for_change(client, "Target@example.com")
    assert response.status_code == 429
    assert "already sent several emails to that address" in response.text
    assert len(mailoutbox) == limit
    # A sign-in link to that mailbox is one more account mail to it.
    response = Client().post(reverse("accounts:sign_in"), {"email": "target@example.com"})
    assert response.status_code == 429


def test_unknown_profile_action(client: Client, account: Account) -> None:
    client.force_login(account("ann"))
    response = client.post(PROFILE, {"action": "what"}, follow=True)
    assert response.status_code == 200
    assert "Something went wrong with that form" in response.text


def test_an_email_link_works_once(
    client: Client, account: Account, mailoutbox, link_in: LinkIn
) -> None:
    """Used, or overtaken by a later change, a confirmation link changes nothing."""
    ann = account("ann")
    client.force_login(ann)
    ask_for_change(client, "b@example.com")
    to_b = link_in(mailoutbox[-1])
    assert client.post(to_b).status_code == 302
    for response in (client.get(to_b), client.post(to_b)):
        assert response.status_code == 410
        assert "already been used: your address is b@example.com" in response.text

    ask_for_change(client, "c@example.com")
    assert client.post(link_in(mailoutbox[-1])).status_code == 302
    for response in (client.get(to_b), client.post(to_b)):
        assert response.status_code == 410
        assert "your address has changed since it was sent" in response.text
    ann.refresh_from_db()
    assert ann.email == "c@example.com"


def test_of_two_email_links_only_the_first_used_works(
    client: Client, account: Account, mailoutbox, link_in: LinkIn
) -> None:
    ann = account("ann")
    client.force_login(ann)
    ask_for_change(client, "b@example.com")
    ask_for_change(client, "c@example.com")
    to_b, to_c = (link_in(m) for m in mailoutbox)
    assert client.post(to_c).status_code == 302
    response = client.post(to_b)
    assert response.status_code == 410
    ann.refresh_from_db()
    assert ann.email == "c@example.com"


def test_two_email_links_racing_change_the_address_once(
    account: Account, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other tab's change lands between this one's check and its write."""
    ann = account("ann")
    to_b = tokens.EmailChangeLink(ann.pk, "b@example.com", tokens.address_stamp(ann.email))
    to_c = tokens.EmailChangeLink(ann.pk, "c@example.com", tokens.address_stamp(ann.email))
    real_check = services.email_change_link_is_current

    def check_then_rival(user: User, link: tokens.EmailChangeLink) -> bool:
        current = real_check(user, link)
        monkeypatch.setattr(services, "email_change_link_is_current", real_check)
        services.change_email(User.objects.get(pk=user.pk), to_c)
        return current

    monkeypatch.setattr(services, "email_change_link_is_current", check_then_rival)
    with pytest.raises(services.EmailLinkUsed):
        services.change_email(ann, to_b)
    ann.refresh_from_db()
    assert ann.email == "c@example.com"


def test_the_page_showing_a_new_token_is_never_stored(client: Client, account: Account) -> None:
    """The token is shown on that answer alone: no cache (the browser's, a
    proxy's) may keep it, nor keep the profile page with the address on it."""
    client.force_login(account("ann"))
    made = client.post(PROFILE, {"action": "token", "token_name": "my bot"})
    assert made.status_code == 200 and "data-new-token" in made.text
    for response in (made, client.get(PROFILE)):
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"no-store", "private"} <= directives
