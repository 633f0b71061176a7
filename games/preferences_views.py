"""Pages reached from game emails.

* ``/t/<token>/``: a turn link.  GET shows the game to the player the link was
  sent to, without a sign-in, and lets this browser session see that one game;
  it changes nothing (mail scanners open links).  Only a POST (CSRF protected)
  makes a move, through :func:`games.services.submit` with the move number the
  link was sent for, so an old link cannot act on a game that moved on.
* ``/unsubscribe/<token>/``: GET asks for confirmation, POST applies it; the
  RFC 8058 one-click POST (``List-Unsubscribe=One-Click``) needs no CSRF token,
  the signed token being the proof.
* ``/settings/email/``: the signed-in user's email preferences.

Thin views: tokens come from :mod:`games.turnlinks`, access from
:mod:`games.access`, moves go through :mod:`games.services`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import User
from games import claims, mail_preferences, services
from games.access import Viewer, viewer_or_404
from games.emails import zone_of
from games.engine import Refusal
from games.engine.notation import verb_of
from games.models import Event, Game, Seat
from games.presenters import board_view, history
from games.preview import web_refusal
from games.turnlinks import (
    SESSION_KEY,
    BadLink,
    TurnLink,
    Unsubscribe,
    read_no_invitations_token,
    read_turn_token,
    read_unsubscribe_token,
)

KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_NOTATION = 200


# --- turn links --------------------------------------------------------------


def _link_problem(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(request, "games/turn_link.html", {"problem": message}, status=status)


def _link_viewer(request: HttpRequest, link: TurnLink) -> Viewer | None:
    """The game as the link's player sees it, or ``None`` if the link no longer
    opens it (the player has no seat in it any more)."""
    from django.http import Http404

    try:
        viewer = viewer_or_404(link.game_id, request.user, {str(link.game_id): link.user_id})
    except Http404:
        return None
    return viewer if viewer.seat is not None else None


def _zone_name(viewer: Viewer) -> str:
    """The time zone of the player the link was sent to."""
    player = next((s.user for s in viewer.game.seats.all() if s.index == viewer.seat), None)
    return zone_of(player).key if player is not None else "UTC"


def _turn_context(
    link: TurnLink, viewer: Viewer, *, error: str | None = None, notation: str = ""
) -> dict[str, Any]:
    game = viewer.game
    ctx: dict[str, Any] = {
        "game": game,
        "seat": viewer.seat,
        "tz_name": _zone_name(viewer),
        "link": link,
        "stale": game.last_seq != link.seq,
        "error": error,
        "notation": notation,
        "key": secrets.token_urlsafe(24),
    }
    if game.status == Game.Status.OPEN:
        return ctx
    state = services.current_state(game)
    board = board_view(state, viewer.seat)
    ctx |= {
        "board": board,
        "rows": [
            {
                "seat": i,
                "name": name,
                "score": board.scores[i],
                "rack_size": board.rack_sizes[i],
                "is_turn": board.turn == i,
                "is_you": viewer.seat == i,
                "resigned": i in board.resigned,
                "winner": i in board.winners,
            }
            for i, name in enumerate(board.players)
        ],
        "log": list(reversed(history(services.load_events(game))))[:10],
        "my_turn": board.turn == viewer.seat and not board.over,
        "can_move": not board.over and viewer.seat not in board.resigned,
    }
    return ctx


def _stale_message(link: TurnLink, game: Game) -> str:
    return (
        f"This link was sent when the game was at move {link.seq}, and the game has moved on "
        f"since (it is at move {game.last_seq}), so nothing was changed. Use the link in "
        "your latest email from this game, or sign in to play."
    )


@require_http_methods(["GET", "POST"])
def turn_link(request: HttpRequest, token: str) -> HttpResponse:
    try:
        link = read_turn_token(token)
    except BadLink as e:
        return _link_problem(request, e.message)
    user = request.user
    if user.is_authenticated and user.pk != link.user_id:
        return _link_problem(
            request,
            "This link was sent to another player, and you are signed in as "
            f"{user.public_name}. Sign out to use it, or open your own games.",
            status=403,
        )
    viewer = _link_viewer(request, link)
    if viewer is None:
        return _link_problem(
            request, "This link no longer opens a game: the game or your seat is gone.", 404
        )
    if not user.is_authenticated:
        # This browser may now see this one game (and no other) as the link's player.
        granted = dict(request.session.get(SESSION_KEY) or {})
        if granted.get(str(link.game_id)) != link.user_id:
            granted[str(link.game_id)] = link.user_id
            request.session[SESSION_KEY] = granted
    if request.method == "GET":
        return render(request, "games/turn_link.html", _turn_context(link, viewer))
    return _link_move(request, link, viewer, token)


def _link_move(request: HttpRequest, link: TurnLink, viewer: Viewer, token: str) -> HttpResponse:
    notation = str(request.POST.get("notation", "")).strip()
    if not notation:
        ctx = _turn_context(link, viewer, error="Write a move in the move field, then send it.")
        return render(request, "games/turn_link.html", ctx, status=400)
    if len(notation) > MAX_NOTATION:
        ctx = _turn_context(link, viewer, error=f"A move has at most {MAX_NOTATION} characters.")
        return render(request, "games/turn_link.html", ctx, status=400)
    key = str(request.POST.get("idempotency_key", ""))
    assert viewer.seat is not None
    # A move is checked against the position the email showed; a call in an open
    # claim window is sealed and judged on the board as it is when the window
    # closes, so the moves made since do not matter to it.
    expected = link.seq
    if verb_of(notation) == "jumbulaya" and viewer.game.claims_close_at is not None:
        expected = viewer.game.last_seq
    try:
        own = web_refusal(notation)
        if own is not None:
            raise own
        done = services.submit(
            link.game_id,
            viewer.seat,
            notation,
            expected,
            Event.Source.LINK,
            key if KEY_PATTERN.fullmatch(key) else None,
        )
    except Refusal as r:
        ctx = _turn_context(link, viewer, error=r.message, notation=notation)
        return render(request, "games/turn_link.html", ctx, status=422)
    except services.StaleMove:
        fresh = _link_viewer(request, link) or viewer
        ctx = _turn_context(link, fresh, error=_stale_message(link, fresh.game))
        return render(request, "games/turn_link.html", ctx, status=409)
    except services.DuplicateMove:
        messages.info(request, "This move was already received; it was made once.")
        return redirect("games:turn_link", token=token)
    except services.ServiceError as e:
        ctx = _turn_context(link, viewer, error=e.message, notation=notation)
        return render(request, "games/turn_link.html", ctx, status=409)
    if done.sealed:
        messages.success(request, claims.sealed_notice(done.game, _zone_name(viewer)))
    else:
        messages.success(request, "Your move was made.")
    return redirect("games:turn_link", token=token)


# --- unsubscribe links -------------------------------------------------------


def _csrf_refusal(request: HttpRequest) -> HttpResponse | None:
    """The CSRF check the middleware would make (the view is exempt only for the
    one-click POST): ``None`` if the request passes."""

    def protected(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
        return HttpResponse()

    return CsrfViewMiddleware(protected).process_view(request, protected, (), {})


def _unsubscribe_problem(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "games/unsubscribe.html", {"problem": message}, status=400)


def _what(unsub: Unsubscribe) -> str:
    if unsub.game_id is None:
        return "all game emails"
    return f"emails about game {unsub.game_id}"


@csrf_exempt  # only the RFC 8058 one-click POST skips the check: see _csrf_refusal
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        unsub = read_unsubscribe_token(token)
    except BadLink as e:
        return _unsubscribe_problem(request, e.message)
    user = User.objects.filter(pk=unsub.user_id).first()
    if user is None:
        return _unsubscribe_problem(
            request, "This unsubscribe link is for an account that is gone."
        )
    seat = None
    if unsub.game_id is not None:
        seat = Seat.objects.filter(game_id=unsub.game_id, user=user).first()
        if seat is None:
            return _unsubscribe_problem(
                request, "You no longer have a seat in that game, so it sends you no emails."
            )
    ctx: dict[str, Any] = {"what": _what(unsub), "scope_game": unsub.game_id, "token": token}
    return _ask_then_act(
        request,
        ctx,
        lambda: mail_preferences.mute(seat) if seat else mail_preferences.stop_game_email(user),
    )


def _ask_then_act(
    request: HttpRequest, ctx: dict[str, Any], act: Callable[[], str]
) -> HttpResponse:
    """An unsubscribe link's answer: a GET only asks (a button); a POST acts,
    the RFC 8058 one-click one without a CSRF token, a form's with one."""
    if request.method == "GET":
        return render(request, "games/unsubscribe.html", ctx)
    one_click = request.POST.get("List-Unsubscribe") == "One-Click"
    if not one_click and (refusal := _csrf_refusal(request)) is not None:
        return refusal
    done = act()
    if one_click:
        return HttpResponse(done, content_type="text/plain; charset=utf-8")
    return render(request, "games/unsubscribe.html", ctx | {"done": done})


