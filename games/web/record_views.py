"""Game records: download a finished game, replay it step by step, upload a
record and replay that.  The work is in :mod:`games.core.records`; each step is
drawn by the kind's presentation (:mod:`games.kinds.presentation`)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from games import kinds
from games.core import records, score_series, upload_limits
from games.kinds import presentation
from games.models import Game
from games.web import charts
from games.web.access import viewer_or_404


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required saw to it
    return user


def _refused(
    request: HttpRequest, error: records.RecordError, context: dict[str, Any]
) -> HttpResponse:
    return render(
        request,
        "games/replay.html",
        {**context, "problem": error.message},
        status=error.status,
    )


def _game_context(game: Game) -> dict[str, Any]:
    return {
        "title": f"Game {game.pk}",
        "game": game,
        "back_url": reverse("games:game", args=[game.pk]),
        "back_words": "Back to the game",
    }


@login_required
@require_GET
def download(request: HttpRequest, game_id: int) -> HttpResponse:
    game = viewer_or_404(game_id, request.user).game
    try:
        body = records.export_json(game)
    except records.RecordError as e:
        return _refused(request, e, _game_context(game))
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{records.download_filename(game)}"'
    return response


def _step(replay: records.Replay, raw_step: str | None) -> dict[str, Any]:
    """The replay at ``?step=raw_step``, as the replay's kind draws it (400 for a
    step that is not a number): the page's ``view`` and the kind's template for
    the board at that step."""
    step = records.parse_step(raw_step, replay.last_step)
    return {
        "view": presentation.of(replay.kind).replay_step(replay, step),
        "replay_board_template": replay.kind.replay_board_template,
        "score_chart": charts.score_chart(score_series.series_of(replay.kind, replay.events)),
    }


@login_required
@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = viewer_or_404(game_id, request.user).game
    context = _game_context(game)
    try:
        replay = records.game_replay(game)
        step = _step(replay, request.GET.get("step"))
    except records.RecordError as e:
        return _refused(request, e, context)
    context |= step | {"download_url": reverse("games:download", args=[game.pk])}
    analysed = presentation.of(replay.kind).analysis_template is not None
    if game.status == game.Status.OVER and analysed:
        context["analysis_url"] = reverse("games:analysis", args=[game.pk])
    return render(request, "games/replay.html", context)


def _upload_page(
    request: HttpRequest, user: User, error: records.RecordError | None = None
) -> HttpResponse:
    usage = upload_limits.usage(user)
    context = {
        "formats": [(kind.record_format, kind.label) for kind in kinds.all()],
        "uploads": records.uploads_of(user),
        "max_size": records.MAX_UPLOAD_WORDS,
        "max_inline_list": records.MAX_INLINE_LIST,
        "per_day": usage.per_day,
        "room_mb": usage.room_bytes // upload_limits.MB,
        "stored": upload_limits.kilobytes(usage.stored_bytes),
        "limited": not user.is_staff,
    }
    if error is None:
        return render(request, "games/upload.html", context)
    return render(
        request, "games/upload.html", context | {"error": error.message}, status=error.status
    )


# CsrfViewMiddleware would read the whole body to find the form's token before the
# view could look at its size, so the token is checked by _store, once the size is.
@csrf_exempt
@login_required
@require_http_methods(["GET", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if request.method != "POST":
        return _upload_page(request, user)
    try:
        records.check_upload_length(request.META.get("CONTENT_LENGTH"))
    except records.RecordError as e:
        return _upload_page(request, user, e)
    return _store(request, user)


@csrf_protect
def _store(request: HttpRequest, user: User) -> HttpResponse:
    try:
        stored = records.store_upload(user, request.FILES.get("record"))
    except records.RecordError as e:
        return _upload_page(request, user, e)
    return redirect("games:uploaded_replay", record_id=stored.pk)


@login_required
@require_POST
def delete_upload(request: HttpRequest, record_id: int) -> HttpResponse:
    deleted = records.delete_upload(_user(request), record_id)
    messages.success(request, f"{deleted.name} is deleted.")
    return redirect("games:upload")


@login_required
@require_GET
def uploaded_replay(request: HttpRequest, record_id: int) -> HttpResponse:
    stored = records.upload_or_404(record_id, _user(request))
    context: dict[str, Any] = {
        "title": stored.name,
        "upload": stored,
        "back_url": reverse("games:upload"),
        "back_words": "Upload another record",
    }
    try:
        replay = records.upload_replay(stored)
        step = _step(replay, request.GET.get("step"))
    except records.RecordError as e:
        return _refused(request, e, context)
    return render(request, "games/replay.html", context | step)
