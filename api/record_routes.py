"""Records: a finished game's record down, and a record up to replay (as the
upload page does: checked, stored for its owner, replayed)."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest
from django.urls import reverse
from ninja import Router, Status

from api import reading
from api.auth import user_of
from api.bodies import check_json
from api.errors import ApiError
from api.schemas import ErrorOut, RecordOut
from games.core import records

router = Router(tags=["records"])

ERRORS: dict[int, type[ErrorOut]] = {s: ErrorOut for s in (400, 401, 404, 409, 413, 429)}


def _refused(error: records.RecordError) -> ApiError:
    code = {400: "bad_record", 413: "too_large"}.get(error.status, "not_over")
    return ApiError(error.status, code, error.message)


@router.get(
    "/games/{id:game_id}/record",
    response={200: dict[str, Any], **ERRORS},
    summary="A finished game's record",
    description="The record in its kind's format (`jumbulaya-record/1`, game-record.md). "
    "A record holds every rack and the bag, so it is given once the game is over (409 "
    "before).",
)
def record(request: HttpRequest, game_id: int) -> dict[str, Any]:
    game = reading.viewer(game_id, user_of(request)).game
    try:
        return records.export_record(game)
    except records.RecordError as e:
        raise _refused(e) from None


@router.post(
    "/records",
    response={201: RecordOut, **ERRORS},
    summary="Upload a record to replay",
    description="The body is a record (JSON, at most 1 MB). It is checked and replayed "
    "as the upload page does, kept for you alone, and its replay page is named. A "
    "malformed record is a 400 (`bad_record`) and nothing is stored; a record whose "
    "replay stops at a refused turn is kept, and `refusal` says which.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
def upload(request: HttpRequest) -> Status[dict[str, Any]]:
    user = user_of(request)
    try:
        records.check_upload_length(request.META.get("CONTENT_LENGTH"))
        check_json(request)
        upload = SimpleUploadedFile("record.json", request.body, "application/json")
        stored = records.store_upload(user, upload)
    except records.RecordError as e:
        raise _refused(e) from None
    return Status(
        201,
        {
            "id": stored.pk,
            "name": stored.name,
            "players": stored.players,
            "turns": stored.turn_count,
            "end": stored.end or None,
            "refusal": stored.refusal or None,
            "replay_url": reverse("games:uploaded_replay", args=[stored.pk]),
        },
    )
