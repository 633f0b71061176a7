"""Messages by email, as the ESPs post replies: the text after the move line
(above the quoted part) goes to everyone in the game with the move; a reply
whose first line starts with ``say`` is a message alone; quoted history is
never a message."""

from __future__ import annotations

import dataclasses

import pytest
from django.core import mail
from django.test import Client
from esp_payloads import (
    MAILGUN_INBOUND_MIME,
    Reply,
    mailgun_mime_form,
    post_form,
    post_json,
    postmark_payload,
    reply_to_turn,
)
from inbound_mails import mover, waiting

from accounts.models import User
from games.mail_out import outbox
from games.mail_out.reply_addresses import reply_address
from games.models import Event, Game, InboundMail, Message

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]

HTML = '<b>well</b> <script>alert("x")</script>'
ESCAPED = "&lt;b&gt;well&lt;/b&gt; &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"


def html_part(message: mail.EmailMessage) -> str:
    assert isinstance(message, mail.EmailMultiAlternatives)
    return next(str(c) for c, mime in message.alternatives if mime == "text/html")


def with_body(reply: Reply, top: str) -> Reply:
    """``reply`` with ``top`` written above its quoted history."""
    quoted = reply.text.split("\n", 1)[1]
    return dataclasses.replace(reply, text=f"{top}\n{quoted}", html="")


def post(client: Client, reply: Reply, esp: str) -> None:
    if esp == "postmark":
        assert post_json(client, postmark_payload(reply)) == 200
    else:
        assert post_form(client, MAILGUN_INBOUND_MIME, mailgun_mime_form(reply)) == 200


@pytest.mark.parametrize("esp", ["postmark", "mailgun"])
def test_the_text_after_the_move_line_goes_with_the_move(
    client: Client, two_player: Game, esp: str
) -> None:
    game = two_player
    outbox.sweep()
    user, other = mover(game), waiting(game)
    reply = with_body(reply_to_turn(game, user, "pass"), f"pass\nGood luck!\n{HTML}\n")
    post(client, reply, esp)
    game.refresh_from_db()
    assert InboundMail.objects.get().status == InboundMail.Status.MOVED
    [message] = Message.objects.all()
    assert message.text == f"Good luck!\n{HTML}"
    assert message.seq == game.last_seq == 2
    assert message.source == Message.Source.EMAIL
    # Nothing quoted was taken: the turn email's lines are not in it.
    assert "Reply above this line" not in message.text and "wrote:" not in message.text
    # It goes in the other player's next email, escaped in the HTML part.
    mail.outbox.clear()
    outbox.sweep()
    [email] = [m for m in mail.outbox if other.email in m.to and "your turn" in m.subject]
    assert f"- {user.public_name}: Good luck!\n{HTML}" in email.body
    html = html_part(email)
    assert ESCAPED in html and "<script>alert" not in html


@pytest.mark.parametrize("esp", ["postmark", "mailgun"])
def test_a_say_reply_is_a_message_alone(client: Client, two_player: Game, esp: str) -> None:
    game = two_player
    user = waiting(game)  # not their turn: a message needs none
    reply = with_body(reply_to_turn_of(game, user), f"Say: Hello {HTML}\nsee you\n")
    seq = game.last_seq
    post(client, reply, esp)
    game.refresh_from_db()
    assert game.last_seq == seq and Event.objects.filter(game=game).count() == seq
    row = InboundMail.objects.get()
    assert row.status == InboundMail.Status.SAID and row.move == ""
    [message] = Message.objects.all()
    assert message.text == f"Hello {HTML}\nsee you"
    page = Client()
    page.force_login(mover(game))
    log = page.get(f"/games/{game.pk}/").content.decode().split('id="log-title"')[1]
    assert f"Hello {ESCAPED}" in log


def reply_to_turn_of(game: Game, user: User) -> Reply:
    """A reply from the player who is not to move, to their own reply address
    (as their game-started email carries it)."""
    mover_reply = reply_to_turn(game, mover(game), "pass")
    return dataclasses.replace(
        mover_reply,
        sender=user.email,
        sender_name="",
        to=reply_address(user.pk, game.pk),
    )


def test_quoted_history_is_never_a_message(client: Client, two_player: Game) -> None:
    game = two_player
    user = mover(game)
    reply = reply_to_turn(game, user, "pass")  # the move, then only the quoted email
    post(client, reply, "postmark")
    assert InboundMail.objects.get().status == InboundMail.Status.MOVED
    assert not Message.objects.exists()


def test_a_long_message_by_email_is_cut_and_the_move_stands(
    client: Client, two_player: Game, settings: object
) -> None:
    settings.JUMBULAYA_MESSAGE_MAX_CHARS = 20  # type: ignore[attr-defined]
    game = two_player
    reply = with_body(reply_to_turn(game, mover(game), "pass"), "pass\n" + "word " * 30)
    post(client, reply, "postmark")
    assert InboundMail.objects.get().status == InboundMail.Status.MOVED
    [message] = Message.objects.all()
    assert len(message.text) <= 20 and message.text.endswith("…")
