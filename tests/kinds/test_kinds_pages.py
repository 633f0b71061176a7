"""The dashboard and the game emails say which game it is: the kind's label."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from games.mail_out.emails import message_for
from games.models import Game, Notification


def test_the_dashboard_says_which_game_each_is(
    client: Client, started_game: Callable[..., Game]
) -> None:
    game = started_game()
    client.force_login(game.created_by)
    page = client.get(reverse("games:dashboard")).content.decode()
    assert '<p class="meta"><span class="kind">JUMBULAYA</span> · ' in page


def test_a_game_email_says_which_game_it_is(started_game: Callable[..., Game]) -> None:
    game = started_game()
    user = game.created_by
    note = Notification.objects.create(
        kind=Notification.Kind.GAME_STARTED, user=user, game=game, event_seq=game.last_seq
    )
    message = message_for(Notification.objects.select_related("game", "user").get(pk=note.pk))
    assert message is not None
    assert f"\nJUMBULAYA, game {game.pk}.\n--\n" in str(message.body)
    html = next(str(c) for c, mime in message.alternatives if mime == "text/html")
    assert f">JUMBULAYA, game {game.pk}. Jumbulaya by mail · <a" in html
    assert message.subject.startswith(f"Game {game.pk} has started: ")  # subjects as they were
