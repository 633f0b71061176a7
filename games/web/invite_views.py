"""Inviting people to a game waiting for players, from its page: any of its
players may, as its creator did when making it (the same emails and daily
limit, :func:`games.core.lobby.invite`)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from games.core import lobby, projection
from games.web.access import viewer_or_404
from games.web.forms import split_addresses


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    """Invite the addresses of the page's box; the page again, saying what was
    done or why nothing was.  A game the user may not see is a 404, and a
    spectator is refused (403)."""
    user = cast(User, request.user)
    viewer = viewer_or_404(game_id, user)
    if viewer.seat is None:
        return HttpResponse(
            "Only the players of this game can invite others to it.",
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    emails = split_addresses(str(request.POST.get("emails", "")))
    try:
        seats = lobby.invite(game_id, user, emails)
    except projection.ServiceError as e:
        messages.error(request, e.message)
    else:
        sent = ", ".join(s.invited_email for s in seats)
        messages.success(request, f"An invitation was sent to {sent}.")
    return redirect("games:game", game_id)
