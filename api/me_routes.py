"""The account a token belongs to."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from accounts import access_tokens
from accounts.models import AccessToken
from api.schemas import ErrorOut, MeOut

router = Router(tags=["account"])


@router.get("/me", response={200: MeOut, 401: ErrorOut, 429: ErrorOut}, summary="Who you are")
def me(request: HttpRequest) -> dict[str, Any]:
    token = request.auth  # type: ignore[attr-defined]  # set by django-ninja
    assert isinstance(token, AccessToken)
    user = token.user
    return {
        "id": user.pk,
        "name": user.public_name,
        "bot": user.is_bot,
        "robot": user.is_robot,
        "time_zone": user.time_zone,
        "token": {"name": token.name, "requests_per_minute": access_tokens.per_minute()},
    }
