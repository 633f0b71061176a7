"""The local mailbox: the embedded default keeps every email and shows it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from devmail.models import Message

pytestmark = pytest.mark.django_db


@pytest.fixture
def mailbox(settings: Any) -> None:
    settings.JUMBULAYA_MAILBOX = True
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}


def send_one() -> None:
    email = EmailMultiAlternatives(
        subject="Your turn in game 7",
        body="## Reply above this line ##\nhttp://127.0.0.1:8000/games/7/",
        from_email="Jumbulaya <jumbulaya@localhost>",
        to=["ann@example.com"],
        headers={"Auto-Submitted": "auto-generated"},
    )
    email.attach_alternative("<p>Your turn</p>", "text/html")
    email.send()


def test_the_backend_keeps_every_message(mailbox: None) -> None:
    send_one()
    kept = Message.objects.get()
    assert kept.subject == "Your turn in game 7"
    assert kept.to == "ann@example.com"
    assert kept.html == "<p>Your turn</p>"
    assert kept.headers["Auto-Submitted"] == "auto-generated"
    assert kept.message_id.startswith("<") and "Message-ID: " + kept.message_id in kept.raw
    assert mail.outbox == []  # nothing left the machine


def test_the_mailbox_page_lists_filters_and_shows_messages(mailbox: None, client: Client) -> None:
    send_one()
    page = client.get("/dev/mailbox/")
    assert page.status_code == 200 and "Your turn in game 7" in page.content.decode()
    assert "Your turn in game 7" not in client.get("/dev/mailbox/?to=bob").content.decode()
    shown = client.get(f"/dev/mailbox/{Message.objects.get().pk}/").content.decode()
    assert 'href="http://127.0.0.1:8000/games/7/"' in shown  # links are clickable


def test_the_mailbox_is_off_unless_enabled(settings: Any, client: Client) -> None:
    settings.JUMBULAYA_MAILBOX = False
    assert client.get("/dev/mailbox/").status_code == 404
    assert client.get("/dev/mailbox/1/").status_code == 404
