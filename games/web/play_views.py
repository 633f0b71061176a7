"""The game page: the board as one viewer may see it, composing and previewing a
move, and sending it.

The same page is reached two ways, each a :class:`Door`: signed in, at
``/games/<id>/``, or without signing in through the turn link of a game email
(:mod:`games.web.link_views`).  A door says where the page's forms post and how a
move is checked; everything else (what is shown, the previews, the question
asked before a pass, an exchange of the whole rack or a resignation) is the
same code.

Thin views: who may see what comes from :mod:`games.web.access`, what is shown
and what a move would do from the game's kind's presentation
(:mod:`games.kinds.presentation`), and every change goes through
:func:`games.core.door.submit`.
"""

from __future__ import annotations

import re
import secrets
import zoneinfo
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import kinds
from games.coach import hints
from games.core import chat, projection, score_series, seat_names, windows
from games.core.door import DuplicateMove, StaleMove, submit
from games.core.projection import turn_still_open
from games.core.seat_changes import left_in_words
from games.engine.errors import Refusal
from games.kinds import presentation
from games.kinds.base import GameKind, Preview, SeatView, page_refusal
from games.live import presence, streams
from games.mail_out import tracking
from games.models import Event, Game, Message
from games.timing import vacations
from games.web import charts, confirmations
from games.web.access import Viewer, viewer_or_404
from games.web.forms import typed

#: The forms of the page that send a move; each gets its own idempotency key.
MOVE_FORMS = ("word", "pass", "exchange", "resign", "call", "confirm")
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_NOTATION = 200
#: The most moves the "moved on" notice tells in words.
NEWS = 4
#: What the call box's preview says before a word is written.
CALL_HINT = "Write a word to see what the call would score."
#: What the hints' notice says once the page's position is gone (:func:`hints_when_ready`).
MOVED_ON = "moved_on"


class BadForm(Exception):
    """A request that no page of ours sends (a missing or malformed field)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class GameUrls:
    """Where a game page's forms post and what it polls."""

    page: str
    move: str
    preview: str
    changes: str
    hints: str  # polled while the seat's hints are being prepared
    live: str  # the game's live stream (games/web/live_views.py)

    @classmethod
    def of_game(cls, game_id: int) -> GameUrls:
        return cls(
            page=reverse("games:game", args=[game_id]),
            move=reverse("games:move", args=[game_id]),
            preview=reverse("games:preview", args=[game_id]),
            changes=reverse("games:changes", args=[game_id]),
            hints=reverse("games:hints", args=[game_id]),
            live=reverse("games:live", args=[game_id]),
        )


@dataclass(frozen=True)
class LinkStatus:
    """What a turn link may still do, for the page opened through it."""

    moves: bool  # the game is still at that move: the link can send any move
    calls: bool  # a sealed call can be sent (a claim window takes calls from any link)
    note: str  # what the page says about the link


class Door(ABC):
    """How a request reached a game: signed in (:class:`SignedIn`), or through a
    turn link (:class:`games.web.link_views.ThroughLink`)."""

    game_id: int
    urls: GameUrls
    source: str  # the Event.Source a move through this door is recorded with
    tz_name: str  # the time zone the page shows times in

    @abstractmethod
    def viewer(self) -> Viewer:
        """The game as this door sees it now (404 if it may not)."""

    @abstractmethod
    def mover(self) -> int | User:
        """Who moves, as :func:`games.core.door.submit` takes it."""

    @abstractmethod
    def expected(self, notation: str, post: Any) -> int:
        """The move of the game a move sent through this door is checked against
        (:class:`BadForm` if the form does not say)."""

    def kind(self) -> GameKind:
        """The kind of the game, read without loading the game's state."""
        name = Game.objects.filter(pk=self.game_id).values_list("kind", flat=True).first()
        if name is None:
            raise Http404("No such game.")
        return kinds.get(name)

    def link_status(self, viewer: Viewer) -> LinkStatus | None:
        """What the turn link may still do (``None``: not a turn link)."""
        return None

    def note_here(self) -> None:
        """The door's player is on the site now (:mod:`games.live.presence`)."""
        note_here(self.viewer())

    def stale_message(self, game: Game) -> str:
        """Why a move sent through this door after the game moved on changed nothing."""
        return (
            "The game moved on since you loaded this page, so nothing was changed. "
            "Here is the board as it is now: check your move and send it again."
        )


