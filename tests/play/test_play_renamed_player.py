"""A player who renames themself is shown under the new name in every game:
its page, its log in words, its emails, its replay and record.  The log keeps
the names of the deal (it is append-only), so the cached state still matches
its replay."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import update_profile
from games.core import door, projection, rebuild
from games.engine import Refusal
from games.mail_out.emails import message_for
from games.models import Event, Game, Notification

OLD = re.compile(r"\bAnn\b")


def rename_ann(game: Game) -> User:
    ann = game.seats.get(index=0).user
    assert ann is not None
    return update_profile(ann, display_name="Zoe Quill", time_zone="UTC")


def test_the_game_page_and_its_log_show_the_new_name(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    for _each_player in range(2):  # so Ann has moved, whoever began
        game.refresh_from_db()
        mover = game.seats.get(index=game.turn_seat).user
        door.submit(game.pk, mover, "pass", game.last_seq, Event.Source.WEB)
    rename_ann(game)
    bob = User.objects.get(username="bob")
    client.force_login(bob)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Zoe Quill" in page
    assert not OLD.search(page)
    # What the page polls for says the new name too.
    news = client.get(reverse("games:changes", args=[game.pk]) + "?seen=0").content.decode()
    assert "Zoe Quill" in news and not OLD.search(news)
    # The truth is untouched: the cached state still equals the log's replay.
    assert rebuild.rebuild_projection(game, write=False) is False


def test_emails_show_the_new_name(started_game: Callable[..., Game]) -> None:
    game = started_game()
    rename_ann(game)
    bob = User.objects.get(username="bob")
    note = Notification.objects.create(
        kind=Notification.Kind.GAME_STARTED, user=bob, game=game, event_seq=1
    )
    message = message_for(Notification.objects.select_related("game", "user").get(pk=note.pk))
    assert message is not None
    html = next(str(c) for c, mime in message.alternatives if mime == "text/html")
    for text in (message.body, html):
        assert "Zoe Quill" in text
        assert not OLD.search(text)


def test_the_replay_and_record_show_the_new_name(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    ann = User.objects.get(username="ann")
    door.submit(game.pk, ann, "resign", game.last_seq, Event.Source.WEB)
    rename_ann(game)
    client.force_login(ann)
    page = client.get(reverse("games:game_replay", args=[game.pk])).content.decode()
    assert "Zoe Quill" in page and not OLD.search(page)
    record = projection.load_events(game)  # the log itself keeps the deal's names
    assert record[0].players[0] == "Ann"  # type: ignore[attr-defined]
    download = client.get(reverse("games:download", args=[game.pk]))
    assert json.loads(download.content)["players"][0] == "Zoe Quill"


def test_a_refusal_names_the_player_to_move_as_they_are_now(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    if game.turn_seat != 0:  # so that Ann is the player to move
        bob = game.seats.get(index=game.turn_seat).user
        door.submit(game.pk, bob, "pass", game.last_seq, Event.Source.WEB)
        game.refresh_from_db()
    rename_ann(game)
    bob = User.objects.get(username="bob")
    try:
        door.submit(game.pk, bob, "pass", game.last_seq, Event.Source.WEB)
    except Refusal as refusal:
        said = str(refusal)
    else:
        raise AssertionError("Bob moved out of turn")
    assert "It is Zoe Quill's turn" in said and not OLD.search(said)
