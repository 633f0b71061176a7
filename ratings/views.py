"""Players' pages and the leaderboards: thin views over :mod:`ratings.standings`,
open to anyone signed in."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import kinds
from games.web import charts
from ratings import standings
from ratings.models import RatingChange


def history_chart(figures: standings.KindFigures) -> charts.Chart | None:
    """A kind's rating after each rated game (and before the first), or
    ``None`` before any."""
    history: list[RatingChange] = figures.history
    if not history:
        return None
    values = [history[0].ordinal_before, *(change.ordinal_after for change in history)]
    label = figures.kind.label
    rows = [("0", "start", f"{values[0]:.1f}")] + [
        (str(n), f"game {change.game_id}, place {change.rank}", f"{change.ordinal_after:.1f}")
        for n, change in enumerate(history, start=1)
    ]
    return charts.line_chart(
        ident=f"rating-{figures.kind.name}",
        title=f"{label} rating after each rated game",
        description=f"{len(history)} rated game{'s' if len(history) != 1 else ''}: from "
        f"{values[0]:.1f} to {values[-1]:.1f}.",
        x_label="Rated game",
        xs=range(len(values)),
        series=[("Rating", values)],
        head=("Rated game", "Game and place", "Rating after"),
        rows=rows,
    )


@login_required
@require_GET
def player(request: HttpRequest, who: str) -> HttpResponse:
    found = standings.find_players(who)
    if not found:
        raise Http404("No player goes by that name or number.")
    if len(found) > 1:
        return render(request, "ratings/choose_player.html", {"who": who, "players": found})
    user = found[0]
    finished = standings.finished_games(user, request.user)
    per_kind = standings.figures(user, finished, request.user)
    context: dict[str, Any] = {
        "player": user,
        "kinds": [(f, history_chart(f)) for f in per_kind],
        "recent": finished[: standings.RECENT_GAMES],
        "is_you": request.user.pk == user.pk,
    }
    return render(request, "ratings/player.html", context)


@login_required
@require_GET
def leaderboard(request: HttpRequest, kind: str) -> HttpResponse:
    try:
        game_kind = kinds.get(kind)
    except kinds.UnknownKind:
        raise Http404("There is no such game.") from None
    context = {
        "kind": game_kind,
        "standings": standings.leaderboard(game_kind),
        "others": [k for k in kinds.all() if k.name != game_kind.name],
    }
    return render(request, "ratings/leaderboard.html", context)
