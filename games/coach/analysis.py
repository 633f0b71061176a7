"""Stored analyses of finished games (issue 12).

When a game ends, the move that ended it nudges :data:`ANALYSE_TASK` after
its commit (:func:`after_move`, the one door's last step); the task runs
:func:`analyse_game`, which stores the kind's analysis (its robots'
``analyse``; JUMBULAYA's is :func:`games.engine.jumbulaya.analysis.analyse`) with the
strongest robot's choice of every turn in a :class:`~games.models.GameAnalysis`
row, once: the row is unique per game, so a nudge delivered twice, or a sweep
racing a nudge, stores one analysis.  :func:`sweep` (beat) and ``manage.py
analyse`` analyse what a lost nudge missed.

:func:`analysis_of` is what pages and emails read: the stored analysis, or
one computed on the spot without the robot (well under a second) when none
is stored yet.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from celery import current_app
from django.db import IntegrityError, transaction

from games import kinds
from games.core.followers import Moved
from games.core.projection import game_lexicon, kind_of, load_events
from games.kinds.base import Robots
from games.models import Game
from games.models import GameAnalysis as StoredAnalysis

log = logging.getLogger(__name__)

#: The task that analyses one game (``games.tasks.analyse_game``).
ANALYSE_TASK = "games.tasks.analyse_game"
#: The robot's random seed: the same game always gets the same choices.
ROBOT_SEED = 12
#: How long the robot may think per turn, in milliseconds.
ROBOT_BUDGET_MS = 20.0
#: The format of a row kept for a game whose analysis failed.
FAILED = "failed"
#: Games one sweep analyses at most (the next sweep goes on).
SWEEP_BATCH = 20


def compute(game: Game, *, robot: bool = True) -> Any:
    """The analysis of ``game``'s whole log (not stored), with the strongest
    robot's choice of every turn unless ``robot`` is false."""
    robots = _robots(game)
    lexicon = game_lexicon(game) if kind_of(game).uses_word_list else None
    level = robots.strongest if robot else None
    return robots.analyse(load_events(game), lexicon, level, ROBOT_BUDGET_MS, ROBOT_SEED)


def _robots(game: Game) -> Robots:
    robots = kind_of(game).robots
    if robots is None:
        raise ValueError(f"{kind_of(game).label} has no analysis")
    return robots


def analysed_kinds() -> list[str]:
    """The names of the kinds whose games are analysed: those with robots."""
    return [kind.name for kind in kinds.all() if kind.robots is not None]


def unanalysed() -> Iterable[int]:
    """The finished games with no stored analysis, oldest first (of the kinds
    that have analyses)."""
    return (
        Game.objects.filter(
            status=Game.Status.OVER, analysis__isnull=True, kind__in=analysed_kinds()
        )
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )


def analyse_game(game_id: int, *, force: bool = False, robot: bool = True) -> bool:
    """Analyse a finished game and store it, once: True when this call stored
    an analysis; False when one was stored already (unless ``force``: then it
    is replaced) or the game is not over."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.OVER:
        return False
    if not force and StoredAnalysis.objects.filter(game_id=game_id).exists():
        return False
    began = time.perf_counter()
    result = compute(game, robot=robot)
    took = round((time.perf_counter() - began) * 1000)
    fields = {"format": _robots(game).analysis_format, "data": result.to_json(), "took_ms": took}
    if force:
        StoredAnalysis.objects.update_or_create(game_id=game_id, defaults=fields)
        return True
    try:
        with transaction.atomic():
            StoredAnalysis.objects.create(game_id=game_id, **fields)
    except IntegrityError:
        return False  # another worker stored it first
    log.info("game %s analysed in %d ms", game_id, took)
    return True


def analysis_of(game: Game) -> Any:
    """The stored analysis of a finished game, else one computed now without
    the robot (not stored: the task stores the full one)."""
    row = StoredAnalysis.objects.filter(game_id=game.pk).first()
    robots = _robots(game)
    if row is not None and row.format == robots.analysis_format:
        try:
            return robots.analysis_from_json(row.data)
        except (ValueError, KeyError, TypeError):
            log.warning("game %s: the stored analysis cannot be read; computed again", game.pk)
    return compute(game, robot=False)


def sweep(limit: int = SWEEP_BATCH) -> int:
    """Analyse up to ``limit`` finished games a lost nudge left without one;
    a game whose analysis fails is logged and skipped."""
    done = 0
    for game_id in list(unanalysed()[:limit]):  # type: ignore[index]
        try:
            done += analyse_game(game_id)
        except Exception as e:
            # Kept as failed, so that the sweep goes on to the next games;
            # ``manage.py analyse --force --game ID`` tries it again.
            log.exception("game %s could not be analysed", game_id)
            StoredAnalysis.objects.get_or_create(
                game_id=game_id, defaults={"format": FAILED, "data": {"error": str(e)[:500]}}
            )
    return done


def on_move(moved: Moved) -> None:
    """A follower of the one door's moves: a move that ended the game asks for
    its analysis once the transaction commits (a kind without analyses: no).
    A broker that is down changes nothing: the sweep analyses it."""
    game = moved.game
    if game.status == Game.Status.OVER and kind_of(game).robots is not None:
        game_id = game.pk
        transaction.on_commit(lambda: _ring(game_id))


def _ring(game_id: int) -> None:
    try:
        current_app.send_task(ANALYSE_TASK, (game_id,))
    except Exception as e:  # the broker is a doorbell: the sweep analyses it
        log.warning("could not reach the broker (%s); game %s waits for the sweep", e, game_id)
