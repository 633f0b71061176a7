"""Names people type: one check (accounts.names.clean_name) refuses control
characters, invisible and look-alike tricks, links and addresses, and every way
a name is stored goes through it (the profile page, the service, the admin)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts import services
from accounts.models import User
from accounts.names import clean_name, look_alike, shown_name

Account = Callable[..., User]
PROFILE = reverse("accounts:profile")
INJECTION = "Dave\r\nBcc: evil@x.example"
#: What no accepted name holds.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Ann", "Ann"),
        ("  Annie   B.  ", "Annie B."),
        ("Ann\u00a0Lee", "Ann Lee"),  # a no-break space is a space
        ("\uff22\uff4f\uff42", "Bob"),  # fullwidth letters, NFKC
        ("Zoe\u0308", "Zo\u00eb"),  # composed
        ("J.R.R. Tolkien", "J.R.R. Tolkien"),
        ("Dr. Who", "Dr. Who"),
        ("Pi 3.14", "Pi 3.14"),
        ("O'Brien-Smith", "O'Brien-Smith"),
        ("Иван Petrov", "Иван Petrov"),  # two scripts, each word in one
        ("山田ローラ", "山田ローラ"),  # Han and Katakana are written together
        ("Kim 김", "Kim 김"),
        ("Nguyễn Văn Ánh", "Nguyễn Văn Ánh"),
        ("हिन्दी", "हिन्दी"),  # vowel signs and a virama: marks, not a stack
        ("<3 Ann ♥", "<3 Ann ♥"),
    ],
)
def test_names_people_have_are_accepted(typed: str, stored: str) -> None:
    assert clean_name(typed) == stored


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        (INJECTION, "invisible"),  # CR LF: lines and headers in emails
        ("Dave\nBcc: x", "invisible"),
        ("Ann\x00", "invisible"),
        ("Ann\tLee", "invisible"),
        ("Ann\x1b[31m", "invisible"),
        ("Ann\u2028Lee", "invisible"),  # line separator
        ("Ann\u2029Lee", "invisible"),  # paragraph separator
        ("An\u200bn", "invisible"),  # zero-width space
        ("An\u200dn", "invisible"),  # zero-width joiner
        ("\u202eAnn", "invisible"),  # right-to-left override
        ("Ann\u2066", "invisible"),  # left-to-right isolate
        ("Ann\u00ad", "invisible"),  # soft hyphen
        ("Ann\ue000", "invisible"),  # private use
        ("Ann\u0378", "invisible"),  # unassigned
        ("Ann\ud800", "invisible"),  # a lone surrogate
        ("\u3164", "invisible"),  # Hangul filler: a name that looks empty
        ("Ann\u2800", "invisible"),  # blank Braille pattern
        ("Z\u0301\u0302\u0303\u0304\u0305\u0306algo", "marks"),  # Zalgo
        ("Ann \u0301", "marks"),  # a mark on nothing
        ("", "required"),
        ("   ", "required"),
        ("...", "no_letters"),
        ("-- !! --", "no_letters"),
        ("x" * 41, "max_length"),
        ("http://evil.example", "link"),
        ("https://x", "link"),
        ("www.example", "link"),
        ("WWW dot example", "link"),
        ("example.com", "link"),
        ("evil.example", "link"),
        ("Ann (visit evil.example)", "link"),
        ("bit.ly/x", "link"),
        ("x . com", "link"),
        ("x .com", "link"),
        ("evil. com", "link"),
        ("evil dot com", "link"),
        ("evil(dot)com", "link"),
        ("evil [dot] example", "link"),
        ("\uff45\uff56\uff49\uff4c\uff0e\uff43\uff4f\uff4d", "link"),  # fullwidth evil.com
        ("evil\u3002com", "link"),  # ideographic full stop
        ("10.0.0.1", "link"),
        ("ann@home", "link"),
        ("@ann", "link"),
        ("\u0430nn", "mixed_script"),  # Cyrillic a in a Latin name
        ("Ann\u0430", "mixed_script"),
        ("B\u03bfb", "mixed_script"),  # Greek omicron
        ("\u0440\u0430\u0443\u0440\u0430l", "mixed_script"),  # "paypal", Cyrillic but the l
        ("You", "reserved"),  # what the dashboard calls you
        ("Y0u", "reserved"),
        ("player 12", "reserved"),  # what a player without a name is called
        ("Seat 2", "reserved"),
        ("(free seat)", "reserved"),
    ],
)
def test_tricks_are_refused_with_a_reason(typed: str, code: str) -> None:
    with pytest.raises(ValidationError) as refused:
        clean_name(typed)
    assert refused.value.code == code
    assert refused.value.messages[0].endswith(".")  # a sentence for people


def test_a_refusal_names_the_invisible_character() -> None:
    with pytest.raises(ValidationError) as refused:
        clean_name("An\u200bn")
    assert "U+200B ZERO WIDTH SPACE" in refused.value.messages[0]


def test_a_refusal_names_the_look_alike_letter() -> None:
    with pytest.raises(ValidationError) as refused:
        clean_name("\u0430nn")
    assert "U+0430 CYRILLIC SMALL LETTER A looks like a Latin letter" in refused.value.messages[0]


#: Text with the characters the rules are about in it, and anything else.
_TRICKY = st.sampled_from(list("Ann .com@:/wh\r\n\t\x00\u200b\u202e\u0301\u0430\u3002\uff0e\u2028"))
NAMES = st.one_of(st.text(max_size=60), st.text(alphabet=_TRICKY, max_size=30))


@given(NAMES)
def test_no_accepted_name_holds_a_control_or_invisible_character(typed: str) -> None:
    try:
        name = clean_name(typed)
    except ValidationError:
        return
    assert not any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in name)
    assert name == " ".join(name.split()) and 1 <= len(name) <= 40
    assert "@" not in name and "://" not in name
    assert unicodedata.is_normalized("NFKC", name)
    assert clean_name(name) == name  # what is stored passes again, unchanged


@given(NAMES)
def test_shown_names_are_accepted_names(stored: str) -> None:
    shown = shown_name(stored)
    assert shown is None or clean_name(stored) == shown


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("Bob", "B0b", True),
        ("Ann", "ann", True),
        ("Ann", "Ann.", True),
        ("Al", "AI", True),
        ("Bill", "Bi11", True),
        ("Ann", "Anne", False),
        ("Ann", "Bob", False),
    ],
)
def test_look_alike_names(a: str, b: str, alike: bool) -> None:
    assert look_alike(a, b) is alike


# --- every way a name is stored ------------------------------------------------


def save_name(client: Client, name: str) -> object:
    return client.post(
        PROFILE,
        {"action": "profile", "profile-display_name": name, "profile-time_zone": "UTC"},
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (INJECTION, "A name cannot hold a control character"),
        ("evil.example", "cannot look like a web address or a domain"),
        ("\u0430nn", "mixes alphabets"),
        ("\u202eAnn", "invisible formatting character"),
    ],
)
def test_the_profile_page_refuses_tricks(
    client: Client, account: Account, typed: str, said: str
) -> None:
    ann = account("ann")
    client.force_login(ann)
    response = save_name(client, typed)
    assert response.status_code == 400
    assert said in response.content.decode()
    ann.refresh_from_db()
    assert ann.display_name == "Ann"


@pytest.mark.django_db
def test_the_profile_page_stores_the_name_normalised(client: Client, account: Account) -> None:
    ann = account("ann")
    client.force_login(ann)
    assert save_name(client, "  \uff21nn   Lee ").status_code == 302
    ann.refresh_from_db()
    assert ann.display_name == "Ann Lee"


@pytest.mark.django_db
def test_the_service_refuses_what_the_form_refuses(account: Account) -> None:
    """A command or a task calling the service cannot store a refused name."""
    ann = account("ann")
    for typed in (INJECTION, "www.example.com", "\u0430nn"):
        with pytest.raises(ValidationError):
            services.update_profile(ann, display_name=typed, time_zone="UTC")
    ann.refresh_from_db()
    assert ann.display_name == "Ann"
    services.update_profile(ann, display_name=" Ann  Lee ", time_zone="UTC")
    ann.refresh_from_db()
    assert ann.display_name == "Ann Lee"


@pytest.mark.django_db
def test_staff_pages_refuse_tricks_too(client: Client, account: Account) -> None:
    staff = account("boss", is_staff=True, is_superuser=True)
    cy = account("cy")
    client.force_login(staff)
    change = reverse("admin:accounts_user_change", args=[cy.pk])
    form = {
        "email": cy.email,
        "username": cy.username,
        "display_name": INJECTION,
        "time_zone": "UTC",
        "email_mode": "every",
        "digest_hour": "8",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
    }
    response = client.post(change, form)
    assert response.status_code == 200  # the form again, with the error
    assert "A name cannot hold a control character" in response.content.decode()
    cy.refresh_from_db()
    assert cy.display_name == "Cy"
    response = client.post(change, form | {"display_name": " Cy  Young "})
    assert response.status_code == 302
    cy.refresh_from_db()
    assert cy.display_name == "Cy Young"
    added = client.post(
        reverse("admin:accounts_user_add"),
        {
            "email": "di@example.com",
            "username": "di",
            "display_name": "di.example",
            "usable_password": "false",
        },
    )
    assert added.status_code == 200
    assert not User.objects.filter(username="di").exists()
