"""Every kind by email: the "your turn" email shows the seat its own hand and
no other, a reply with a move (Postmark's and Mailgun's webhooks, as they
post) makes it, a reply that is no move is refused, a message sent with a
move reaches the other players' pages and emails escaped, and a "hint" reply
is answered."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client, override_settings

from games.kinds.base import GameKind
from games.mail_in import inbound
from games.mail_out import outbox
from games.models import Game, InboundMail
from tests import leaks
from tests.inbound import esp_payloads
from tests.inbound.inbound_mails import parsed, reply_mime

from .play import a_move, move_form, seat_user, signed_in, text, to_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def esp_webhooks() -> Iterator[None]:
    with override_settings(
        ANYMAIL={
            "WEBHOOK_SECRET": esp_payloads.BASIC_AUTH,
            "MAILGUN_WEBHOOK_SIGNING_KEY": esp_payloads.SIGNING_KEY,
        },
        JUMBULAYA_INBOUND_ESPS=["postmark", "mailgun"],
    ):
        yield


@pytest.mark.usefixtures("esp_webhooks")
def test_replies_by_postmark_and_mailgun_make_moves(
    contract_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = contract_game()
    outbox.sweep()
    esp = Client(enforce_csrf_checks=True)
    for post in ("postmark", "mailgun"):
        seat = to_move(game)
        user = seat_user(game, seat)
        others = {s: hand for s, hand in leaks.hands(game).items() if s != seat}
        for what, body in leaks.emails(user.email):
            assert not leaks.leaks(body, others), what
        reply = esp_payloads.reply_to_turn(game, user, a_move(game, seat))
        before = game.last_seq
        if post == "postmark":
            status = esp_payloads.post_json(esp, esp_payloads.postmark_payload(reply))
        else:
            form = esp_payloads.mailgun_parsed_form(reply)
            status = esp_payloads.post_form(esp, esp_payloads.MAILGUN_INBOUND, form)
        assert status == 200, post
        game.refresh_from_db()
        assert game.last_seq > before, post
        if game.status != Game.Status.PLAYING:
            break
        outbox.sweep()


def test_a_reply_that_is_no_move_is_refused_and_changes_nothing(
    contract_game: Callable[..., Game],
) -> None:
    game = contract_game()
    user = seat_user(game, to_move(game))
    refused = inbound.receive(parsed(reply_mime(game, user, "what a nice game")), via="test")
    assert refused.status == InboundMail.Status.REFUSED
    assert game.events.count() == 1


def test_a_message_with_a_move_reaches_the_others_escaped(
    contract_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    """The players' messages are every kind's: each move form offers one, the
    other players' pages show it, and so does any email the move sends them
    (a sealed round's first crossword sends none)."""
    game = contract_game()
    outbox.sweep()
    seat = to_move(game)
    client = signed_in(seat_user(game, seat))
    assert 'name="message"' in text(client.get(f"/games/{game.pk}/"))
    form = move_form(game, a_move(game, seat), "message") | {"message": "Your go <b>now</b>"}
    assert client.post(f"/games/{game.pk}/move/", form).status_code == 302
    others = [seat_user(game, s) for s in range(game.seat_count) if s != seat]
    for other in others:
        page = text(signed_in(other).get(f"/games/{game.pk}/"))
        assert "Your go &lt;b&gt;now&lt;/b&gt;" in page and "<b>now</b>" not in page
    mailoutbox.clear()
    outbox.sweep()
    for message in [m for m in mailoutbox for u in others if m.to == [u.email]]:
        assert "Your go <b>now</b>" in message.body, message.subject  # plain text: as typed
        html = str(message.alternatives[0][0])
        assert "Your go &lt;b&gt;now&lt;/b&gt;" in html and "<b>now</b>" not in html


def test_a_hint_reply_is_answered(
    kind: GameKind, contract_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    """With hints on (a kind with robots), a ``hint`` reply is answered by
    email with the seat's best moves; otherwise it is told there are none."""
    game = contract_game(hints=kind.robots is not None)
    outbox.sweep()
    seat = to_move(game)
    user = seat_user(game, seat)
    mailoutbox.clear()
    inbound.receive(parsed(reply_mime(game, user, "hint")), via="test")
    outbox.sweep()
    answers = [m for m in mailoutbox if m.to == [user.email]]
    assert answers, "a hint reply is answered"
    others = {s: hand for s, hand in leaks.hands(game).items() if s != seat}
    for message in answers:
        assert not leaks.leaks(message.body, others)
    assert game.events.count() == 1  # a hint makes no move
