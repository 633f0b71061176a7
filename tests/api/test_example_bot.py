"""docs/example_bot.py plays a whole game over the API: two of them, each with
its own account's token and its own ``manage.py robot``, against a live server."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from accounts import access_tokens
from accounts.models import User
from games.core.lobby import create_game
from games.core.rebuild import rebuild_projection
from games.engine.jumbulaya import PRESETS
from games.models import Event, Game
from tests.claims.test_claims_window import play
from tests.conftest import CLAIM_THE_BOARD

REPO = Path(__file__).resolve().parent.parent.parent
BOT = REPO / "docs" / "example_bot.py"

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_example_bot_is_short() -> None:
    assert len(BOT.read_text().splitlines()) < 60


def test_two_example_bots_play_a_game_to_its_end(
    live_server: Any, make_user: Callable[[str], User], settings: Any
) -> None:
    settings.JUMBULAYA_API_REQUESTS_PER_MINUTE = 100_000
    ann, bob = make_user("ann"), make_user("bob")
    User.objects.filter(pk__in=[ann.pk, bob.pk]).update(is_bot=True)
    # Boardspace's rules end a game that stalls (two rounds without a word).
    game = create_game(
        ann,
        seat_count=2,
        rules=PRESETS["boardspace"],
        invite_emails=[bob.email],
        claim_window=False,
    )
    robot = [sys.executable, "manage.py", "robot", "--level", "greedy"]
    bots = [
        subprocess.Popen(
            [
                sys.executable,
                str(BOT),
                live_server.url,
                access_tokens.make(who, "bot").token,
                str(game.pk),
                *robot,
            ],
            cwd=REPO,
            env=os.environ | {"DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for who in (ann, bob)
    ]
    outputs = [bot.communicate(timeout=600)[0] for bot in bots]
    assert [bot.returncode for bot in bots] == [0, 0], outputs
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    sources = set(Event.objects.filter(game=game, seq__gt=1).values_list("source", flat=True))
    assert sources == {Event.Source.API}
    assert Event.objects.filter(game=game).count() == game.last_seq > 2
    assert Event.objects.filter(game=game, type="word_built").count() >= 2
    assert not rebuild_projection(game, write=False)


def test_the_example_bot_ends_its_turn_in_a_claim_window(
    live_server: Any, board_game: Callable[..., Game], settings: Any
) -> None:
    """Its robot finds a JUMBULAYA on its turn while the claim window is open:
    the call is judged at once and ends the game, and the bot stops (it used to
    be sealed, and the bot sent it again every 20 seconds, its turn never over)."""
    settings.JUMBULAYA_API_REQUESTS_PER_MINUTE = 100_000
    game = board_game()
    play(game, CLAIM_THE_BOARD)  # Ann's ninth move opens the window: Bob to move
    game.refresh_from_db()
    assert game.window_closes_at is not None and game.turn_seat == 1
    bob = game.seats.get(index=1).user
    assert bob is not None
    User.objects.filter(pk=bob.pk).update(is_bot=True)
    robot = [sys.executable, "manage.py", "robot", "--level", "greedy"]
    token = access_tokens.make(bob, "bot").token
    bot = subprocess.Popen(
        [sys.executable, str(BOT), live_server.url, token, str(game.pk), *robot],
        cwd=REPO,
        env=os.environ
        | {
            "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
            "JUMBULAYA_WORDLIST_DIR": str(settings.JUMBULAYA_WORDLIST_DIR),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output = bot.communicate(timeout=120)[0]
    except subprocess.TimeoutExpired:
        bot.kill()
        raise AssertionError("the bot's turn never ended") from None
    assert bot.returncode == 0, output
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    made = Event.objects.get(game=game, type="jumbulaya_verified")
    assert (made.seat, made.source) == (1, Event.Source.API)
    assert not game.claims.filter(resolved_at__isnull=True).exists()
