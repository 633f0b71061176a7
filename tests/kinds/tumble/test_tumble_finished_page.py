"""A finished Tumble-Words game's page names each of its parts once: the board
of a game that ended at a round's reveal said "Round 5" as the last round
revealed below it did, two landmarks of one name (axe: landmark-unique)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.core import door, lobby
from games.models import Event, Game
from tests.notify.test_mail_when_away import robots_reply

pytestmark = pytest.mark.django_db

#: Rounds enough for the robot to reach the target while Ann hands in nothing.
ROUNDS = 30


def test_a_game_ended_at_a_reveal_names_its_board_and_its_last_round_apart(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    game = lobby.play_against_robot(ann, "casual", kind="tumble")
    robots_reply(game)
    for _ in range(ROUNDS):
        if game.status == Game.Status.OVER:
            break
        door.submit(game.pk, 0, ".", game.last_seq, Event.Source.WEB)
        robots_reply(game)
    assert game.status == Game.Status.OVER and game.end_reason != "resigned"
    client = Client()
    client.force_login(ann)
    page = client.get(f"/games/{game.pk}/").content.decode()
    labels = re.findall(r'<section[^>]*aria-labelledby="([^"]+)"', page)
    names = Counter(
        re.sub(r"<[^>]+>|\s+", " ", found.group(1)).strip()
        for label in labels
        if (found := re.search(rf'id="{label}"[^>]*>(.*?)</h\d>', page, re.S))
    )
    assert sum(names.values()) == len(labels) >= 3  # every part has its heading
    assert [name for name, n in names.items() if n > 1] == []
