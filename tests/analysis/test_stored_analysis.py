"""A finished game is analysed once, by a task its last move nudges; the beat
sweep and ``manage.py analyse`` store what a lost nudge missed."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from games.coach import analysis
from games.core.projection import game_lexicon, load_events
from games.engine.jumbulaya.analysis import FORMAT, GameAnalysis, analyse
from games.models import Game
from games.models import GameAnalysis as Stored

pytestmark = pytest.mark.django_db


def test_the_stored_analysis_is_the_engines_with_the_robots_choices(
    finished_game: Callable[..., Game],
) -> None:
    game = finished_game()
    assert analysis.analyse_game(game.pk) is True
    row = Stored.objects.get(game=game)
    assert row.format == FORMAT
    stored = GameAnalysis.from_json(row.data)
    plain = analyse(load_events(game), game_lexicon(game))  # type: ignore[arg-type]
    assert stored.robot and not plain.robot
    assert [t.move for t in stored.turns] == [t.move for t in plain.turns]
    assert [t.best for t in stored.turns] == [t.best for t in plain.turns]
    assert all(t.robot for t in stored.turns if t.on_turn)
    # The known facts: STRANGE was the best first move, and SPRINTS lay open
    # for the two passes before Bob called it.
    assert stored.turns[0].move == "1 S-T-R-A-N-G-E" and stored.turns[0].missed == 0
    opened = [j for j in stored.jumbulayas if j.called_by == 1]
    assert opened and opened[0].from_turn == 9 and opened[0].turns == 2
    assert stored.totals[1].scored > stored.totals[0].scored


def test_the_task_stores_one_analysis_however_often_it_runs(
    finished_game: Callable[..., Game],
) -> None:
    from games.tasks import analyse_game

    game = finished_game()
    assert analyse_game(game.pk) is True
    first = Stored.objects.get(game=game)
    assert analyse_game(game.pk) is False
    assert analysis.sweep() == 0
    assert Stored.objects.filter(game=game).count() == 1
    assert Stored.objects.get(game=game).created_at == first.created_at


def test_a_game_not_over_is_not_analysed(board_game: Callable[..., Game]) -> None:
    game = board_game()
    assert analysis.analyse_game(game.pk) is False
    assert not Stored.objects.exists()


def test_the_move_that_ends_the_game_nudges_the_task_after_its_commit(
    board_game: Callable[..., Game],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from celery import current_app

    from tests.analysis.conftest import play_out

    asked: list[tuple[str, Any]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, **kw: asked.append((name, args))
    )
    game = board_game(claim_window=False)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(game)
    assert [a for a in asked if a[0] == analysis.ANALYSE_TASK] == [
        ("games.tasks.analyse_game", (game.pk,))
    ]


def test_the_sweep_analyses_what_a_lost_nudge_missed(
    finished_game: Callable[..., Game],
) -> None:
    game = finished_game()
    Stored.objects.all().delete()
    assert list(analysis.unanalysed()) == [game.pk]
    assert analysis.sweep() == 1
    assert list(analysis.unanalysed()) == []


def test_the_command_backfills_and_sums_up(finished_game: Callable[..., Game]) -> None:
    game = finished_game()
    Stored.objects.all().delete()
    out, err = StringIO(), StringIO()
    call_command("analyse", "--no-robot", stdout=out, stderr=err)
    assert Stored.objects.filter(game=game).count() == 1
    assert "1 finished games: 1 analysed, 0 already were" in out.getvalue()
    out = StringIO()
    call_command("analyse", "--game", str(game.pk), stdout=out, stderr=err)
    assert "0 analysed, 1 already were" in out.getvalue()
    out = StringIO()
    call_command("analyse", "--game", str(game.pk), "--force", stdout=out, stderr=err)
    assert "1 analysed" in out.getvalue()
    assert GameAnalysis.from_json(Stored.objects.get(game=game).data).robot


def test_without_a_stored_analysis_one_is_computed_on_the_spot(
    finished_game: Callable[..., Game],
) -> None:
    game = finished_game()
    Stored.objects.all().delete()
    result = analysis.analysis_of(game)
    assert not result.robot and len(result.turns) == 12
    assert not Stored.objects.exists()
