"""Reply addresses: a signed, case-proof token naming user and game."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from games.mail_out.reply_addresses import (
    ReplyToken,
    find_token,
    reply_address,
    reply_token,
    verify,
)


@override_settings(JUMBULAYA_INBOUND_DOMAIN="in.example.com", JUMBULAYA_INBOUND_LOCAL="play")
def test_the_address_names_user_and_game_and_verifies() -> None:
    addr = reply_address(34, 12)
    local, _, domain = addr.partition("@")
    assert domain == "in.example.com"
    assert local.startswith("play+g12u34k")
    assert len(local) <= 64  # RFC 5321's limit on a local part
    assert verify(addr) == ReplyToken(game_id=12, user_id=34)
    assert verify(addr.upper()) == ReplyToken(game_id=12, user_id=34)  # case changed in transit


@pytest.mark.parametrize(
    "forged",
    [
        lambda t: t.replace("g12", "g13"),  # another game, same signature
        lambda t: t.replace("u34", "u35"),  # another user
        lambda t: t[:-1] + ("a" if t[-1] != "a" else "b"),  # signature changed
        lambda t: t[:-2],  # cut short
    ],
)
def test_a_changed_token_does_not_verify(forged: object) -> None:
    token = reply_token(34, 12)
    assert callable(forged)
    assert verify(forged(token)) is None


def test_the_token_depends_on_the_secret_key() -> None:
    token = reply_token(34, 12)
    with override_settings(SECRET_KEY="another-key"):
        assert verify(token) is None


def test_a_token_signed_before_the_key_was_rotated_still_verifies(settings: Any) -> None:
    old = settings.SECRET_KEY
    token = reply_token(34, 12)
    with override_settings(SECRET_KEY="the-new-key", SECRET_KEY_FALLBACKS=[old]):
        assert verify(token) == ReplyToken(game_id=12, user_id=34)
        assert verify(reply_token(34, 12)) == ReplyToken(game_id=12, user_id=34)
    with override_settings(SECRET_KEY="the-new-key", SECRET_KEY_FALLBACKS=["yet-another"]):
        assert verify(token) is None


@override_settings(JUMBULAYA_INBOUND_DOMAIN="in.example.com")
def test_find_token_reads_our_domain_then_references() -> None:
    token = reply_token(7, 3)
    mid = f"<game-3.5.your_turn.9.{token}@jumbulaya.example>"
    assert find_token([f"play+{token}@in.example.com"], []) == ReplyToken(3, 7)
    # only addresses at the inbound domain count; elsewhere the token is ignored
    assert find_token([f"play+{token}@elsewhere.example"], []) is None
    # a reply to the From address still names the email it answers
    assert find_token(["jumbulaya@example.com"], [mid]) == ReplyToken(3, 7)
    assert find_token(["jumbulaya@example.com"], ["<abc@mail.gmail.com>"]) is None


def test_the_deploy_check_asks_for_a_webhook_secret() -> None:
    from games.checks import inbound_webhooks_have_credentials

    with override_settings(ANYMAIL={}, JUMBULAYA_INBOUND_ESPS=["postmark"]):
        (warning,) = inbound_webhooks_have_credentials()
        assert warning.id == "games.W001"
    with override_settings(
        ANYMAIL={"WEBHOOK_SECRET": "user:secret"}, JUMBULAYA_INBOUND_ESPS=["postmark"]
    ):
        assert inbound_webhooks_have_credentials() == []
    # No webhook answers at all: nothing to protect.
    with override_settings(ANYMAIL={}, JUMBULAYA_INBOUND_ESPS=[]):
        assert inbound_webhooks_have_credentials() == []


def test_the_deploy_check_warns_of_an_open_mailbox() -> None:
    from games.checks import the_local_mailbox_is_off

    with override_settings(JUMBULAYA_MAILBOX=True, DEBUG=False):
        (warning,) = the_local_mailbox_is_off()
        assert warning.id == "games.W002"
    for mailbox, debug in [(False, False), (True, True)]:
        with override_settings(JUMBULAYA_MAILBOX=mailbox, DEBUG=debug):
            assert the_local_mailbox_is_off() == []
