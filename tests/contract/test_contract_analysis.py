"""Every kind's analysis: a finished game is analysed once (``manage.py
analyse`` and the task's function store the same row), and its analysis page
shows it to a player, or is absent for a kind without analyses."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import call_command

from games.coach import analysis
from games.kinds import presentation
from games.kinds.base import GameKind
from games.models import Game, GameAnalysis

from .play import play_one, resign_all_but, seat_user, signed_in

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_a_finished_game_is_analysed_and_its_page_shows_it(
    kind: GameKind, contract_game: Callable[..., Game]
) -> None:
    assert kind.robots is not None, f"{kind.label} has no robots"
    game = contract_game()
    mover, _ = play_one(game)
    resign_all_but(game, mover)
    call_command("analyse", "--game", str(game.pk), stdout=StringIO(), stderr=StringIO())
    stored = GameAnalysis.objects.get(game=game)
    assert stored.format == kind.robots.analysis_format
    assert analysis.analyse_game(game.pk) is False  # once
    page = signed_in(seat_user(game, mover)).get(f"/games/{game.pk}/analysis/")
    if presentation.of(kind).analysis_template is None:
        assert page.status_code == 404
    else:
        assert page.status_code == 200
