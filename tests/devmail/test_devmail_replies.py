"""Answering game emails from the local mailbox: the reply form writes the
email a mail client would and hands it to the path an ESP's webhook feeds,
so a whole game can be played by email on one machine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from accounts.models import User
from accounts.services import send_sign_in_link
from devmail.models import Message
from devmail.replies import quoted
from games.core import projection
from games.engine.jumbulaya import legal_moves
from games.mail_out import outbox
from games.mail_out.reply_addresses import reply_address
from games.models import Event, Game, InboundMail, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def mailbox(settings: Any) -> None:
    settings.JUMBULAYA_MAILBOX = True
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}


@pytest.fixture
def game(mailbox: None, started_game: Callable[..., Game]) -> Game:
    """A two-player game whose first emails are in the mailbox."""
    game = started_game(players=2)
    outbox.sweep()
    return game


def turn_user(game: Game) -> User:
    game.refresh_from_db()
    assert game.turn_seat is not None
    user = Seat.objects.get(game=game, index=game.turn_seat).user
    assert user is not None
    return user


def latest_turn_email(user: User) -> Message:
    """The newest "your turn" email in ``user``'s mailbox."""
    mail = Message.objects.filter(to=user.email, message_id__contains=".your_turn.").first()
    assert mail is not None, f"{user.email} has a turn email"
    return mail


def answer(client: Client, mail: Message, move: str) -> Message:
    """Write ``move`` above the quoted email in the reply form, send it, and
    send what the outbox owes; the reply as the mailbox kept it."""
    newest = Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    response = client.post(f"/dev/mailbox/{mail.pk}/reply/", {"body": move + quoted(mail)})
    assert response.status_code == 302
    (reply,) = replies_to(mail, after=newest)
    outbox.sweep()
    return reply


def replies_to(mail: Message, after: int = 0) -> list[Message]:
    """The messages in ``mail``'s thread that answer it directly."""
    newer = Message.objects.filter(pk__gt=after).order_by("pk")
    return [m for m in newer if m.headers.get("In-Reply-To") == mail.message_id]


def a_word(game: Game) -> str:
    state = projection.current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, projection.game_lexicon(game))
    assert moves, "there is a word to play"
    return moves[0].notation()


def test_a_turn_email_shows_the_reply_form(game: Game, client: Client) -> None:
    ann = turn_user(game)
    mail = latest_turn_email(ann)
    assert mail.headers["Reply-To"] == reply_address(ann.pk, game.pk)
    page = client.get(f"/dev/mailbox/{mail.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'action="/dev/mailbox/{mail.pk}/reply/"' in html
    assert escape(reply_address(ann.pk, game.pk)) in html
    # The textarea holds the email quoted, as a mail client's reply would.
    assert f'aria-label="Your reply">{escape(quoted(mail))}</textarea>' in html
    assert "&gt; ## Reply above this line ##" in html


def test_a_reply_from_the_form_makes_the_move_and_is_answered_in_the_thread(
    game: Game, client: Client
) -> None:
    ann = turn_user(game)
    mail = latest_turn_email(ann)
    reply = answer(client, mail, "pass")

    # The reply is kept in the mailbox, from Ann to her reply address.
    assert (reply.sender, reply.to) == (ann.email, reply_address(ann.pk, game.pk))
    assert reply.subject == f"Re: {mail.subject}"
    assert reply.text.startswith("pass\n\nOn ")
    assert mail.message_id in reply.headers["References"]
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.via, row.move) == ("moved", "mailbox", "pass")
    event = Event.objects.filter(game=game).latest("seq")
    assert (event.type, event.source) == ("passed", "email")

    # The answer is in the mailbox, in the reply's thread.
    (done,) = replies_to(reply)
    assert done.to == ann.email
    assert done.subject == reply.subject
    assert reply.message_id in done.headers["References"]
    assert done.headers["Auto-Submitted"] == "auto-replied"
    assert f"Done, your move was made: {ann.public_name} passed." in done.text
    # And Bob's turn email, which he can answer the same way.
    bob = turn_user(game)
    assert bob != ann
    assert latest_turn_email(bob).pk > mail.pk


