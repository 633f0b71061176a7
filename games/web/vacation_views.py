"""The vacation page: declare an absence, see yours and your allowance, end
one early.  Thin views: the rules live in :mod:`games.timing.vacations`."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from accounts.models import User
from games.models import Vacation
from games.timing import deadlines, vacations

LOCAL_FORMAT = "%Y-%m-%dT%H:%M"


class VacationForm(forms.Form):
    """Start and end, in the user's own time zone."""

    starts_at = forms.DateTimeField(
        label="From",
        input_formats=[LOCAL_FORMAT, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_FORMAT),
    )
    ends_at = forms.DateTimeField(
        label="Until",
        input_formats=[LOCAL_FORMAT, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_FORMAT),
    )


def _status(vacation: Vacation, now: datetime) -> str:
    start, end = deadlines.effective(vacation)
    if vacation.ended_early_at is not None and end <= start:
        return "cancelled"
    if end <= now:
        return "ended early" if vacation.ended_early_at is not None else "over"
    return "now" if start <= now else "planned"


@login_required
@require_http_methods(["GET", "POST"])
def vacation(request: HttpRequest) -> HttpResponse:
    user = cast(User, request.user)
    tz = deadlines.time_zone(user.time_zone)
    form = VacationForm()
    if request.method == "POST" and request.POST.get("action") == "end":
        try:
            vacations.end_early(user, int(request.POST.get("vacation", "0") or 0))
        except ValueError:
            messages.error(request, "There is no such absence of yours.")
        except vacations.VacationRefused as e:
            messages.error(request, e.message)
        else:
            messages.success(request, "Your absence is over: your deadlines count again.")
        return redirect("games:vacation")
    if request.method == "POST":
        form = VacationForm(request.POST)
        with timezone.override(tz):
            valid = form.is_valid()
        if valid:
            try:
                vacations.declare(
                    user, form.cleaned_data["starts_at"], form.cleaned_data["ends_at"]
                )
            except vacations.VacationRefused as e:
                form.add_error(None, e.message)
            else:
                messages.success(request, "Your absence is recorded: your deadlines wait for you.")
                return redirect("games:vacation")
    now = timezone.now()
    away = vacations.away_until(user)
    rows = [
        {
            "pk": v.pk,
            "starts_at": deadlines.effective(v)[0].astimezone(tz),
            "ends_at": v.ends_at.astimezone(tz),
            "ended_early_at": v.ended_early_at.astimezone(tz) if v.ended_early_at else None,
            "status": _status(v, now),
        }
        for v in vacations.listed(user)
    ]
    return render(
        request,
        "games/vacation.html",
        {
            "form": form,
            "rows": rows,
            "budget": vacations.budget(user),
            "allowance": vacations.allowance_days(),
            "time_zone": str(tz),
            "away_until": away.astimezone(tz) if away else None,
        },
        status=400 if form.errors else 200,
    )
