"""Resigning off turn, in every kind: a player of a three-seat game who is not
to move has the Resign button on the game page (signed in, and through a turn
link of the position now), is asked once, and resigns."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games import kinds
from games.core.lobby import create_game, join_game
from games.core.projection import current_state
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game


def three_seats(make_user: Callable[[str], User], kind: str) -> Game:
    users = [make_user(n) for n in ("ann", "bob", "cy")]
    game = create_game(
        users[0],
        kind=kind,
        seat_count=3,
        rules=next(iter(kinds.get(kind).presets.values())),
        invite_emails=[u.email for u in users[1:]],
    )
    for user in users[1:]:
        join_game(game.pk, user)
    game.refresh_from_db()
    return game


def off_turn_seat(game: Game) -> int:
    to_move = kinds.get(game.kind).progress(current_state(game)).to_move
    return next(s for s in range(3) if s not in to_move)


def resign_form(html: str) -> dict[str, str]:
    found = re.search(
        r'<form [^>]*class="inline one-move"[^>]*>((?:(?!</form>).)*data-move="resign".*?)</form>',
        html,
        re.S,
    )
    assert found is not None, "no Resign button on the page"
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', found[1]))


@pytest.mark.parametrize("kind", [k.name for k in kinds.all() if k.max_players >= 3])
@pytest.mark.parametrize("door", ["signed in", "turn link"])
def test_a_player_off_turn_can_resign(
    make_user: Callable[[str], User], kind: str, door: str
) -> None:
    game = three_seats(make_user, kind)
    seat = off_turn_seat(game)
    user = game.seats.get(index=seat).user
    assert user is not None
    client = Client()
    if door == "signed in":
        client.force_login(user)
        url = f"/games/{game.pk}/"
        post_to = f"/games/{game.pk}/move/"
    else:
        url = post_to = f"/t/{turn_token(user.pk, game.pk, game.last_seq)}/"
    page = client.get(url).content.decode()
    assert "turn" in page and 'id="compose"' in page
    form = resign_form(page)
    asked = client.post(post_to, form).content.decode()
    assert 'id="confirm-title"' in asked and "Resign" in asked
    assert not Event.objects.filter(game=game, type="resigned").exists()  # asked, not done
    answer = dict(
        re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
            asked.split('class="confirm-actions"')[1].split("</form>")[0],
        )
    )
    client.post(post_to, answer)
    assert Event.objects.get(game=game, type="resigned").seat == seat