def test_the_form_says_what_came_of_the_reply(game: Game, client: Client) -> None:
    ann = turn_user(game)
    mail = latest_turn_email(ann)
    response = client.post(
        f"/dev/mailbox/{mail.pk}/reply/", {"body": "pass" + quoted(mail)}, follow=True
    )
    assert response.redirect_chain[-1][0].startswith("/dev/mailbox/?to=")
    assert "the move was made" in response.content.decode()


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("hint", "Your reply asked for hints; nothing was played, and the answer is in"),
        ("say Good luck!", "Your reply was posted to the players as a message"),
    ],
)
def test_a_reply_answered_without_a_move_is_not_called_dropped(
    game: Game, client: Client, body: str, said: str
) -> None:
    """A hint reply is answered and a ``say`` reply posted: neither was dropped
    (issue 29, point 8: "dropped without an answer" for a reply that was answered)."""
    ann = turn_user(game)
    mail = latest_turn_email(ann)
    response = client.post(
        f"/dev/mailbox/{mail.pk}/reply/", {"body": body + quoted(mail)}, follow=True
    )
    page = response.content.decode()
    assert said in page
    assert "dropped" not in page
    assert InboundMail.objects.get().status != InboundMail.Status.DROPPED


#: The event each reply of the scripted game makes.
EVENT_OF = {"word": "word_built", "pass": "passed", "resign": "resigned"}


@pytest.mark.slow
def test_a_whole_game_played_by_email_only(game: Game, client: Client) -> None:
    """Both players answer their newest turn email, words and passes, until
    one resigns: every move is made by email and the game ends."""
    ann, bob = turn_user(game), None
    script = ["word", "pass", "pass", "word", "word", "pass", "resign"]
    for step in script:
        player = turn_user(game)
        if bob is None and player != ann:
            bob = player
        move = a_word(game) if step == "word" else step
        reply = answer(client, latest_turn_email(player), move)
        row = InboundMail.objects.get(message_id=reply.message_id)
        assert (row.status, row.user) == ("moved", player), row.reason
        assert len(replies_to(reply)) == 1  # the answer, in the thread
        if step != "resign":
            assert turn_user(game) != player

    game.refresh_from_db()
    assert game.status == "over"
    assert bob is not None
    made = Event.objects.filter(game=game).exclude(type="game_started").order_by("seq")
    assert [(e.type, e.source) for e in made] == [(EVENT_OF[step], "email") for step in script]
    assert InboundMail.objects.filter(status="moved").count() == len(script)
    assert set(InboundMail.objects.values_list("user", flat=True)) == {ann.pk, bob.pk}
    # Both hear of the end by email, too.
    over = Message.objects.filter(subject__startswith=f"Game {game.pk} is over")
    assert sorted(m.to for m in over) == sorted([ann.email, bob.email])


def test_the_reply_form_404s_when_the_mailbox_is_off(
    game: Game, client: Client, settings: Any
) -> None:
    mail = latest_turn_email(turn_user(game))
    settings.JUMBULAYA_MAILBOX = False
    before = Event.objects.filter(game=game).count()
    response = client.post(f"/dev/mailbox/{mail.pk}/reply/", {"body": "pass"})
    assert response.status_code == 404
    assert Event.objects.filter(game=game).count() == before
    assert not InboundMail.objects.exists()


def test_an_email_without_reply_to_shows_no_form(mailbox: None, client: Client) -> None:
    """A sign-in email is not answered by email: no Reply-To, no form."""
    send_sign_in_link("ann@example.com")
    mail = Message.objects.get()
    assert "Reply-To" not in mail.headers
    page = client.get(f"/dev/mailbox/{mail.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/reply/" not in html and "<textarea" not in html
