"""The game page's live stream, at ``/games/<id>/live/`` and through a turn link at
``/t/<token>/live/`` (:mod:`games.live.streams`): server-sent events an open page
listens to, so that a move, a message or a claim window shows on every open page
of the game within moments, without a click (``static/js/live.js`` fetches the
page's live part when told).

Async views: a stream sleeps on the event loop, holding no worker.  Who may listen
is who may see the page; a stream counts as one of its account's waits
(:mod:`games.live.holds`: past the cap, 429, and the page keeps its slow poll).
``?active=1`` says the page's player used it lately: they are here
(:mod:`games.live.presence`), so their "your turn" emails wait.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.views.decorators.http import require_GET

from games.live import holds, streams
from games.web import link_views, play_views
from games.web.access import Viewer

#: The longest version a page may say it shows.
MAX_SEEN = 80


@require_GET
async def game_stream(request: HttpRequest, game_id: int) -> HttpResponseBase:
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponse("Sign in to follow this game.", status=403, content_type="text/plain")
    door = await sync_to_async(play_views.SignedIn)(request, game_id)
    viewer = await sync_to_async(door.viewer)()
    return await _stream(request, viewer, user.pk)


@require_GET
async def link_stream(request: HttpRequest, token: str) -> HttpResponseBase:
    try:
        door = await sync_to_async(link_views.ThroughLink)(request, token)
    except link_views.LinkProblem as e:
        return HttpResponse(e.message, status=e.status, content_type="text/plain")
    return await _stream(request, door.opened, door.link.user_id)


async def _stream(request: HttpRequest, viewer: Viewer, account: int) -> HttpResponseBase:
    slot = await sync_to_async(holds.take)(account, streams.STREAM_SECONDS)
    if slot is None:
        return HttpResponse(
            f"An account may follow at most {holds.per_account()} games at once.",
            status=429,
            content_type="text/plain",
            headers={"Retry-After": str(int(streams.STREAM_SECONDS))},
        )
    if request.GET.get("active") == "1":
        await sync_to_async(play_views.note_here)(viewer)
    seen = request.GET.get("seen", "")[:MAX_SEEN]
    players_view = viewer.seat is not None  # a spectator's version names no message

    async def body() -> AsyncIterator[str]:
        try:
            async for chunk in streams.follow(viewer.game.pk, seen, messages=players_view):
                yield chunk
        finally:
            await sync_to_async(holds.give_back)(slot)

    response = StreamingHttpResponse(body(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
