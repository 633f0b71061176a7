"""How much one account may upload to replay (:mod:`games.core.records`):
``JUMBULAYA_RECORD_UPLOADS_PER_DAY`` records a day, and record files of
``JUMBULAYA_RECORD_STORAGE_MB`` in all kept at once.

The daily count is a cell rate in the database (:func:`accounts.limits.record_upload_limit`):
that many at once, then one every 24 hours / N.  Every upload read counts, stored
or refused, as each costs a replay; deleting a record gives none back.  The room is
the sum of the kept files' sizes; deleting one makes room.  Staff are exempt; 0
turns a limit off.  A refusal is :class:`~games.core.limits.OverLimit`: it says
the limit and when (or how) it frees, and nothing is stored."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from accounts import limits
from accounts.models import User
from games.core.limits import OverLimit, local_moment
from games.models import RecordUpload

MB = 1024 * 1024


def kilobytes(size: int) -> str:
    """``1,024 KB``: a size as the upload page and the refusals say it."""
    return f"{(size + 1023) // 1024:,} KB"


@dataclass(frozen=True)
class Usage:
    """An account's uploads against its limits (``0``: no limit)."""

    stored_bytes: int
    room_bytes: int
    per_day: int


def room_bytes() -> int:
    return max(0, int(settings.JUMBULAYA_RECORD_STORAGE_MB)) * MB


def usage(owner: User) -> Usage:
    stored = RecordUpload.objects.filter(owner=owner).aggregate(total=Sum("size"))["total"]
    per_day = max(0, int(settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY))
    return Usage(stored or 0, room_bytes(), per_day)


def check_room(owner: User, size: int) -> None:
    """Refuse a file of ``size`` bytes that would take ``owner`` past the room
    one account may keep."""
    room = room_bytes()
    if owner.is_staff or room <= 0:
        return
    stored = usage(owner).stored_bytes
    if stored + size > room:
        raise OverLimit(
            f"Your uploaded records take {kilobytes(stored)} of the "
            f"{settings.JUMBULAYA_RECORD_STORAGE_MB} MB one account may keep, and this file "
            f"is {kilobytes(size)}: delete records you no longer need to make room (on the "
            "upload page, or DELETE /api/v1/records/<id>). Nothing was stored."
        )


def take_upload(owner: User) -> None:
    """Count one upload against ``owner``'s day, or refuse it (and count nothing)."""
    if owner.is_staff:
        return
    limit = limits.record_upload_limit(owner.pk)
    if limit is None:
        return
    refused = limits.take([limit])
    if refused is not None:
        frees = local_moment(timezone.now() + refused.wait, owner)
        raise OverLimit(
            f"One account may upload {limit.allowance} records a day (that many at once, "
            f"then one every {_every(limit.allowance)}): you can upload another from "
            f"{frees}. Nothing was stored."
        )


def _every(per_day: int) -> str:
    minutes = round(24 * 60 / per_day)
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = round(minutes / 60)
    return f"{hours} hours"