class SignedIn(Door):
    """The game page of a signed-in user: a move is checked against the position
    the page showed."""

    source = Event.Source.WEB

    def __init__(self, request: HttpRequest, game_id: int) -> None:
        self.request = request
        self.game_id = game_id
        self.urls = GameUrls.of_game(game_id)
        self.tz_name = _time_zone(request)

    def viewer(self) -> Viewer:
        return viewer_or_404(self.game_id, self.request.user)

    def mover(self) -> int | User:
        user = self.request.user
        assert isinstance(user, User)  # signed in: login_required
        return user

    def note_here(self) -> None:
        user = self.request.user
        if isinstance(user, User):  # signed in: login_required
            presence.note(user)

    def expected(self, notation: str, post: Any) -> int:
        return _expected_seq(post)


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    score: int
    #: How many hidden pieces the seat holds (a rack's tiles, a hand's cards).
    hand_size: int
    is_turn: bool
    is_you: bool
    resigned: bool
    winner: bool
    away_until: datetime | None = None
    #: Mail to this player's address has stopped (said without the reason or address).
    mail_stopped: bool = False


@dataclass(frozen=True)
class WaitingSeat:
    seat: int
    name: str | None  # None: nobody has taken it yet
    invited: bool  # reserved for someone invited (whose address is never shown)


# --- reading forms -----------------------------------------------------------


def call_field(kind: GameKind) -> str | None:
    """The field of the call form of a kind with sealed calls (its verb and
    ``_word``: ``jumbulaya_word``), ``None`` for a kind without."""
    return None if kind.window is None else f"{kind.window.verb}_word"


def _notation(post: Any, kind: Callable[[], GameKind]) -> tuple[str, str]:
    """The move a form sends, and the word of a call (``""`` if none): a
    suggestion button sends its explicit form; the move forms send the
    notation; the call form of a kind with sealed calls sends only the word
    (``kind`` is asked only then: a move costs no query of its own here)."""
    if "suggested" in post:
        word = ""
        notation = typed(post["suggested"])
    elif "notation" in post:
        word = ""
        notation = typed(post["notation"])
    elif (calls := kind().window) is not None and f"{calls.verb}_word" in post:
        word = str(post[f"{calls.verb}_word"]).strip()
        notation = f"{calls.verb} {word}".strip()
    else:
        raise BadForm("The form sent no move: write one in the move field and send it again.")
    if len(notation) > MAX_NOTATION:
        raise BadForm(f"The move is longer than {MAX_NOTATION} characters; no move is that long.")
    return notation, word


def _expected_seq(post: Any) -> int:
    """The move of the game the page showed (the form's ``expected_seq``)."""
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


def _players_only(viewer: Viewer) -> HttpResponse:
    """403 for a spectator, or a player who left the game to a robot (told so)."""
    said = "Only the players of this game can make or preview moves; you are watching it."
    if viewer.left is not None:
        said = left_in_words(viewer.left)
    return HttpResponse(said, status=403, content_type="text/plain; charset=utf-8")


# --- the page ----------------------------------------------------------------


def _time_zone(request: HttpRequest) -> str:
    name = str(getattr(request.user, "time_zone", "") or "UTC")
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return name


