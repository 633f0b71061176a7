"""The whole notification path with a real Celery worker: a move, the outbox
nudge after the commit, the worker sending the next player's email, the turn
link in it, and a move made through that link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from celery.worker import WorkController
from django.core import mail
from django.test import Client

from accounts.models import User
from games.core import door, projection
from games.engine.jumbulaya import legal_moves
from games.models import Event, Game, Notification

pytestmark = pytest.mark.django_db(transaction=True)

_CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def seat_user(game: Game, index: int) -> User:
    user = game.seats.get(index=index).user
    assert user is not None
    return user


def a_move(game: Game) -> str:
    """A legal move for the player whose turn it is (the first the engine finds)."""
    state = projection.current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, projection.game_lexicon(game))
    return moves[0].notation() if moves else "pass"


def turn_email(kit: Any, game: Game, user: User) -> Any:
    """Wait for the worker to send ``user`` their your-turn email for the game as
    it stands now (the row owed by its last move)."""
    row = kit.wait_for(
        lambda: Notification.objects.filter(
            game=game,
            user=user,
            kind=Notification.Kind.YOUR_TURN,
            event_seq=game.last_seq,
            sent_at__isnull=False,
        ).first(),
        f"the worker to send {user.email} their turn in game {game.pk} at move {game.last_seq}",
    )
    found = [m for m in mail.outbox if kit.row_of(m) == row.pk]
    assert len(found) == 1, [m.subject for m in mail.outbox]
    assert found[0].to == [user.email]
    assert found[0].subject.startswith(f"Game {game.pk}: your turn")
    return found[0]


@pytest.mark.slow
def test_a_move_reaches_the_worker_and_the_link_in_its_email_makes_the_next_move(
    live_worker: WorkController, started_game: Callable[..., Game], kit: Any
) -> None:
    game = started_game()  # the invitations, "started" and first-turn emails go out too
    first = game.turn_seat
    assert first is not None
    mover, other = seat_user(game, first), seat_user(game, 1 - first)
    turn_email(kit, game, mover)

    # A move through the one door: the nudge goes after the commit.
    done = door.submit(game.pk, first, a_move(game), game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.last_seq == done.state.seq and game.turn_seat == 1 - first
    message = turn_email(kit, game, other)

    # The link in the email: it shows the game, and a POST with CSRF makes the move.
    path = kit.turn_link_path(message)
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert f"Game {game.pk}" in html and "It is your turn." in html
    token = _CSRF_FIELD.search(html)
    assert token is not None
    refused = browser.post(path, {"notation": "pass"})
    assert refused.status_code == 403  # no CSRF token, no move
    answer = browser.post(
        path,
        {
            "notation": a_move(game),
            "idempotency_key": "k" * 20,
            "csrfmiddlewaretoken": token.group(1),
        },
    )
    assert answer.status_code == 302 and answer["Location"] == path
    game.refresh_from_db()
    assert game.last_seq == done.state.seq + 1 and game.turn_seat == first
    assert Event.objects.get(game=game, seq=game.last_seq).source == Event.Source.LINK
    turn_email(kit, game, mover)

    # Every row owed along the way went out, each once.
    kit.wait_for(
        lambda: not Notification.objects.filter(sent_at__isnull=True).exists(),
        "every notification to be sent",
    )
    kit.assert_each_row_sent_once()
    your_turns = [m for m in mail.outbox if ": your turn — " in m.subject]
    assert [m.to for m in your_turns] == [[mover.email], [other.email], [mover.email]]
