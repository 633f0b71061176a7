"""Who may see a game: :func:`games.web.access.visible_games`, the query the
lists use, says what :func:`games.web.access.viewer_or_404` says of each game."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from accounts.models import User
from games.core.lobby import create_game, join_game
from games.engine.jumbulaya import PRESETS
from games.models import Game
from games.web.access import viewer_or_404, visible_games


def seen(game: Game, user: User | AnonymousUser) -> bool:
    try:
        viewer_or_404(game.pk, user)
    except Http404:
        return False
    return True


@pytest.mark.parametrize("public", [False, True])
def test_the_query_and_the_one_game_rule_agree(
    make_user: Callable[[str], User], public: bool
) -> None:
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    played = create_game(
        ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email], is_public=public
    )
    join_game(played.pk, bob)
    waiting = create_game(cy, seat_count=2, rules=PRESETS["official"], is_public=public)
    for user in (ann, bob, cy, AnonymousUser()):
        listed = set(visible_games(user))
        for game in (played, waiting):
            assert (game in listed) == seen(game, user), (user, game.pk)
    assert set(visible_games(cy)) == ({played, waiting} if public else {waiting})
    assert not visible_games(AnonymousUser()).exists()
