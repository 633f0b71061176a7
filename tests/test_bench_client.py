"""The service benchmark's HTTP client still plays by the site's rules.

``python -m bench service`` drives a real server with raw HTTP passes; when the
site started asking "Pass your turn?" the bench's moves were all refused and the
section failed.  This posts one pass the bench's way to a live test server.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from accounts import access_tokens
from accounts.models import User
from bench.service import BenchGame, Client, _session
from games.core import lobby
from games.engine.jumbulaya import PRESETS
from games.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_bench_client_makes_a_pass_the_site_accepts(live_server: Any) -> None:
    ann = User.objects.create_user(username="ann", email="ann@example.com", display_name="Ann")
    bob = User.objects.create_user(username="bob", email="bob@example.com", display_name="Bob")
    game = lobby.create_game(
        ann, seat_count=2, rules=PRESETS["official"], move_hours=72, invite_emails=[bob.email]
    )
    lobby.join_game(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    assert game.turn_seat is not None
    tokens = (access_tokens.make(ann, "bench").token, access_tokens.make(bob, "bench").token)
    tracked = BenchGame(
        game.pk, (_session(ann), _session(bob)), tokens, game.turn_seat, game.last_seq
    )

    client = Client(urlsplit(live_server.url).port or 80)
    client.sign_csrf(tracked)
    client.pass_move(tracked)
    client.close()

    assert client.errors == []
    assert client.accepted == 1
    last = Event.objects.filter(game_id=game.pk).order_by("-seq").first()
    assert last is not None and last.seq == tracked.seq
    assert (last.type, last.seat, last.source) == ("passed", 1 - tracked.turn, "web")


def test_the_bench_client_makes_a_pass_through_the_api(live_server: Any) -> None:
    ann = User.objects.create_user(username="ann", email="ann@example.com", display_name="Ann")
    bob = User.objects.create_user(username="bob", email="bob@example.com", display_name="Bob")
    game = lobby.create_game(
        ann, seat_count=2, rules=PRESETS["official"], move_hours=72, invite_emails=[bob.email]
    )
    lobby.join_game(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    assert game.turn_seat is not None
    tokens = (access_tokens.make(ann, "bench").token, access_tokens.make(bob, "bench").token)
    tracked = BenchGame(game.pk, ("", ""), tokens, game.turn_seat, game.last_seq)

    client = Client(urlsplit(live_server.url).port or 80)
    client.api_pass(tracked)
    client.close()

    assert client.errors == [] and client.accepted == 1
    last = Event.objects.filter(game_id=game.pk).order_by("-seq").first()
    assert last is not None and last.seq == tracked.seq
    assert (last.type, last.seat, last.source) == ("passed", 1 - tracked.turn, "api")
