"""Moves: make one, preview one, resign.  Every move goes through
:func:`games.core.door.submit`, as the game page's and an email reply's
do, and is refused with the same codes and messages (``games/web/play_views``).
"""

from __future__ import annotations

import hashlib
import re

from django.http import HttpRequest
from ninja import Router

from accounts.models import User
from api import reading
from api.auth import user_of
from api.errors import ApiError
from api.schemas import ErrorOut, MoveIn, MoveOut, PreviewIn, ResignIn
from games.core import door, projection, windows
from games.engine.errors import Refusal
from games.kinds import presentation
from games.kinds.base import page_refusal
from games.models import Event
from games.web.forms import typed

router = Router(tags=["moves"])

#: An ``Idempotency-Key``: 1 to 255 visible ASCII characters.
KEY = re.compile(r"[\x21-\x7e]{1,255}")
#: The header, as the OpenAPI document names it.
KEY_HEADER = {
    "parameters": [
        {
            "in": "header",
            "name": "Idempotency-Key",
            "required": False,
            "schema": {"type": "string", "minLength": 1, "maxLength": 255},
            "description": "any string of yours: a request resent with the same key is "
            "never made twice (409 duplicate)",
        }
    ]
}
ERRORS: dict[int, type[ErrorOut]] = {s: ErrorOut for s in (400, 401, 403, 404, 409, 422, 429)}
#: A resignation sent with no body at all: the game's current seq.
NO_BODY = ResignIn()


def _stored_key(user: User, key: str | None) -> str | None:
    """The key as the event log stores it: the client's own, hashed under its
    account, so two accounts' keys never meet (the log's keys are one unique
    column) and any length fits."""
    if key is None:
        return None
    if not KEY.fullmatch(key):
        raise ApiError(
            400, "bad_request", "An Idempotency-Key is 1 to 255 visible ASCII characters."
        )
    return f"api:{user.pk}:{hashlib.sha256(key.encode()).hexdigest()[:48]}"


def make_move(user: User, game_id: int, move: str, expected: int, key: str | None) -> MoveOut:
    """Submit ``move`` for ``user``'s seat; the service's refusals as API errors."""
    stored = _stored_key(user, key)
    try:
        own = page_refusal(move)
        if own is not None:
            raise own
        done = door.submit(game_id, user, move, expected, Event.Source.API, stored)
    except Refusal as r:
        raise ApiError(422, r.code, r.message) from None
    except door.StaleMove as e:
        raise ApiError(409, "stale", e.message) from None
    except door.DuplicateMove as e:
        raise ApiError(409, "duplicate", e.message) from None
    except door.NotAPlayer as e:
        reading.player(game_id, user)  # 404 for a game it may not see, 403 for a spectator
        raise ApiError(403, "not_yours", e.message) from None
    except projection.ServiceError as e:
        raise ApiError(409, e.code, e.message) from None
    message = "Your move was made."
    if done.sealed:
        message = windows.sealed_notice(done.game, user.time_zone or "UTC")
    elif done.overtaken:
        message = windows.overtaken_notice(done.game)
    game = done.game
    return MoveOut(
        seq=game.last_seq,
        status=game.status,
        turn=game.turn_seat,
        movers=reading.movers(game),
        sealed=done.sealed,
        overtaken=done.overtaken,
        message=message,
    )


@router.post(
    "/games/{id:game_id}/moves",
    response={200: MoveOut, **ERRORS},
    summary="Make a move",
    description="The move in the game's notation, checked against `expected_seq` (409 "
    "`stale` if the game has moved on). Resending with the same `Idempotency-Key` never "
    "makes a move twice (409 `duplicate`). A move the rules refuse is a 422 with the "
    "rules' code.",
    openapi_extra=KEY_HEADER,
)
def post_move(
    request: HttpRequest,
    game_id: int,
    body: MoveIn,
) -> MoveOut:
    key = request.headers.get("Idempotency-Key")
    return make_move(user_of(request), game_id, typed(body.move), body.expected_seq, key)


@router.post(
    "/games/{id:game_id}/resign",
    response={200: MoveOut, **ERRORS},
    summary="Resign",
    openapi_extra=KEY_HEADER,
)
def resign(
    request: HttpRequest,
    game_id: int,
    body: ResignIn = NO_BODY,
) -> MoveOut:
    user = user_of(request)
    expected = body.expected_seq
    if expected is None:
        expected = reading.player(game_id, user).game.last_seq
    return make_move(user, game_id, "resign", expected, request.headers.get("Idempotency-Key"))


@router.post(
    "/games/{id:game_id}/preview",
    response={200: dict[str, object], **ERRORS},
    summary="Preview a move",
    description="What the move would do now, for your seat only (its kind's preview, as "
    "the game page shows it); nothing is changed. `refused` says whether it would be "
    "refused, with the rules' `code` and `message`.",
)
def preview(request: HttpRequest, game_id: int, body: PreviewIn) -> dict[str, object]:
    seen = reading.player(game_id, user_of(request))
    reading.started(seen.game)
    assert seen.seat is not None
    kind = projection.kind_of(seen.game)
    shown = presentation.of(kind).preview(seen.game, seen.seat, typed(body.move))
    return {**reading.plain(shown), "refused": shown.refused}
