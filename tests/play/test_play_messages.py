"""Players' messages on the game page: with a move or on their own, escaped,
in the log and the next emails, muted per seat, reported to staff and hidden
by them; limited in length and rate; never an event."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.admin.sites import site
from django.core import mail
from django.test import Client, RequestFactory

from accounts.models import User
from games.admin import hide_reported
from games.core.door import submit
from games.mail_out import outbox
from games.models import Event, Game, Message, MessageReport

HTML = '<b>bold</b><script>alert("x")</script>'
ESCAPED = "&lt;b&gt;bold&lt;/b&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"


def html_part(message: mail.EmailMessage) -> str:
    assert isinstance(message, mail.EmailMultiAlternatives)
    return next(str(c) for c, mime in message.alternatives if mime == "text/html")


def say(client: Client, game: Game, text: str) -> None:
    response = client.post(f"/games/{game.pk}/messages/", {"message": text})
    assert response.status_code == 302


def test_a_message_alone_is_shown_escaped_in_the_log_and_changes_no_state(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game(players=2)
    events, seq = Event.objects.count(), game.last_seq
    say(seat_client(game, 1), game, f"Good luck {HTML}")
    game.refresh_from_db()
    assert (Event.objects.count(), game.last_seq) == (events, seq)
    [message] = Message.objects.all()
    assert (message.seat, message.seq, message.text) == (1, seq, f"Good luck {HTML}")
    for seat in (0, 1):
        html = seat_client(game, seat).get(f"/games/{game.pk}/").content.decode()
        log = html.split('id="log-title"')[1]
        assert f"Good luck {ESCAPED}" in log
        assert "<script>alert" not in html


def test_a_message_with_a_move_follows_it_and_goes_in_the_next_email(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game(players=2)
    outbox.sweep()  # the emails of the game's start go first
    mover = game.turn_seat
    assert mover is not None
    form = {
        "notation": "pass",
        "confirmed": "yes",
        "expected_seq": str(game.last_seq),
        "idempotency_key": "message-with-a-move-0123",
        "message": f"Over to you {HTML}",
    }
    response = seat_client(game, mover).post(f"/games/{game.pk}/move/", form)
    assert response.status_code == 302
    game.refresh_from_db()
    [message] = Message.objects.all()
    assert message.seq == game.last_seq  # it follows the pass
    mail.outbox.clear()
    outbox.sweep()
    other = game.seats.get(index=1 - mover).user
    assert other is not None
    [email] = [m for m in mail.outbox if other.email in m.to and "your turn" in m.subject]
    assert f"Over to you {HTML}" in email.body  # plain text: shown as typed
    html = html_part(email)
    assert f"Over to you {ESCAPED}" in html and "<script>alert" not in html


def test_a_too_long_message_stops_the_move_too(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client], settings: object
) -> None:
    game = started_game(players=2)
    mover = game.turn_seat
    assert mover is not None
    form = {
        "notation": "pass",
        "confirmed": "yes",
        "expected_seq": str(game.last_seq),
        "idempotency_key": "message-too-long-0123456",
        "message": "x" * 501,
    }
    response = seat_client(game, mover).post(f"/games/{game.pk}/move/", form)
    assert response.status_code == 422
    assert "at most 500 characters" in response.content.decode()
    game.refresh_from_db()
    assert game.last_seq == 1 and not Message.objects.exists()


def test_messages_are_rate_limited(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client], settings: object
) -> None:
    settings.JUMBULAYA_MESSAGES_PER_HOUR = 2  # type: ignore[attr-defined]
    game = started_game(players=2)
    client = seat_client(game, 0)
    for n in range(3):
        say(client, game, f"message {n}")
    assert list(Message.objects.values_list("text", flat=True)) == ["message 0", "message 1"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "message 2" not in page


def test_a_spectator_cannot_send_one(
    started_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = started_game(players=2, is_public=True)
    client = Client()
    client.force_login(make_user("zoe"))
    assert client.post(f"/games/{game.pk}/messages/", {"message": "hi"}).status_code == 403
    assert not Message.objects.exists()


def test_a_spectator_reads_no_message_on_the_page_nor_its_live_part(
    started_game: Callable[..., Game],
    seat_client: Callable[[Game, int], Client],
    make_user: Callable[[str], User],
) -> None:
    """Messages go to the seats: a spectator of a public game sees none of them
    (issue 27, finding 13), and no box speaks of them."""
    game = started_game(players=2, is_public=True)
    say(seat_client(game, 0), game, "between us two")
    zoe = Client()
    zoe.force_login(make_user("zoe"))
    for headers in ({}, {"HX-Request": "true"}):
        page = zoe.get(f"/games/{game.pk}/", headers=headers)
        assert page.status_code == 200
        html = page.content.decode()
        assert "between us two" not in html and "says:" not in html
        assert 'id="messages-title"' not in html and "Message with your move" not in html
    assert "between us two" in seat_client(game, 1).get(f"/games/{game.pk}/").content.decode()


def test_a_player_who_resigned_still_reads_the_games_messages(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    """A player who left still holds their seat: the game's messages are still
    theirs to read."""
    game = started_game(players=3)
    submit(game.pk, 2, "resign", game.last_seq, "web")
    say(seat_client(game, 0), game, "we miss you")
    assert "we miss you" in seat_client(game, 2).get(f"/games/{game.pk}/").content.decode()


def test_muting_hides_messages_from_the_page_and_emails(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game(players=2)
    bob = seat_client(game, 1)
    assert bob.post(f"/games/{game.pk}/messages/mute/", {"muted": "1"}).status_code == 302
    assert game.seats.get(index=1).messages_muted
    say(seat_client(game, 0), game, "can you see this")
    assert "can you see this" not in bob.get(f"/games/{game.pk}/").content.decode()
    ann_page = seat_client(game, 0).get(f"/games/{game.pk}/").content.decode()
    assert "can you see this" in ann_page
    bob.post(f"/games/{game.pk}/messages/mute/", {"muted": "0"})
    assert "can you see this" in bob.get(f"/games/{game.pk}/").content.decode()


def test_a_report_reaches_staff_who_hide_the_message(
    started_game: Callable[..., Game],
    seat_client: Callable[[Game, int], Client],
    make_user: Callable[[str], User],
) -> None:
    game = started_game(players=2)
    say(seat_client(game, 0), game, "something rude")
    message = Message.objects.get()
    bob = seat_client(game, 1)
    url = f"/games/{game.pk}/messages/{message.pk}/report/"
    assert bob.post(url).status_code == 302
    assert bob.post(url).status_code == 302  # twice: one report
    [report] = MessageReport.objects.all()
    assert report.reporter == game.seats.get(index=1).user
    # Ann cannot report her own message.
    seat_client(game, 0).post(url)
    assert MessageReport.objects.count() == 1
    # Staff see it in the admin, and hide the message.
    staff = make_user("staff")
    User.objects.filter(pk=staff.pk).update(is_staff=True, is_superuser=True)
    admin_client = Client()
    admin_client.force_login(User.objects.get(pk=staff.pk))
    listing = admin_client.get("/admin/games/messagereport/")
    assert listing.status_code == 200 and "something rude" in listing.content.decode()
    request = RequestFactory().post("/admin/games/messagereport/")
    hide_reported(site._registry[MessageReport], request, MessageReport.objects.all())
    message.refresh_from_db()
    assert message.hidden_at is not None
    for seat in (0, 1):
        assert (
            "something rude"
            not in seat_client(game, seat).get(f"/games/{game.pk}/").content.decode()
        )


@pytest.mark.parametrize("text", ["", "   \n  "])
def test_an_empty_message_is_refused(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client], text: str
) -> None:
    game = started_game(players=2)
    say(seat_client(game, 0), game, text)
    assert not Message.objects.exists()
