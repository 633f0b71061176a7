"""Records: a finished game's record down, and a record up to replay (as the
upload page does: checked, stored for its owner, replayed), one's uploads
listed and deleted."""

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
from api.schemas import ErrorOut, RecordOut, RecordsOut
from games.core import records, upload_limits
from games.models import RecordUpload

router = Router(tags=["records"])

ERRORS: dict[int, type[ErrorOut]] = {s: ErrorOut for s in (400, 401, 404, 409, 413, 429)}
#: The most uploads ``GET /records`` lists.
LISTED = 100


def _refused(error: records.RecordError) -> ApiError:
    code = error.code or {400: "bad_record", 413: "too_large"}.get(error.status, "not_over")
    return ApiError(error.status, code, error.message)


def _out(stored: RecordUpload) -> dict[str, Any]:
    return {
        "id": stored.pk,
        "name": stored.name,
        "players": stored.players,
        "turns": stored.turn_count,
        "end": stored.end or None,
        "refusal": stored.refusal or None,
        "replay_url": reverse("games:uploaded_replay", args=[stored.pk]),
        "size": stored.size,
        "uploaded_at": stored.created_at.isoformat() if stored.created_at else None,
    }


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
    "replay stops at a refused turn is kept, and `refusal` says which. An account may "
    "upload `JUMBULAYA_RECORD_UPLOADS_PER_DAY` records a day and keep "
    "`JUMBULAYA_RECORD_STORAGE_MB` of them (`GET /records` says how much): past either, "
    "409 `over_limit`, saying when or how it frees, and nothing is stored.",
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
    return Status(201, _out(stored))


@router.get(
    "/records",
    response={200: RecordsOut, 401: ErrorOut, 429: ErrorOut},
    summary="My uploaded records",
    description="Your uploads, the newest first, and your limits: what they take of the "
    "room one account may keep, and the uploads one account may make a day.",
)
def my_records(request: HttpRequest) -> dict[str, Any]:
    user = user_of(request)
    usage = upload_limits.usage(user)
    return {
        "records": [_out(u) for u in records.uploads_of(user, LISTED)],
        "stored_bytes": usage.stored_bytes,
        "room_bytes": usage.room_bytes,
        "uploads_per_day": usage.per_day,
    }


@router.delete(
    "/records/{id:record_id}",
    response={204: None, 401: ErrorOut, 404: ErrorOut, 429: ErrorOut},
    summary="Delete an uploaded record",
    description="Makes room for other uploads (the day's count of uploads stays as it "
    "was). Another account's record is a 404.",
)
def delete(request: HttpRequest, record_id: int) -> Status[None]:
    records.delete_upload(user_of(request), record_id)
    return Status(204, None)
