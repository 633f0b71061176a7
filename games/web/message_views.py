"""Players' messages on the game page: one sent on its own, muting a game's
messages, reporting one to staff.  Thin views over :mod:`games.core.chat`; a
message sent with a move goes with the move form (:mod:`games.web.play_views`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from games.core import chat
from games.models import Message
from games.web.access import viewer_or_404


def _back(game_id: int) -> HttpResponse:
    return redirect("games:game", game_id)


def _player(request: HttpRequest, game_id: int) -> tuple[int, User] | HttpResponse:
    viewer = viewer_or_404(game_id, request.user)
    if viewer.seat is None or not isinstance(request.user, User):
        return HttpResponse(
            "Only the players of this game can send, mute or report its messages.",
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    return viewer.seat, request.user


@login_required
@require_POST
def say(request: HttpRequest, game_id: int) -> HttpResponse:
    found = _player(request, game_id)
    if isinstance(found, HttpResponse):
        return found
    seat, _ = found
    try:
        chat.post_message(game_id, seat, str(request.POST.get("message", "")), Message.Source.WEB)
    except chat.MessageRefused as e:
        messages.error(request, f"Your message was not sent: {e.message}")
    else:
        messages.success(request, "Your message was sent to the other players.")
    return _back(game_id)


@login_required
@require_POST
def mute(request: HttpRequest, game_id: int) -> HttpResponse:
    found = _player(request, game_id)
    if isinstance(found, HttpResponse):
        return found
    seat, _ = found
    value = request.POST.get("muted") == "1"
    chat.set_muted(viewer_or_404(game_id, request.user).game, seat, value)
    messages.success(
        request,
        "Messages in this game are muted: you will not see them here nor in emails."
        if value
        else "Messages in this game are shown again.",
    )
    return _back(game_id)


@login_required
@require_POST
def report(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    found = _player(request, game_id)
    if isinstance(found, HttpResponse):
        return found
    _, user = found
    game = viewer_or_404(game_id, request.user).game
    try:
        chat.report(game, message_id, user, str(request.POST.get("reason", "")))
    except chat.MessageRefused as e:
        messages.error(request, e.message)
    else:
        messages.success(request, "Thank you: the message was reported to the site's staff.")
    return _back(game_id)
