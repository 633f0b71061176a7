"""Every email a seat would get shows its own rack and nothing private of the
others: no other rack, no other player's address."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from games.core import door
from games.core.projection import current_state, game_lexicon
from games.engine.jumbulaya import legal_moves
from games.mail_in.hint_answers import hints_text
from games.mail_out.emails import message_for
from games.models import Game, InboundMail, Notification, Seat
from tests.conftest import CanaryGame
from tests.markup import faces_in_text, visible_faces


def play_a_few_moves(game: Game, count: int) -> None:
    for _ in range(count):
        game.refresh_from_db()
        state = current_state(game)
        assert state.turn is not None
        moves = legal_moves(state, state.turn, game_lexicon(game))
        move = moves[0].notation() if moves else "pass"
        door.submit(game.pk, state.turn, move, game.last_seq, "web")


def every_email(game: Game) -> Iterator[tuple[Seat, str, EmailMultiAlternatives]]:
    """(seat, kind, message) for every kind of game email each seat can get,
    rendered now (the invitation goes to an address, not a seat).  The game's
    claim window is opened and seat 2 brought to the timeout limit first, so
    every kind has something to say."""
    Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now() + timedelta(hours=2))
    Seat.objects.filter(game=game, index=2).update(timeouts_in_a_row=game.timeout_limit)
    game.refresh_from_db()
    for seat in game.seats.select_related("user"):
        user = seat.user
        assert user is not None
        for kind in Notification.Kind.values:
            if kind == Notification.Kind.INVITED:
                continue
            reply = None
            if kind in (
                Notification.Kind.REPLY_DONE,
                Notification.Kind.REPLY_REFUSED,
                Notification.Kind.REPLY_HINTS,
            ):
                reply = InboundMail.objects.create(
                    message_id=f"<{kind}.{seat.index}.{game.pk}@client.example>",
                    via="test",
                    sender=user.email,
                    game=game,
                    user=user,
                    status=InboundMail.Status.MOVED,
                    reason=""
                    if kind == Notification.Kind.REPLY_DONE
                    else hints_text(game, seat.index)
                    if kind == Notification.Kind.REPLY_HINTS
                    else "Not a word.",
                    read="3 QQQ",
                    move="3 QQQ",
                    event_seq=game.last_seq,
                )
            note = Notification.objects.create(
                kind=kind, user=user, game=game, event_seq=game.last_seq, inbound=reply
            )
            message = message_for(
                Notification.objects.select_related("game", "user").get(pk=note.pk)
            )
            if message is not None:
                yield seat, kind, message


def html_part(message: EmailMultiAlternatives) -> str:
    return next(str(c) for c, mime in message.alternatives if mime == "text/html")


@pytest.mark.slow
def test_no_email_shows_another_seats_rack_or_address(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(players=3)
    play_a_few_moves(game, 4)
    game.refresh_from_db()
    state = current_state(game)
    seats = list(game.seats.select_related("user"))
    rendered = 0
    for seat, kind, message in every_email(game):
        user = seat.user
        assert user is not None
        rendered += 1
        html = html_part(message)
        raw = message.message().as_string()
        own = " ".join(state.racks[seat.index])
        if kind != Notification.Kind.REMOVED or seat.index != 2:
            assert f"Your rack: {own}" in message.body or kind == "game_over", kind
        for other in seats:
            if other.index == seat.index:
                continue
            assert other.user is not None
            theirs = state.racks[other.index]
            assert f"Your rack: {' '.join(theirs)}" not in message.body
            if len(theirs) >= 3:
                assert " ".join(theirs) not in message.body, (kind, seat.index, other.index)
            for text in (message.body, html, raw):
                assert other.user.email not in text, (kind, other.user.email)
        assert message.to == [user.email]
        assert " ".join(state.bag[:6]) not in message.body
    assert rendered >= 3 * 7


@pytest.mark.slow
def test_no_email_shows_what_another_seat_drew_or_exchanged(
    canary_game: Callable[[], CanaryGame],
) -> None:
    canaries = canary_game()
    shown: dict[int, set[str]] = {}
    for seat, kind, message in every_email(canaries.game):
        faces = faces_in_text(message.body) | visible_faces(html_part(message))
        assert not faces & canaries.hidden_from(seat.index), (kind, seat.index)
        shown.setdefault(seat.index, set()).update(faces)
    # The check can see tiles: each seat's own draws are in its own emails.
    for seat, faces in shown.items():
        assert canaries.secret[seat] - {"K", "W", "Y"} <= faces, seat