@csrf_exempt  # only the RFC 8058 one-click POST skips the check: see _csrf_refusal
@require_http_methods(["GET", "POST"])
def no_invitations(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's unsubscribe link: no more invitations to that address."""
    try:
        email = read_no_invitations_token(token)
    except BadLink as e:
        return _unsubscribe_problem(request, e.message)
    ctx: dict[str, Any] = {"invitations_to": email, "token": token}
    return _ask_then_act(request, ctx, lambda: mail_preferences.refuse_invitations(email))


# --- preferences -------------------------------------------------------------


HOURS = [(h, f"{h:02d}:00") for h in range(24)]


class EmailPreferencesForm(forms.Form):
    email_mode = forms.ChoiceField(
        label="Game emails", choices=User.EmailMode.choices, widget=forms.RadioSelect
    )
    digest_hour = forms.TypedChoiceField(
        label="Send the daily digest at", choices=HOURS, coerce=int
    )

    def __init__(self, *args: Any, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in seats:
            self.fields[f"mute_{seat.game_id}"] = forms.BooleanField(
                required=False, label=f"Mute game {seat.game_id}", initial=seat.muted
            )

    def mute_fields(self) -> list[tuple[Seat, forms.BoundField]]:
        return [(seat, self[f"mute_{seat.game_id}"]) for seat in self.seats]


def _active_seats(user: User) -> list[Seat]:
    return list(
        Seat.objects.filter(user=user, game__status__in=[Game.Status.OPEN, Game.Status.PLAYING])
        .select_related("game")
        .order_by("game_id")
    )


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    seats = _active_seats(user)
    initial = {"email_mode": user.email_mode, "digest_hour": user.digest_hour}
    if request.method == "POST":
        form = EmailPreferencesForm(request.POST, initial=initial, seats=seats)
        if form.is_valid():
            mail_preferences.save(
                user,
                form.cleaned_data["email_mode"],
                form.cleaned_data["digest_hour"],
                {s.game_id: bool(form.cleaned_data[f"mute_{s.game_id}"]) for s in seats},
            )
            messages.success(request, "Your email preferences are saved.")
            return redirect("games:email_preferences")
        status = 400
    else:
        form = EmailPreferencesForm(initial=initial, seats=seats)
        status = 200
    return render(
        request,
        "games/preferences.html",
        {"form": form, "time_zone": user.time_zone},
        status=status,
    )
