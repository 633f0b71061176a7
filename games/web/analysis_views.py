"""The analysis page of a finished game, for a kind whose presentation has one
(JUMBULAYA's: every turn's move against the best one and the strongest robot's
choice, the JUMBULAYAs left open, each player's totals).  Whoever may see the
game's replay (signed in, and a player or a public game's spectator:
:mod:`games.web.access`) may see it, once the game is over; the analysis itself
comes from :mod:`games.coach.analysis`, and what the page shows of it from the
kind's presentation.  A kind without analyses has no such page (404).
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.coach.analysis import analysis_of
from games.core import score_series, seat_names
from games.core.projection import kind_of
from games.kinds import presentation
from games.models import Game
from games.web import charts
from games.web.access import viewer_or_404

log = logging.getLogger(__name__)


@login_required
@require_GET
def game_analysis(request: HttpRequest, game_id: int) -> HttpResponse:
    """Who may see the replay may see the analysis (404 otherwise, before the
    game is over, and for a kind without analyses)."""
    game = viewer_or_404(game_id, request.user).game
    shown = presentation.of(kind_of(game))
    template = shown.analysis_template
    if template is None:
        raise Http404(f"There is no analysis of a game of {kind_of(game).label}.")
    if game.status != Game.Status.OVER:
        raise Http404("The analysis comes when the game is over.")
    context: dict[str, Any] = {
        "game": game,
        "replay_url": reverse("games:game_replay", args=[game.pk]),
    }
    try:
        result = analysis_of(game)
    except Exception:  # a word list gone, a log that no longer folds: say so, no traceback
        log.exception("game %s: the analysis could not be made", game.pk)
        return render(request, template, context | {"unavailable": True})
    context |= {"analysis": result, **shown.analysis_context(result, seat_names.names_now(game))}
    context["score_chart"] = charts.score_chart(score_series.game_series(game))
    return render(request, template, context)