def _player_rows(
    board: SeatView, seat: int | None, game: Game, to_move: tuple[int, ...]
) -> list[PlayerRow]:
    seats = [s for s in game.seats.select_related("user") if s.user is not None]
    users = {s.index: s.user.pk for s in seats if s.user is not None}
    away = vacations.away_until_many(list(users.values()))
    # Whose mail has stopped is told to the other players only, never to a spectator.
    addresses = {s.index: s.user.email.lower() for s in seats if s.user is not None}
    told = [a for i, a in addresses.items() if i != seat] if seat is not None else []
    stopped = tracking.stopped_addresses(told)
    return [
        PlayerRow(
            seat=i,
            name=name,
            score=board.scores[i],
            hand_size=board.hand_sizes[i],
            is_turn=i in to_move,
            is_you=seat == i,
            resigned=i in board.resigned,
            winner=i in board.winners,
            away_until=away.get(users.get(i, 0)),
            mail_stopped=seat not in (None, i) and addresses.get(i, "") in stopped,
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
    door: Door,
    viewer: Viewer,
    *,
    notation: str = "",
    call_word: str = "",
    error: str | None = None,
    accepted: tuple[str, ...] = (),
    preview: Preview | None = None,
    call_preview: Preview | None = None,
    notice: str | None = None,
    question: confirmations.Question | None = None,
    message: str = "",
) -> dict[str, Any]:
    game = viewer.game
    link = door.link_status(viewer)
    ctx: dict[str, Any] = {
        "game": game,
        "seat": viewer.seat,
        "is_player": viewer.is_player,
        # A player who left the game to a robot: it is over for them.
        "left_note": left_in_words(viewer.left) if viewer.left is not None else "",
        "tz_name": door.tz_name,
        "urls": door.urls,
        "link": link,
        "notation": notation,
        "call_word": call_word,
        "error": error,
        "accepted": accepted,
        "preview": preview,
        "call_preview": call_preview,
        "call_hint": CALL_HINT,
        "notice": notice,
        "question": question,
        "message": message,
        "keys": {name: secrets.token_urlsafe(24) for name in MOVE_FORMS},
        "live_version": streams.page_version(game, messages=viewer.is_player),
    }
    if game.status == Game.Status.OPEN:
        seats = _waiting_seats(game)
        ctx |= {
            "waiting": seats,
            "free_seats": sum(1 for s in seats if s.name is None),
            "invitable": sum(1 for s in seats if s.name is None and not s.invited),
        }
        return ctx
    names = seat_names.names_now(game)
    kind = projection.kind_of(game)
    shown = presentation.of(kind)
    state = seat_names.renamed_state(kind, projection.current_state(game), names)
    board = shown.seat_view(state, viewer.seat)
    in_game = viewer.is_player and not board.over and viewer.seat not in board.resigned
    can_move = in_game and (link is None or link.moves)
    calls_open = kind.window is not None and kind.window.is_open(state)
    ctx |= {
        "kind": kind,
        "board_template": kind.board_template,
        "compose_template": kind.compose_template,
        "has_analysis": shown.analysis_template is not None,
        "board": board,
        "rows": _player_rows(board, viewer.seat, game, kind.progress(state).to_move),
        "log": list(reversed(shown.game_log(game, names))),
        **shown.compose_context(state),
        "can_move": can_move and question is None,
        "can_call": (calls_open and question is None and in_game and (link is None or link.calls)),
        "my_turn": viewer.is_player and viewer.seat in kind.progress(state).to_move,
        "window_closes_at": None if board.over else game.window_closes_at,
        "my_claims": windows.sealed_calls(game, viewer.seat),
        "my_judged_claims": shown.window_outcomes(game, viewer.seat),
        "score_chart": charts.score_chart(score_series.game_series(game)),
    }
    ctx |= chat.page_context(game, viewer.seat, ctx["log"])
    # Told on every kind's page, by games/game.html: not a copy in each board template.
    ctx["mail_not_reaching"] = [r.name for r in ctx["rows"] if r.mail_stopped and not board.over]
    # Hints (the game's option) for the player to move, in their own move form only:
    # the stored ones of this position, or "being prepared" (never found here).
    now = None
    if ctx["can_move"] and ctx["my_turn"] and viewer.seat is not None:
        now = hints.hints_now(game, viewer.seat)
    # Shown as the game shows moves; using one fills the move field (static/js/compose.js).
    found = None if now is None else now.hints
    if found and viewer.seat is not None:
        ctx["hints"] = shown.hints_shown(game, viewer.seat, found)
    else:
        ctx["hints"] = found
    ctx["hints_pending"] = "" if now is None else now.pending
    return ctx


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def page(
    request: HttpRequest, door: Door, viewer: Viewer, *, status: int = 200, **kw: Any
) -> HttpResponse:
    """The whole page, or for an htmx request its live part (board, move forms, log).
    The player it is shown to is here (:mod:`games.live.presence`)."""
    note_here(viewer)
    template = "games/game.html#live" if _is_htmx(request) else "games/game.html"
    return render(request, template, _context(door, viewer, **kw), status=status)


@login_required
@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    door = SignedIn(request, game_id)
    return page(request, door, door.viewer())


def changes_since(request: HttpRequest, door: Door) -> HttpResponse:
    """What happened since the page was loaded (``?seen=`` its last move): polled
    by the page, 204 while nothing has.  Otherwise the moves since, in words,
    and a link to the board: the page is not replaced under a move being
    composed."""
    viewer = door.viewer()
    seen = request.GET.get("seen", "")
    if not seen.isdigit() or len(seen) > 9:
        return _bad_request(BadForm("Say which move the page shows: ?seen=<move number>."))
    game = viewer.game
    if game.last_seq <= int(seen):
        return HttpResponse(status=204)
    log = presentation.of(projection.kind_of(game)).game_log(game)
    news = [entry.words for entry in log if entry.seq > int(seen)]
    shown = news[-NEWS:]
    ctx = {"game": game, "urls": door.urls, "news": shown, "more": len(news) - len(shown)}
    return render(request, "games/_moved_on.html", ctx)


@login_required
@require_GET
def changes(request: HttpRequest, game_id: int) -> HttpResponse:
    return changes_since(request, SignedIn(request, game_id))


def hints_when_ready(request: HttpRequest, door: Door) -> HttpResponse:
    """What the page's "hints are being prepared" notice polls (``?seen=`` the
    position the page shows): 204 while they are; once stored, the page's live
    part, from which the notice takes the hints (``hx-select``); a notice that
    the game moved on, with 286 (htmx: stop polling), when the page's position
    is gone or its hints are not the viewer's to see.  Never finds them."""
    viewer = door.viewer()
    if viewer.seat is None:
        return _players_only(viewer)
    seen = request.GET.get("seen", "")
    if not seen.isdigit() or len(seen) > 9:
        return _bad_request(BadForm("Say which move the page shows: ?seen=<move number>."))
    game = viewer.game
    now = hints.hints_now(game, viewer.seat) if game.last_seq == int(seen) else None
    if now is None:
        ctx = {"hints_pending": MOVED_ON, "urls": door.urls, "game": game}
        return render(request, "games/_hints_pending.html", ctx, status=286)
    if now.pending == hints.PREPARING:
        return HttpResponse(status=204)
    return page(request, door, viewer)


@login_required
@require_GET
def hints_ready(request: HttpRequest, game_id: int) -> HttpResponse:
    return hints_when_ready(request, SignedIn(request, game_id))


# --- sending a move ----------------------------------------------------------


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    return send_move(request, SignedIn(request, game_id))


def note_here(viewer: Viewer) -> None:
    """The viewer's player, if they are one, is on the site now: their "your turn"
    emails wait (:mod:`games.live.presence`)."""
    if viewer.seat is None:
        return
    for seat in viewer.game.seats.all():
        if seat.index == viewer.seat and seat.user is not None:
            presence.note(seat.user)


def send_move(request: HttpRequest, door: Door) -> HttpResponse:
    """Send the move a form of the page holds through ``door``; a pass, an exchange
    of the whole rack or a resignation not yet confirmed is asked about first.
    A move sent at once costs no query before ``submit``'s own (the sender is
    noted here before it, when their presence needs writing: a robot's instant
    reply must find them here)."""
    door.note_here()
    try:
        notation, call_word = _notation(request.POST, door.kind)
        expected = door.expected(notation, request.POST)
        key = _idempotency_key(request.POST)
    except BadForm as e:
        seen = door.viewer()
        return _bad_request(e) if seen.is_player else _players_only(seen)
    kept: dict[str, Any] = {"notation": "" if call_word else notation, "call_word": call_word}
    said = str(request.POST.get("message", ""))
    if said.strip():
        try:
            chat.clean_text(said)
        except chat.MessageRefused as e:
            return _refused(request, door, 422, error=e.message, **kept)
    if confirmations.may_ask(notation) and not confirmations.confirmed(request.POST):
        asked = _ask_first(request, door, notation, expected, said)
        if asked is not None:
            return asked
    notice = "Your move was made."
    try:
        own = page_refusal(notation)
        if own is not None:
            raise own
        with transaction.atomic():  # the message goes with the move, in its emails too
            done = submit(door.game_id, door.mover(), notation, expected, door.source, key)
            if said.strip():
                notice += _with_message(door, said)
    except Refusal as r:
        return _refused(request, door, 422, error=r.message, accepted=r.accepted, **kept)
    except StaleMove:
        return _refused(request, door, 409, stale=True, **kept)
    except DuplicateMove:
        notice = "This move was already received; it was made once."
    except projection.ServiceError as e:  # NotAPlayer too: 404 or 403 from _refused
        return _refused(request, door, 409, error=e.message, **kept)
    else:
        if done.sealed:
            notice = windows.sealed_notice(done.game, door.tz_name)
            return page(request, door, door.viewer(), notice=notice)
        if done.overtaken:  # not made: the game changed under it, as a stale move's
            return _refused(request, door, 409, error=windows.overtaken_notice(done.game), **kept)
        if not done.events and (left := door.viewer().left) is not None:
            notice = f"You resigned; {projection.display_name(left.took_over)} took your seat."
    if _is_htmx(request):
        return page(request, door, door.viewer(), notice=notice)
    messages.success(request, notice)
    return redirect(door.urls.page)


def _with_message(door: Door, said: str) -> str:
    """Post the message sent with a move (in the move's transaction), and
    what the notice adds about it."""
    try:
        chat.post_message(door.game_id, door.mover(), said, Message.Source.WEB)
    except chat.MessageRefused as e:
        return f" Your message was not sent: {e.message}"
    return " Your message was sent to the other players."


def _ask_first(
    request: HttpRequest, door: Door, notation: str, expected: int, said: str
) -> HttpResponse | None:
    """The page asking whether to send ``notation`` (a pass, an exchange of the
    whole rack, a resignation), or ``None`` to send it at once.  Asked only when
    the move would be made: a move the game refuses, or sent from a page that no
    longer shows the game, gets its refusal straight away.  The message typed
    with the move (``said``) rides in the question's form, so the move, once
    confirmed, carries it."""
    viewer = door.viewer()
    if viewer.seat is None or not turn_still_open(viewer.game, expected):
        return None
    state = projection.current_state(viewer.game)
    kind = projection.kind_of(viewer.game)
    question = confirmations.question_for(kind, state, viewer.seat, notation)
    if question is None:
        return None
    if kind.verb_of(notation) == "resign":
        question = confirmations.with_takeover(question, viewer.game, viewer.seat)
    shown = presentation.of(kind).preview(viewer.game, viewer.seat, notation)
    if shown.refused:
        return None
    message = said if said.strip() else ""
    # A robot taking the seat: what the kind says a resignation does (ends the game,
    # the seat cannot win) does not happen; the question's note says what does.
    details = None if question.note else shown
    return page(request, door, viewer, question=question, preview=details, message=message)


def _refused(
    request: HttpRequest, door: Door, status: int, *, stale: bool = False, **kw: Any
) -> HttpResponse:
    """The page again, saying why nothing was changed (``stale``: the game moved
    on), for a player; anyone else gets 404 (a game they may not see) or 403 (a
    spectator).  The seat is checked here, on the error path only: a move's own
    check is made by ``submit``."""
    viewer = door.viewer()
    if not viewer.is_player:
        return _players_only(viewer)
    if stale:
        kw["error"] = door.stale_message(viewer.game)
    return page(request, door, viewer, status=status, **kw)


@login_required
@require_POST
def preview(request: HttpRequest, game_id: int) -> HttpResponse:
    return preview_move(request, SignedIn(request, game_id))


def preview_move(request: HttpRequest, door: Door) -> HttpResponse:
    """What the move in the form would do; changes nothing.  A sealed call's
    preview (JUMBULAYA's) goes by the call box, any other move's by the move field."""
    viewer = door.viewer()
    if viewer.seat is None:
        return _players_only(viewer)
    game = viewer.game
    kind = projection.kind_of(game)
    try:
        notation, call_word = _notation(request.POST, lambda: kind)
    except BadForm as e:
        return _bad_request(e)
    field = call_field(kind)
    is_call = field is not None and field in request.POST
    wrote = call_word if is_call else notation
    shown = presentation.of(kind).preview(game, viewer.seat, notation) if wrote else None
    if _is_htmx(request):
        ctx: dict[str, Any] = {"preview": shown, "game": viewer.game, "urls": door.urls}
        if is_call:
            ctx["hint"] = CALL_HINT
        return render(request, "games/_preview.html", ctx)
    if is_call:
        return page(request, door, viewer, call_word=call_word, call_preview=shown)
    return page(request, door, viewer, notation=notation, preview=shown)
