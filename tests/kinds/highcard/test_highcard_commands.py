"""``manage.py`` commands on a game of a second kind: each goes by the game's
kind (rebuilding its projection, analysing only kinds with analyses, robots
only of kinds with robots: high card registered without its robots)."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.coach import analysis
from games.core import door
from games.models import Event, Game, GameAnalysis


def test_rebuild_games_replays_a_game_of_any_kind(card_game: Callable[..., Game]) -> None:
    game = card_game()
    seat = game.turn_seat
    assert seat is not None
    door.submit(game.pk, seat, "pass", game.last_seq, Event.Source.WEB)
    Game.objects.filter(pk=game.pk).update(state=None, last_seq=0)
    out = StringIO()
    call_command("rebuild_games", stdout=out)
    assert f"game {game.pk}: the cached projection differed" in out.getvalue()
    game.refresh_from_db()
    assert game.last_seq == 2 and game.state is not None and game.turn_seat == 1 - seat
    check = StringIO()
    call_command("rebuild_games", "--check", stdout=check)
    assert "found 0 that differed" in check.getvalue()


@pytest.mark.usefixtures("highcard_without_robots")
def test_a_finished_game_of_a_kind_without_analyses_is_not_analysed(
    card_game: Callable[..., Game],
) -> None:
    game = card_game()
    door.submit(game.pk, 0, "resign", game.last_seq, Event.Source.WEB)
    assert Game.objects.get(pk=game.pk).status == Game.Status.OVER
    assert list(analysis.unanalysed()) == []
    out = StringIO()
    call_command("analyse", "--game", str(game.pk), stdout=out, stderr=StringIO())
    assert "1 named games are not finished, of a kind without analyses" in out.getvalue()
    assert analysis.sweep() == 0 and not GameAnalysis.objects.exists()


@pytest.mark.usefixtures("highcard_without_robots")
def test_robot_says_a_kind_has_no_robots() -> None:
    with pytest.raises(CommandError, match="the game kind 'highcard' has no robots"):
        call_command("robot", "--kind", "highcard", stdin=StringIO(""))
