"""Names stored before the name rules (rows written then, or frozen in a game's
log when it began) never reach another player's email or page as they are: a
line break cannot add a header or a line, a link is not shown, and the email
goes out on its first try."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import tokens
from accounts.models import User
from games.core import lobby, projection
from games.engine.jumbulaya import PRESETS, state_to_json
from games.mail_out import outbox
from games.mail_out.emails import message_for, one_line
from games.models import Event, Game, Notification

Kind = Notification.Kind
INJECTION = "Dave\r\nBcc: evil@x.example"
#: Names the rules refuse, as old rows may hold them, and what must not show of each.
STORED = [
    (INJECTION, ("Bcc", "evil", "\r")),
    ("www.evil.example", ("evil",)),
    ("Visit evil.example", ("evil",)),
    ("\u202eAnn\u202c", ("\u202e",)),
]


def store_name(user: User, name: str) -> None:
    """A row from before the rules: written past the service's checks."""
    User.objects.filter(pk=user.pk).update(display_name=name)


def html_of(message: Any) -> str:
    return next(str(c) for c, mime in message.alternatives if mime == "text/html")


@pytest.mark.django_db
@pytest.mark.parametrize("stored", [name for name, _unseen in STORED])
def test_a_stored_name_is_not_shown_by_the_account(
    make_user: Callable[[str], User], stored: str
) -> None:
    ann = make_user("ann")
    store_name(ann, stored)
    ann.refresh_from_db()
    assert ann.public_name == f"player {ann.pk}"


@pytest.mark.parametrize(("stored", "unseen"), STORED)
def test_an_invitation_from_a_stored_name_injects_nothing_and_goes_at_once(
    make_user: Callable[[str], User],
    mailoutbox: list[Any],
    stored: str,
    unseen: tuple[str, ...],
) -> None:
    ann = make_user("ann")
    lobby.create_game(
        ann, seat_count=2, rules=PRESETS["official"], invite_emails=["bob@example.com"]
    )
    store_name(ann, stored)
    assert outbox.sweep() == 1
    note = Notification.objects.get(kind=Kind.INVITED)
    assert note.sent_at is not None and note.attempts == 1 and note.last_error == ""
    (message,) = mailoutbox
    game = Game.objects.get()
    assert message.subject == f"Game {game.pk}: player {ann.pk} invites you to play JUMBULAYA"
    raw = message.message().as_string()
    for text in (raw, message.body, html_of(message)):
        for bit in unseen:
            assert bit not in text
    assert not any(line.startswith("Bcc") for line in message.body.splitlines())


def freeze_names(game: Game, names: tuple[str, ...]) -> None:
    """Put ``names`` in the game's log and cached state, as a game that began
    before the rules would hold them."""
    state = projection.current_state(game)
    Game.objects.filter(pk=game.pk).update(state=state_to_json(replace(state, players=names)))
    started = Event.objects.get(game=game, seq=1)
    Event.objects.filter(pk=started.pk).update(payload={**started.payload, "players": list(names)})


@pytest.mark.parametrize(("stored", "unseen"), STORED)
def test_names_frozen_in_a_game_log_show_as_seats(
    started_game: Callable[..., Game], client: Client, stored: str, unseen: tuple[str, ...]
) -> None:
    game = started_game()
    ann, bob = (seat.user for seat in game.seats.order_by("index"))
    assert ann is not None and bob is not None
    # Pages name players as they are now, so Ann's row holds the old name too.
    store_name(ann, stored)
    freeze_names(game, (stored, "Bob"))
    note = Notification.objects.create(kind=Kind.GAME_STARTED, user=bob, game=game, event_seq=1)
    message = message_for(Notification.objects.select_related("game", "user").get(pk=note.pk))
    assert message is not None
    assert message.subject == f"Game {game.pk} has started: you against Seat 1"
    client.force_login(bob)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    raw = message.message().as_string()
    for text in (raw, message.body, html_of(message), page):
        for bit in unseen:
            assert bit not in text
    assert "Seat 1 0, Bob 0" in message.body  # the scores
    assert not any(line.startswith("Bcc") for line in message.body.splitlines())


def test_subjects_hold_one_line_of_visible_text() -> None:
    assert one_line("Re: a\r\nBcc: x\x00\x1b[31m \u202eb\ud800\u2028c") == "Re: a Bcc: x[31m b c"


@pytest.mark.django_db
def test_signing_in_with_a_stored_name_asks_for_another(
    client: Client, make_user: Callable[[str], User]
) -> None:
    ann = make_user("ann")
    store_name(ann, INJECTION)
    link = tokens.sign_in_url(ann.email, ann.last_login).removeprefix("http://127.0.0.1:8000")
    response = client.post(link)
    assert response["Location"] == reverse("accounts:profile")
    page = client.get(response["Location"]).content.decode()
    assert "Your display name breaks the rules for names" in page
    assert f"player {ann.pk}" in page
