"""Every email a seat would get shows its own rack and nothing private of the
others: no other rack, no other player's address."""

from __future__ import annotations

from collections.abc import Callable

from games import services
from games.emails import message_for
from games.engine import legal_moves
from games.models import Game, InboundMail, Notification, Seat
from games.services import current_state, game_lexicon


def play_a_few_moves(game: Game, count: int) -> None:
    for _ in range(count):
        game.refresh_from_db()
        state = current_state(game)
        assert state.turn is not None
        moves = legal_moves(state, state.turn, game_lexicon(game))
        move = moves[0].notation() if moves else "pass"
        services.submit(game.pk, state.turn, move, game.last_seq, "web")


def test_no_email_shows_another_seats_rack_or_address(
    started_game: Callable[..., Game],
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    game = started_game(players=3)
    play_a_few_moves(game, 4)
    Game.objects.filter(pk=game.pk).update(claims_close_at=timezone.now() + timedelta(hours=2))
    Seat.objects.filter(game=game, index=2).update(timeouts_in_a_row=game.timeout_limit)
    game.refresh_from_db()
    state = current_state(game)
    seats = list(game.seats.select_related("user"))
    rendered = 0
    for seat in seats:
        user = seat.user
        assert user is not None
        for kind in Notification.Kind.values:
            if kind == Notification.Kind.INVITED:
                continue
            reply = None
            if kind in (Notification.Kind.REPLY_DONE, Notification.Kind.REPLY_REFUSED):
                reply = InboundMail.objects.create(
                    message_id=f"<{kind}.{seat.index}@client.example>",
                    via="test",
                    sender=user.email,
                    game=game,
                    user=user,
                    status=InboundMail.Status.MOVED,
                    reason="" if kind == Notification.Kind.REPLY_DONE else "Not a word.",
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
            if message is None:
                continue
            rendered += 1
            html = next(str(c) for c, mime in message.alternatives if mime == "text/html")
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
