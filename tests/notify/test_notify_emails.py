"""The notification emails: each kind renders with its headers, respects the
recipient's preferences and shows only what the recipient may see."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.mail import EmailMultiAlternatives

from accounts.models import User
from games.core import door, lobby
from games.engine.jumbulaya import state_from_json
from games.mail_out import outbox
from games.mail_out.emails import REPLY_MARKER, message_for, thread_id
from games.mail_out.reply_addresses import ReplyToken, verify
from games.models import Event, Game, Notification, Seat

Kind = Notification.Kind
MESSAGE_ID = re.compile(
    r"^<game-(\d+)\.(\d+)\.([a-z_]+)\.(\d+)(?:\.g(\d+)u(\d+)k[a-z2-7]{16})?@127\.0\.0\.1>$"
)


def seat_user(game: Game, index: int) -> User:
    user = game.seats.get(index=index).user
    assert user is not None
    return user


def turn_user(game: Game) -> User:
    assert game.turn_seat is not None
    return seat_user(game, game.turn_seat)


def other_user(game: Game) -> User:
    assert game.turn_seat is not None
    return seat_user(game, (game.turn_seat + 1) % game.seat_count)


def render(game: Game, kind: str, user: User) -> EmailMultiAlternatives | None:
    game.refresh_from_db()
    note = Notification.objects.create(kind=kind, user=user, game=game, event_seq=game.last_seq)
    note = Notification.objects.select_related("game", "user").get(pk=note.pk)
    return message_for(note)


def html_of(message: EmailMultiAlternatives) -> str:
    return next(str(c) for c, mime in message.alternatives if mime == "text/html")


def prepare(game: Game, kind: str) -> User:
    """Put ``game`` in a state where ``kind`` makes sense; returns the recipient."""
    if kind == Kind.WINDOW_OPEN:
        from datetime import timedelta

        from django.utils import timezone

        Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now() + timedelta(hours=6))
    if kind == Kind.REMOVED:
        Seat.objects.filter(game=game, index=1).update(timeouts_in_a_row=game.timeout_limit)
    if kind == Kind.GAME_OVER:
        user = other_user(game)
        seat = game.seats.get(user=user).index
        door.submit(game.pk, seat, "resign", game.last_seq, "web")
        return turn_user(game)
    if kind == Kind.TIMED_OUT:
        return other_user(game)
    return turn_user(game)


GAME_KINDS = [
    Kind.YOUR_TURN,
    Kind.GAME_STARTED,
    Kind.GAME_OVER,
    Kind.DEADLINE_WARNING,
    Kind.TIMED_OUT,
    Kind.REMOVED,
    Kind.WINDOW_OPEN,
]


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_every_game_kind_renders_with_its_headers(
    started_game: Callable[..., Game], kind: str
) -> None:
    game = started_game()
    user = prepare(game, kind)
    message = render(game, kind, user)
    assert message is not None
    assert message.to == [user.email]
    assert message.subject and "\n" not in message.subject
    html = html_of(message)
    assert message.body.splitlines()[0] == REPLY_MARKER
    assert REPLY_MARKER in html.splitlines()[0]
    assert "<style" not in html and "<link" not in html and "<img" not in html
    headers = message.extra_headers
    root = thread_id(game.pk, user.pk)
    assert verify(root) == ReplyToken(game.pk, user.pk)  # the reply token
    if kind == Kind.GAME_STARTED:  # the thread's root
        assert headers["Message-ID"] == root
        assert "In-Reply-To" not in headers and "References" not in headers
    else:
        match = MESSAGE_ID.match(headers["Message-ID"])
        assert match is not None and match.group(1) == str(game.pk) and match.group(3) == kind
        assert match.group(5) == str(game.pk) and match.group(6) == str(user.pk)
        assert headers["In-Reply-To"] == headers["References"] == root
    assert verify(headers["Reply-To"]) == ReplyToken(game.pk, user.pk)
    assert headers["Auto-Submitted"] == "auto-generated"
    assert re.fullmatch(
        r"<http://127\.0\.0\.1:8000/unsubscribe/[^>\s]+/>", headers["List-Unsubscribe"]
    )
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert headers["List-Id"] == f"Jumbulaya game {game.pk} <game-{game.pk}.127.0.0.1>"
    # The raw message keeps the long unsubscribe URL readable (no encoded words).
    raw = message.message().as_string()
    assert f"List-Unsubscribe: {headers['List-Unsubscribe']}" in raw


def test_the_kinds_say_what_happened(started_game: Callable[..., Game]) -> None:
    game = started_game(players=3)
    turn = turn_user(game)
    names = [seat_user(game, i).public_name for i in range(3)]
    against = " and ".join(n for n in names if n != turn.public_name)
    your_turn = render(game, Kind.YOUR_TURN, turn)
    assert your_turn is not None
    assert your_turn.subject == f"Game {game.pk}: your turn — you move first against {against}"
    assert "Deadline:" in your_turn.body and "(UTC)" in your_turn.body
    assert "/t/" in your_turn.body and "Last moves:" in your_turn.body
    assert "The game began" in your_turn.body
    warning = render(game, Kind.DEADLINE_WARNING, turn)
    assert warning is not None and "left for your move" in warning.subject
    timed_out = render(game, Kind.TIMED_OUT, other_user(game))
    assert timed_out is not None and "auto-passed" in timed_out.body
    # The deadline sweep resigns a seat that ran out of time too often.
    Seat.objects.filter(game=game, index=2).update(timeouts_in_a_row=game.timeout_limit)
    door.submit(game.pk, 2, "resign", game.last_seq, Event.Source.DEADLINE)
    removed = render(game, Kind.REMOVED, seat_user(game, 0))
    assert removed is not None and f"{names[2]} was removed" in removed.body
    removed_self = render(game, Kind.REMOVED, seat_user(game, 2))
    assert removed_self is not None and "You were removed" in removed_self.body


def test_the_deadline_is_in_the_recipients_time_zone(started_game: Callable[..., Game]) -> None:
    game = started_game()
    user = turn_user(game)
    User.objects.filter(pk=user.pk).update(time_zone="Asia/Tokyo")
    user.refresh_from_db()
    message = render(game, Kind.YOUR_TURN, user)
    assert message is not None and "(Asia/Tokyo)" in message.body


def test_game_over_tells_the_scores_and_winners(started_game: Callable[..., Game]) -> None:
    game = started_game()
    loser = other_user(game)
    winner = turn_user(game)
    door.submit(game.pk, game.seats.get(user=loser).index, "resign", game.last_seq, "web")
    message = render(game, Kind.GAME_OVER, winner)
    assert message is not None
    scores = ", ".join(f"{seat_user(game, i).public_name} 0" for i in range(2))
    assert message.subject == f"Game {game.pk} is over: {winner.public_name} won ({scores})"
    assert "Final scores:" in message.body and "You won" in message.body
    assert "/replay/" in message.body and "/t/" not in message.body


def test_the_board_is_drawn_in_both_bodies(started_game: Callable[..., Game]) -> None:
    game = started_game()
    user = turn_user(game)
    state = state_from_json(game.state)
    message = render(game, Kind.YOUR_TURN, user)
    assert message is not None
    html = html_of(message)
    for number, line in enumerate(state.lines, start=1):
        assert re.search(rf"^{number}  {' '.join(line.tiles)}\b", message.body, re.M)
    assert html.count("<tr>") == 10  # a header and nine lines


def test_your_turn_shows_your_rack_only_and_never_the_bag(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    user = turn_user(game)
    seat = game.seats.get(user=user).index
    state = state_from_json(game.state)
    message = render(game, Kind.YOUR_TURN, user)
    assert message is not None
    own = " ".join(state.racks[seat])
    other = " ".join(state.racks[1 - seat])
    assert f"Your rack: {own}" in message.body
    assert other not in message.body
    html = html_of(message)
    rack_html = html.split("Your rack:")[1].split("</p>")[0]
    assert re.findall(r">([A-Z]{1,2})</span>", rack_html) == list(state.racks[seat])
    bag = " ".join(state.bag[:6])
    assert bag not in message.body and "".join(state.bag[:8]) not in html


@pytest.mark.parametrize("mode", ["none", "digest"])
def test_no_turn_email_for_none_and_digest_modes(
    started_game: Callable[..., Game], mode: str
) -> None:
    game = started_game()
    user = turn_user(game)
    User.objects.filter(pk=user.pk).update(email_mode=mode)
    user.refresh_from_db()
    assert render(game, Kind.YOUR_TURN, user) is None
    assert render(game, Kind.DEADLINE_WARNING, user) is None
    started = render(game, Kind.GAME_STARTED, user)
    assert (started is None) == (mode == "none")  # the digest covers turns only


def test_a_muted_game_sends_nothing(started_game: Callable[..., Game]) -> None:
    game = started_game()
    user = turn_user(game)
    Seat.objects.filter(game=game, user=user).update(muted=True)
    for kind in GAME_KINDS:
        assert render(game, kind, user) is None


def test_a_turn_email_that_is_out_of_date_is_not_sent(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    assert render(game, Kind.YOUR_TURN, other_user(game)) is None


def test_invitations_go_through_the_outbox(
    make_user: Callable[[str], User], mailoutbox: list[Any]
) -> None:
    from games.engine.jumbulaya import PRESETS
    from games.web.forms import rules_in_words

    ann = make_user("ann")
    game = lobby.create_game(
        ann, seat_count=3, rules=PRESETS["official"], invite_emails=["bob@example.com", "cy@x.org"]
    )
    assert mailoutbox == []
    assert outbox.sweep() == 2
    bob = next(m for m in mailoutbox if m.to == ["bob@example.com"])
    assert bob.subject == f"Game {game.pk}: Ann invites you to play JUMBULAYA"
    assert bob.body.splitlines()[0] == REPLY_MARKER
    assert "/invite/" in bob.body and "/invite/" in html_of(bob)
    for line in rules_in_words(PRESETS["official"]):
        assert line in bob.body
    assert "cy@x.org" not in bob.body and "cy@x.org" not in html_of(bob)
    assert "ann@example.com" not in bob.message().as_string()
    assert MESSAGE_ID.match(bob.extra_headers["Message-ID"])
    assert bob.extra_headers["References"] == f"<game-{game.pk}@127.0.0.1>"
    assert bob.extra_headers["Auto-Submitted"] == "auto-generated"


def test_an_invitation_to_a_game_that_started_is_not_sent(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    note = Notification.objects.filter(game=game, kind=Kind.INVITED).first()
    assert note is not None and message_for(note) is None


def test_invitations_ignore_the_email_mode(
    make_user: Callable[[str], User], mailoutbox: list[Any]
) -> None:
    from games.engine.jumbulaya import PRESETS

    ann = make_user("ann")
    bob = make_user("bob")
    User.objects.filter(pk=bob.pk).update(email_mode="none")
    lobby.create_game(ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email])
    outbox.sweep()
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]
