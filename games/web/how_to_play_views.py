"""How to play: a page for each game kind, and one presenting them all.

A game's page says its rules in plain words, with a small drawn example (its
kind's own template, ``how_to_play/<kind>.html``: HTML and CSS only, as the
site's Content-Security-Policy wants), the notation a move is written in on
the page and in a reply by email, and the options a game of it can be
created with (:mod:`games.web.how_to_play`).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import kinds
from games.web.how_to_play import guide, guides


@require_GET
def every_game(request: HttpRequest) -> HttpResponse:
    """The four games, each with a line and its page."""
    return render(request, "games/how_to_play_index.html", {"guides": guides()})


@require_GET
def how_to_play(request: HttpRequest, kind: str) -> HttpResponse:
    """One game's page; a 404 that names the games for a name that is none."""
    try:
        found = kinds.get(kind)
    except kinds.UnknownKind as e:
        raise Http404(e.message) from None
    return render(request, "games/how_to_play.html", {"guide": guide(found)})
