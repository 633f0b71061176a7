"""Games: an account's games, one game, its seat view, its log (and the long
poll a program waits on), creating a game, inviting to one and joining one.

``GET /games/<id>/events?after=<seq>&wait=<s>`` answers as soon as the game's
``seq`` passes ``after``, or after ``wait`` seconds (at most
``JUMBULAYA_API_MAX_WAIT_SECONDS``) with no events.  It is an async view: the
wait sleeps on the ASGI server's event loop until the game's doorbell rings
(:mod:`games.live`), holding no worker and, between its looks at the game, no
database connection; an account holds at most ``JUMBULAYA_WAITS_PER_ACCOUNT``
waits at once (429 with ``Retry-After`` past that).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from ninja import Field as NinjaField
from ninja import Query, Router, Schema, Status

from accounts.models import User
from accounts.names import shown_name
from api import reading
from api.auth import user_of
from api.errors import ApiError
from api.schemas import CreateIn, ErrorOut, EventsOut, GameOut, GamesOut, InviteIn
from games import kinds
from games.core import limits, lobby, projection
from games.engine.lexicon import UnknownWordList
from games.live import holds, waits
from games.models import Game
from games.web.access import may_ask_to_join
from games.web.forms import CreateGameForm

router = Router(tags=["games"])

READ_ERRORS: dict[int, type[ErrorOut]] = {s: ErrorOut for s in (401, 404, 409, 429)}
WRITE_ERRORS: dict[int, type[ErrorOut]] = {s: ErrorOut for s in (400, 401, 404, 409, 429)}


@router.get("/games", response={200: GamesOut, 401: ErrorOut, 429: ErrorOut}, summary="My games")
def my_games(request: HttpRequest) -> dict[str, Any]:
    """Your games as the dashboard lists them: yours to move first (soonest
    deadline first), then the others in play or waiting for players, then the
    last finished; and the games you are invited to."""
    return reading.my_games(user_of(request))


@router.get("/games/{id:game_id}", response={200: GameOut, **READ_ERRORS}, summary="A game")
def game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    seen = reading.viewer(game_id, user_of(request))
    return reading.summary(seen.game, seen.seat, seen.left)


@router.get(
    "/games/{id:game_id}/view",
    response={200: dict[str, Any], **READ_ERRORS},
    summary="The game as your seat sees it",
    description="The seat view document with the game's `seq`: for JUMBULAYA "
    "`jumbulaya-view/1` (seat-view.md), the very line `manage.py robot` reads. A spectator "
    "gets the view of no seat (`seat` and `rack` null).",
)
def view(request: HttpRequest, game_id: int) -> dict[str, Any]:
    seen = reading.viewer(game_id, user_of(request))
    return reading.seat_view(seen.game, seen.seat)


class Waiting(Schema):
    after: int = NinjaField(default=0, ge=0, description="the last seq you have seen")
    wait: float = NinjaField(
        default=0, ge=0, description="seconds to wait for an event after `after` (capped)"
    )


@router.get(
    "/games/{id:game_id}/events",
    response={200: EventsOut, **READ_ERRORS},
    summary="The public log since a seq, or wait for it (long poll)",
    description="The events after `after`, as every viewer may see them (never a seat's "
    "draws, exchanged tiles or the deal's racks and bag), with the log's words. With "
    "`wait`, answers as soon as the game moves past `after`, or after `wait` seconds "
    "(at most `JUMBULAYA_API_MAX_WAIT_SECONDS`, 20 by default) with no events.",
)
async def events(request: HttpRequest, game_id: int, q: Query[Waiting]) -> dict[str, Any]:
    user = user_of(request)
    seen = await sync_to_async(reading.viewer)(game_id, user)
    game = seen.game
    wait = min(q.wait, float(settings.JUMBULAYA_API_MAX_WAIT_SECONDS))
    if wait > 0 and game.last_seq == q.after and game.status != Game.Status.OVER:
        slot = await sync_to_async(holds.take)(user.pk, wait)
        if slot is None:
            raise ApiError(
                429,
                "too_many_waits",
                f"An account may wait on at most {holds.per_account()} games at once; "
                "this one waits on that many already.",
                {"Retry-After": str(max(1, round(wait)))},
            )
        try:
            if await waits.wait_past(game_id, q.after, wait):
                game = await sync_to_async(reading.game_or_404)(game_id)
        finally:
            await sync_to_async(holds.give_back)(slot)
    return await sync_to_async(reading.log_since)(game, q.after)


#: The body's fields that are options of some kinds only, by the form field each
#: fills (:func:`games.web.forms.service_options`).
KIND_FIELDS = {"lexicon": "lexicon_name", "claim_window": "claim_window", "hints": "hints"}


def _create_form(user: User, body: CreateIn) -> CreateGameForm:
    """The new-game page's form, filled from ``body``: the API's game is checked
    exactly as the page's is.  The rules are the preset's, with ``options``
    changed.  A field the kind has no use for (a word list for Blockers, a claim
    window for any kind but JUMBULAYA) is refused when sent, not ignored."""
    try:
        kind = kinds.get(body.kind)
    except kinds.UnknownKind as e:
        raise ApiError(400, "bad_request", f"{e.message}.") from None
    preset = body.preset or next(iter(kind.preset_labels))
    if preset not in kind.presets:
        named = ", ".join(kind.presets)
        raise ApiError(400, "bad_request", f"There is no preset {preset!r} (there are {named}).")
    options = kind.option_values(kind.presets[preset])
    unknown = sorted(set(body.options) - set(options))
    if unknown:
        raise ApiError(400, "bad_request", f"There is no option {', '.join(unknown)}.")
    data: dict[str, Any] = {
        **options,
        **body.options,
        "kind": kind.name,
        "seat_count": body.seats,
        "preset": preset,
        "options_from": preset,
        "lexicon_name": body.lexicon,
        "move_hours": body.move_hours,
        "claim_window": body.claim_window,
        "skip_weekends": body.skip_weekends,
        "timeout_limit": body.timeout_limit,
        "is_public": body.public,
        "is_open": body.open,
        "invite_emails": "\n".join(body.invite),
        "robots": body.robots,
        "robot_pace": body.robot_pace,
        "takeover_level": body.takeover_level,
        "hints": body.hints,
        "rated": body.rated,
    }
    form = CreateGameForm(data, user=user)
    unused = [
        name
        for name, field in KIND_FIELDS.items()
        if name in body.model_fields_set and field not in form.fields
    ]
    if unused:
        raise ApiError(
            400,
            "bad_request",
            f"A game of {kind.label} has no {' or '.join(unused)}: leave "
            f"{'it' if len(unused) == 1 else 'them'} out.",
        )
    return form


@router.post(
    "/games",
    response={201: GameOut, **WRITE_ERRORS},
    summary="Create a game",
    description="As the new-game page: you take seat 0; `robots` seat robots of those "
    "levels at once; `invite` emails invitations to the other seats (each address joins "
    "with `POST /games/<id>/join`, a bot with its own token); an `open` game lets anyone "
    "join. The page's checks and daily limits apply.",
)
def create(request: HttpRequest, body: CreateIn) -> Status[dict[str, Any]]:
    user = user_of(request)
    form = _create_form(user, body)
    if not form.is_valid():
        problems = [
            f"{'' if field == '__all__' else field + ': '}{' '.join(str(e) for e in errors)}"
            for field, errors in form.errors.items()
        ]
        raise ApiError(400, "bad_request", "; ".join(problems))
    try:
        with transaction.atomic():
            made = lobby.create_game(user, **form.game_arguments())
    except projection.ServiceError as e:
        raise ApiError(409, e.code, e.message) from None
    except UnknownWordList:
        raise ApiError(400, "bad_request", f"There is no word list {body.lexicon!r}.") from None
    seen = reading.viewer(made.pk, user)
    return Status(201, reading.summary(seen.game, seen.seat))


@router.post(
    "/games/{id:game_id}/join",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Join a game",
    description="Take the seat you were invited to, or a free seat of an open game. The "
    "game starts when its last seat is taken.",
)
def join(request: HttpRequest, game_id: int) -> dict[str, Any]:
    user = user_of(request)
    if not may_ask_to_join(game_id, user):  # the page's join answers the same
        raise ApiError(404, "not_found", "There is no such game, or no seat in it for you.")
    if shown_name(user.display_name) is None:
        raise ApiError(
            409, "name_needed", "Choose the name other players will see on your profile page."
        )
    try:
        lobby.join_game(game_id, user)
    except projection.ServiceError as e:
        raise ApiError(409, e.code, e.message) from None
    seen = reading.viewer(game_id, user)
    return reading.summary(seen.game, seen.seat)


@router.post(
    "/games/{id:game_id}/invite",
    response={200: GameOut, **WRITE_ERRORS, 403: ErrorOut},
    summary="Invite to a game",
    description="As the game page's invitation box, for a player of a game still waiting for "
    "players: each address gets an invitation email for a free seat nobody is invited to yet "
    "(400 `bad_request` for what is not an address). "
    "The daily limit on invitations applies (409 `over_limit`); a game that has started, "
    "without enough free seats, or with one of the addresses in it already is 409 "
    "`cannot_invite`; a spectator is 403 `not_yours`.",
)
def invite(request: HttpRequest, game_id: int, body: InviteIn) -> dict[str, Any]:
    user = user_of(request)
    reading.player(game_id, user)  # 404 for a game it may not see, 403 for a spectator
    try:
        lobby.invite(game_id, user, body.emails)
    except limits.BadAddress as e:
        raise ApiError(400, "bad_request", e.message) from None
    except projection.ServiceError as e:
        raise ApiError(409, e.code, e.message) from None
    seen = reading.viewer(game_id, user)
    return reading.summary(seen.game, seen.seat)
