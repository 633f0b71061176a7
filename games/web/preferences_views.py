"""Pages reached from game emails (turn links are :mod:`games.web.link_views`).

* ``/unsubscribe/<token>/``: GET asks for confirmation, POST applies it; the
  RFC 8058 one-click POST (``List-Unsubscribe=One-Click``) needs no CSRF token,
  the signed token being the proof.
* ``/settings/email/``: the signed-in user's email preferences.

Thin views: tokens come from :mod:`games.mail_out.turnlinks`, changes go through
:mod:`games.mail_out.mail_preferences`.
"""

from __future__ import annotations

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
from games.mail_out import mail_preferences
from games.mail_out.turnlinks import (
    BadLink,
    Unsubscribe,
    read_no_invitations_token,
    read_unsubscribe_token,
)
from games.models import Game, Seat

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
