"""``/mail/again/`` (POST): the banner's "Confirm my address again" button, for
a player whose mail stopped.  Thin glue over :mod:`games.mail_out.mail_again`,
which lifts the ESP's suppression of the address and mails the link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.limits import client_address
from accounts.models import User
from games.mail_out import mail_again


@login_required
@require_POST
def confirm_again(request: HttpRequest) -> HttpResponse:
    """Mail a link confirming the account's own address (``want_mail=yes``:
    the player ticked "I want game emails again"), and say what came of it on
    the profile page, where the address can be changed too."""
    user = request.user
    assert isinstance(user, User)  # signed in: login_required
    answer = mail_again.ask(
        user, wants_mail=request.POST.get("want_mail") == "yes", client=client_address(request)
    )
    (messages.success if answer.ok else messages.error)(request, answer.text)
    return redirect("accounts:profile")
