"""A new account is offered a display name read from its address."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import clean_name, name_from_address


@pytest.mark.parametrize(
    ("email", "offered"),
    [
        ("ann.smith@example.com", "Ann Smith"),  # "ann.smith" would read as a domain
        ("ann.smith+games@example.com", "Ann Smith"),
        ("bob@example.com", "Bob"),
        ("jo_mcDuff-2@example.com", "Jo mcDuff 2"),
        ("www@example.com", ""),  # a name the rules refuse is not offered
        ("player3@example.com", ""),
    ],
)
def test_a_name_read_from_the_address(email: str, offered: str) -> None:
    assert name_from_address(email) == offered
    if offered:
        assert clean_name(offered) == offered


def test_the_first_sign_in_asks_a_name_offered_from_the_address(client: Client, db: None) -> None:
    user = User.objects.create_user(username="ann", email="ann.smith@example.com")
    client.force_login(user)
    page = client.get(reverse("accounts:profile"))
    assert 'value="Ann Smith"' in page.content.decode()
    user.display_name = "Annie"
    user.save()
    page = client.get(reverse("accounts:profile"))
    assert 'value="Annie"' in page.content.decode()  # a chosen name is kept
