"""The game page: the board as one viewer may see it, composing and previewing a
move, and sending it.

Thin views: who may see what comes from :mod:`games.access`, what is shown from
:mod:`games.presenters`, what a move would do from :mod:`games.preview`, and every
change goes through :func:`games.services.submit`.
"""

from __future__ import annotations

import re
import secrets
import zoneinfo
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import claims, services, vacations
from games.access import Viewer, viewer_or_404
from games.engine import Refusal
from games.models import Event, Game
from games.presenters import BoardView, board_view, history
from games.preview import MovePreview, preview_game_move, web_refusal

#: The forms of the page that send a move; each gets its own idempotency key.
MOVE_FORMS = ("word", "pass", "resign", "call")
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_NOTATION = 200
#: The most moves the "moved on" notice tells in words.
NEWS = 4


class BadForm(Exception):
    """A request that no page of ours sends (a missing or malformed field)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    score: int
    rack_size: int
    is_turn: bool
    is_you: bool
    resigned: bool
    winner: bool
    away_until: datetime | None = None


@dataclass(frozen=True)
class WaitingSeat:
    seat: int
    name: str | None  # None: nobody has taken it yet
    invited: bool  # reserved for someone invited (whose address is never shown)


# --- reading forms -----------------------------------------------------------


def _notation(post: Any) -> tuple[str, str]:
    """The move a form sends, and the word of a JUMBULAYA call (``""`` if none).
    The call form sends only the word; a suggestion button sends its explicit form;
    every other form sends the notation."""
    if "suggested" in post:
        word = ""
        notation = str(post["suggested"]).strip()
    elif "jumbulaya_word" in post:
        word = str(post["jumbulaya_word"]).strip()
        notation = f"jumbulaya {word}".strip()
    elif "notation" in post:
        word = ""
        notation = str(post["notation"]).strip()
    else:
        raise BadForm("The form sent no move: write one in the move field and send it again.")
    if len(notation) > MAX_NOTATION:
        raise BadForm(f"The move is longer than {MAX_NOTATION} characters; no move is that long.")
    return notation, word


def _expected_seq(post: Any) -> int:
    raw = str(post.get("expected_seq", "")).strip()
    if not raw:
        raise BadForm("The form did not say which move of the game you saw: reload the page.")
    if not raw.isdigit() or len(raw) > 9:
        raise BadForm(f"The move number {raw[:20]!r} is not a number: reload the page.")
    return int(raw)


def _idempotency_key(post: Any) -> str:
    key = str(post.get("idempotency_key", ""))
    if not KEY_PATTERN.fullmatch(key):
        raise BadForm("The form's one-time key is missing or malformed: reload the page.")
    return key


def _bad_request(error: BadForm) -> HttpResponse:
    return HttpResponseBadRequest(error.message, content_type="text/plain; charset=utf-8")


def _players_only() -> HttpResponse:
    return HttpResponse(
        "Only the players of this game can make or preview moves; you are watching it.",
        status=403,
        content_type="text/plain; charset=utf-8",
    )


# --- the page ----------------------------------------------------------------


def _time_zone(request: HttpRequest) -> str:
    name = str(getattr(request.user, "time_zone", "") or "UTC")
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return name


def _player_rows(board: BoardView, seat: int | None, game: Game) -> list[PlayerRow]:
    users = {s.index: s.user_id for s in game.seats.all() if s.user_id is not None}
    away = vacations.away_until_many(list(users.values()))
    return [
        PlayerRow(
            seat=i,
            name=name,
            score=board.scores[i],
            rack_size=board.rack_sizes[i],
            is_turn=board.turn == i,
            is_you=seat == i,
            resigned=i in board.resigned,
            winner=i in board.winners,
            away_until=away.get(users.get(i, 0)),
        )
        for i, name in enumerate(board.players)
    ]


def _waiting_seats(game: Game) -> list[WaitingSeat]:
    return [
        WaitingSeat(
            seat=s.index,
            name=None if s.user is None else str(s.user),
            invited=bool(s.invited_email),
        )
        for s in game.seats.all()
    ]


def _context(
    request: HttpRequest,
    viewer: Viewer,
    *,
    notation: str = "",
    call_word: str = "",
    error: str | None = None,
    accepted: tuple[str, ...] = (),
    preview: MovePreview | None = None,
    notice: str | None = None,
) -> dict[str, Any]:
    game = viewer.game
    ctx: dict[str, Any] = {
        "game": game,
        "seat": viewer.seat,
        "is_player": viewer.is_player,
        "tz_name": _time_zone(request),
        "notation": notation,
        "call_word": call_word,
        "error": error,
        "accepted": accepted,
        "preview": preview,
        "notice": notice,
        "keys": {name: secrets.token_urlsafe(24) for name in MOVE_FORMS},
    }
    if game.status == Game.Status.OPEN:
        seats = _waiting_seats(game)
        ctx |= {"waiting": seats, "free_seats": sum(1 for s in seats if s.name is None)}
        return ctx
    state = services.current_state(game)
    board = board_view(state, viewer.seat)
    ctx |= {
        "board": board,
        "rows": _player_rows(board, viewer.seat, game),
        "log": list(reversed(history(services.load_events(game)))),
        "rack_limit": state.rules.rack_limit,
        "can_move": viewer.is_player and not board.over and viewer.seat not in board.resigned,
        "my_turn": viewer.is_player and board.turn == viewer.seat,
        "claims_close_at": None if board.over else game.claims_close_at,
        "my_claims": claims.sealed_claims(game, viewer.seat),
    }
    return ctx


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _page(request: HttpRequest, viewer: Viewer, *, status: int = 200, **kw: Any) -> HttpResponse:
    """The whole page, or for an htmx request its live part (board, move forms, log)."""
    template = "games/game.html#live" if _is_htmx(request) else "games/game.html"
    return render(request, template, _context(request, viewer, **kw), status=status)


@login_required
@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    return _page(request, viewer_or_404(game_id, request.user))


@login_required
@require_GET
def changes(request: HttpRequest, game_id: int) -> HttpResponse:
    """What happened since the page was loaded (``?seen=`` its last move): polled
    by the page, 204 while nothing has.  Otherwise the moves since, in words,
    and a link to the board: the page is not replaced under a move being
    composed."""
    viewer = viewer_or_404(game_id, request.user)
    seen = request.GET.get("seen", "")
    if not seen.isdigit() or len(seen) > 9:
        return _bad_request(BadForm("Say which move the page shows: ?seen=<move number>."))
    game = viewer.game
    if game.last_seq <= int(seen):
        return HttpResponse(status=204)
    news = [words for seq, words in history(services.load_events(game)) if seq > int(seen)]
    shown = news[-NEWS:]
    ctx = {"game": game, "news": shown, "more": len(news) - len(shown)}
    return render(request, "games/_moved_on.html", ctx)


# --- sending a move ----------------------------------------------------------


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        notation, call_word = _notation(request.POST)
        expected_seq = _expected_seq(request.POST)
        key = _idempotency_key(request.POST)
    except BadForm as e:
        viewer = viewer_or_404(game_id, request.user)
        return _bad_request(e) if viewer.is_player else _players_only()
    kept = {"notation": "" if call_word else notation, "call_word": call_word}
    notice = "Your move was made."
    try:
        own = web_refusal(notation)
        if own is not None:
            raise own
        player = request.user
        assert isinstance(player, User)  # signed in: login_required
        done = services.submit(game_id, player, notation, expected_seq, Event.Source.WEB, key)
    except Refusal as r:
        return _refused(request, game_id, 422, error=r.message, accepted=r.accepted, **kept)
    except services.StaleMove:
        error = (
            "The game moved on since you loaded this page, so nothing was changed. "
            "Here is the board as it is now: check your move and send it again."
        )
        return _refused(request, game_id, 409, error=error, **kept)
    except services.DuplicateMove:
        notice = "This move was already received; it was made once."
    except services.ServiceError as e:  # NotAPlayer too: 404 or 403 from _refused
        return _refused(request, game_id, 409, error=e.message, **kept)
    else:
        if done.sealed:
            return _page(
                request,
                viewer_or_404(game_id, request.user),
                notice=claims.sealed_notice(done.game, _time_zone(request)),
            )
    if _is_htmx(request):
        return _page(request, viewer_or_404(game_id, request.user), notice=notice)
    messages.success(request, notice)
    return redirect("games:game", game_id=game_id)


def _refused(request: HttpRequest, game_id: int, status: int, **kw: Any) -> HttpResponse:
    """The page again, saying why nothing was changed, for a player; anyone else
    gets 404 (a game they may not see) or 403 (a spectator).  The seat is checked
    here, on the error path only: a move's own check is made by ``submit``."""
    viewer = viewer_or_404(game_id, request.user)
    if not viewer.is_player:
        return _players_only()
    return _page(request, viewer, status=status, **kw)


@login_required
@require_POST
def preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """What the move in the form would do; changes nothing."""
    viewer = viewer_or_404(game_id, request.user)
    if viewer.seat is None:
        return _players_only()
    try:
        notation, call_word = _notation(request.POST)
    except BadForm as e:
        return _bad_request(e)
    if _is_htmx(request):
        shown = preview_game_move(viewer.game, viewer.seat, notation) if notation else None
        return render(request, "games/_preview.html", {"preview": shown, "game": viewer.game})
    return _page(
        request,
        viewer,
        notation="" if call_word else notation,
        call_word=call_word,
        preview=preview_game_move(viewer.game, viewer.seat, notation),
    )
