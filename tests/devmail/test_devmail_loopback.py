"""The local mailbox shows every email the site sends, sign-in links too, so it
answers this machine only: a request from another address (or relayed by a
proxy) is a 404 and changes nothing, and the run refuses to start bound to
an address others can reach, unless JUMBULAYA_DEV_MAILBOX_PUBLIC=1 asks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from devmail.loopback import refuse_public_bind
from devmail.models import Message
from games.models import MailEvent

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mail(settings: Any) -> Message:
    settings.JUMBULAYA_MAILBOX = True
    settings.JUMBULAYA_DEV_MAILBOX_PUBLIC = False
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    email = EmailMultiAlternatives(
        subject="Your Jumbulaya sign-in link",
        body="http://127.0.0.1:8000/account/sign-in/secret-token/",
        to=["ann@example.com"],
    )
    email.attach_alternative("<p>Sign in</p>", "text/html")
    email.send()
    return Message.objects.get()


def pages(mail: Message) -> list[str]:
    return [
        "/dev/mailbox/",
        f"/dev/mailbox/news/?after={mail.pk - 1}",
        f"/dev/mailbox/{mail.pk}/",
        f"/dev/mailbox/{mail.pk}/html/",
    ]


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"])
def test_the_mailbox_answers_this_machine(mail: Message, address: str) -> None:
    client = Client(REMOTE_ADDR=address)
    for path in pages(mail):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize(
    ("address", "headers"),
    [
        ("192.0.2.7", {}),
        ("10.0.0.2", {}),
        ("2001:db8::1", {}),
        ("not an address", {}),
        # A proxy on this machine relays someone else's request.
        ("127.0.0.1", {"HTTP_X_FORWARDED_FOR": "192.0.2.7"}),
        ("127.0.0.1", {"HTTP_FORWARDED": "for=192.0.2.7"}),
        ("127.0.0.1", {"HTTP_X_REAL_IP": "192.0.2.7"}),
    ],
)
def test_the_mailbox_is_a_404_to_anyone_else_and_changes_nothing(
    mail: Message, address: str, headers: dict[str, str]
) -> None:
    client = Client(REMOTE_ADDR=address, **headers)
    for path in pages(mail):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "secret-token" not in answer.content.decode()
    assert client.post(f"/dev/mailbox/{mail.pk}/report/", {"action": "bounce"}).status_code == 404
    assert client.post(f"/dev/mailbox/{mail.pk}/reply/", {"body": "pass"}).status_code == 404
    assert not MailEvent.objects.exists()
    assert Message.objects.count() == 1  # no reply went through


def test_the_mailbox_answers_anyone_when_asked(mail: Message, settings: Any) -> None:
    settings.JUMBULAYA_DEV_MAILBOX_PUBLIC = True
    client = Client(REMOTE_ADDR="192.0.2.7")
    for path in pages(mail):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.5", ""])
def test_a_run_bound_to_this_machine_starts(settings: Any, host: str) -> None:
    settings.JUMBULAYA_MAILBOX = True
    settings.JUMBULAYA_DEV_MAILBOX_PUBLIC = False
    refuse_public_bind(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]", "192.0.2.7", "example.com"])
def test_a_run_bound_to_others_refuses_to_start(settings: Any, host: str) -> None:
    settings.JUMBULAYA_MAILBOX = True
    settings.JUMBULAYA_DEV_MAILBOX_PUBLIC = False
    with pytest.raises(ImproperlyConfigured) as refused:
        refuse_public_bind(host)
    said = str(refused.value)
    assert f"RUN_HOST={host!r}" in said and "JUMBULAYA_DEV_MAILBOX_PUBLIC=1" in said
    settings.JUMBULAYA_DEV_MAILBOX_PUBLIC = True
    refuse_public_bind(host)  # asked for
    settings.JUMBULAYA_DEV_MAILBOX_PUBLIC = False
    settings.JUMBULAYA_MAILBOX = False
    refuse_public_bind(host)  # no mailbox to show


def manage_check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"RUN_HOST", "JUMBULAYA_MAILBOX", "JUMBULAYA_DEV_MAILBOX_PUBLIC"}
    }
    environ |= {"DJANGO_DEBUG": "1", "JUMBULAYA_VAR_DIR": str(tmp_path), **env}
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_the_processes_make_run_starts_refuse_a_public_address(tmp_path: Path) -> None:
    """``make run HOST=0.0.0.0`` gives every process RUN_HOST (Procfile.dev):
    each stops at its start, saying why and what to do."""
    refused = manage_check(tmp_path, RUN_HOST="0.0.0.0")
    assert refused.returncode != 0
    assert "ImproperlyConfigured" in refused.stderr
    assert "JUMBULAYA_DEV_MAILBOX_PUBLIC=1" in refused.stderr
    assert manage_check(tmp_path, RUN_HOST="127.0.0.1").returncode == 0
    asked = manage_check(tmp_path, RUN_HOST="0.0.0.0", JUMBULAYA_DEV_MAILBOX_PUBLIC="1")
    assert asked.returncode == 0, asked.stderr
