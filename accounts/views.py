"""Passwordless sign-in by email, sign-out, and the profile page.

Links in mail are opened by scanners and previewers, so following a link (GET)
only ever shows a page with a button; the button (POST) does the work.
"""

from __future__ import annotations

import logging
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import access_tokens, services, tokens
from accounts.forms import EmailChangeForm, ProfileForm, SignInForm
from accounts.limits import client_address
from accounts.models import User
from accounts.names import name_from_address, shown_name

log = logging.getLogger(__name__)

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
MAIL_FAILED = "We could not send the email just now. Please try again in a few minutes."


def safe_next(request: HttpRequest, candidate: str | None) -> str:
    """``candidate`` if it points into this site, else ``""``."""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


def link_problem(request: HttpRequest, title: str, text: str, *, status: int = 400) -> HttpResponse:
    """The page for a link that cannot be used, with the way to get a new one."""
    return render(
        request,
        "accounts/link_problem.html",
        {"title": title, "text": text},
        status=status,
    )


def bad_sign_in_link(request: HttpRequest, exc: signing.BadSignature) -> HttpResponse:
    if isinstance(exc, signing.SignatureExpired):
        text = (
            f"This sign-in link has expired: links work for "
            f"{settings.JUMBULAYA_SIGN_IN_MINUTES} minutes. Ask for a new one below."
        )
        return link_problem(request, "This link has expired", text)
    text = (
        "This sign-in link is not valid. It may have been cut short or changed on the "
        "way. Ask for a new one below."
    )
    return link_problem(request, "This link does not work", text)


# --- sign-in --------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest) -> HttpResponse:
    """Ask for an address and mail it a link.  The answer is the same whether or
    not the address has an account."""
    if request.method == "POST":
        form = SignInForm(request.POST)
        if form.is_valid():
            next_url = safe_next(request, form.cleaned_data["next"])
            try:
                services.send_sign_in_link(
                    form.cleaned_data["email"], next_url, client=client_address(request)
                )
            except services.TooManyMails as exc:
                form.add_error(None, str(exc))
                return render(request, "accounts/sign_in.html", {"form": form}, status=429)
            except services.MAIL_ERRORS:
                log.exception("could not send a sign-in link")
                form.add_error(None, MAIL_FAILED)
                return render(request, "accounts/sign_in.html", {"form": form}, status=503)
            return redirect("accounts:sign_in_sent")
    else:
        form = SignInForm(initial={"next": safe_next(request, request.GET.get("next"))})
    return render(request, "accounts/sign_in.html", {"form": form})


@require_GET
def sign_in_sent(request: HttpRequest) -> HttpResponse:
    return render(
        request, "accounts/sign_in_sent.html", {"minutes": settings.JUMBULAYA_SIGN_IN_MINUTES}
    )


def used_sign_in_link(request: HttpRequest, link: tokens.SignInLink, next_url: str) -> HttpResponse:
    """The page for a sign-in link that has done its work, with a button that
    mails a new one to the same address."""
    user = request.user
    signed_in = isinstance(user, User) and user.email.lower() == link.email
    return render(
        request,
        "accounts/sign_in_used.html",
        {
            "text": services.LinkUsed.message,
            "email": link.email,
            "next": next_url,
            "signed_in": signed_in,
        },
        status=410,
    )


@never_cache
@require_http_methods(["GET", "POST"])
def sign_in_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button (or says the link was used); POST signs in, making
    the account on first use.  Only the POST uses the link up, so a mail
    scanner that opens it spoils nothing."""
    try:
        link = tokens.read_sign_in_token(token)
    except signing.BadSignature as exc:
        return bad_sign_in_link(request, exc)
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    if request.method != "POST":
        if not services.sign_in_link_is_current(link):
            return used_sign_in_link(request, link, next_url)
        return render(
            request,
            "accounts/sign_in_confirm.html",
            {"email": link.email, "next": next_url},
        )
    try:
        user, created = services.sign_in_with_link(link)
    except services.LinkUsed:
        return used_sign_in_link(request, link, next_url)
    except services.AccountError as exc:
        return link_problem(request, "You cannot sign in", str(exc), status=403)
    login(request, user, backend=MODEL_BACKEND)
    if shown_name(user.display_name) is None:
        messages.info(
            request,
            "Welcome! Choose the name other players will see, then you are ready to play."
            if created
            else "Choose the name other players will see."
            if not user.display_name
            else "Your display name breaks the rules for names, so other players see "
            f"“{user.public_name}” instead: choose another name.",
        )
        profile_url = reverse("accounts:profile")
        if next_url:
            profile_url += "?" + urlencode({"next": next_url})
        return HttpResponseRedirect(profile_url)
    return HttpResponseRedirect(next_url or reverse(settings.LOGIN_REDIRECT_URL))


@require_http_methods(["GET", "POST"])
def sign_out(request: HttpRequest) -> HttpResponse:
    """POST only signs out; a GET (a prefetch, a pasted URL) gets a button."""
    if request.method != "POST":
        response = render(request, "accounts/sign_out.html", status=405)
        response["Allow"] = "POST"
        return response
    logout(request)
    messages.info(request, "You are signed out.")
    return redirect("games:home")


@login_required
@require_POST
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    """End every session of the account, this one too (the profile page's
    button)."""
    services.sign_out_everywhere(_user(request))
    logout(request)
    messages.info(
        request,
        "You are signed out everywhere: every browser that was signed in to your account "
        "is signed out. Your API tokens still work; revoke them on your profile page.",
    )
    return redirect("games:home")


# --- profile ------------------------------------------------------------------


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """Display name and time zone, and a request to change the address.  The
    two forms post here, told apart by the button's ``action``.  No cache keeps
    an answer (``no-store``): one shows a new access token, the only time it
    is ever shown, and every one shows the address."""
    user = _user(request)
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    # A player without a name is offered one read from their address.
    offered = {} if user.display_name else {"display_name": name_from_address(user.email)}
    profile_form = ProfileForm(instance=user, prefix="profile", initial=offered)
    email_form = EmailChangeForm(user=user, prefix="email")
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "profile":
            profile_form = ProfileForm(request.POST, instance=user, prefix="profile")
            if profile_form.is_valid():
                try:
                    services.update_profile(
                        user,
                        display_name=profile_form.cleaned_data["display_name"],
                        time_zone=profile_form.cleaned_data["time_zone"],
                    )
                except ValidationError as exc:  # a co-player's name in a live game
                    profile_form.add_error("display_name", exc)
                else:
                    messages.success(request, "Your profile is saved.")
                    return HttpResponseRedirect(next_url or reverse("accounts:profile"))
            # Validation wrote the refused values onto the user; the page header
            # should still show what is saved.
            user.refresh_from_db(fields=["display_name", "time_zone"])
            status = 400
        elif action == "email":
            email_form = EmailChangeForm(request.POST, user=user, prefix="email")
            if email_form.is_valid():
                new_email = email_form.cleaned_data["new_email"]
                try:
                    services.request_email_change(user, new_email, client=client_address(request))
                except services.TooManyMails as exc:
                    email_form.add_error("new_email", str(exc))
                    status = 429
                except services.MAIL_ERRORS:
                    log.exception("could not send an address confirmation")
                    email_form.add_error("new_email", MAIL_FAILED)
                    status = 503
                else:
                    messages.success(
                        request,
                        f"We sent a confirmation link to {new_email}. Your address changes "
                        "when you follow it.",
                    )
                    return redirect("accounts:profile")
            else:
                status = 400
        elif action in API_ACTIONS:
            return _api_action(request, user, action)
        else:
            messages.error(request, "Something went wrong with that form. Please try again.")
            return redirect("accounts:profile")
    return _profile_page(request, profile_form, email_form, next_url, status=status)


def _profile_page(
    request: HttpRequest,
    profile_form: ProfileForm,
    email_form: EmailChangeForm,
    next_url: str = "",
    *,
    status: int = 200,
    **extra: object,
) -> HttpResponse:
    user = _user(request)
    context = {
        "profile_form": profile_form,
        "email_form": email_form,
        "next": next_url,
        "access_tokens": access_tokens.tokens_of(user),
        "requests_per_minute": access_tokens.per_minute(),
        "max_token_name": access_tokens.MAX_NAME,
        "session_days": settings.SESSION_COOKIE_AGE // (24 * 3600),
        **extra,
    }
    return render(request, "accounts/profile.html", context, status=status)


#: The profile page's buttons for programs: the bot mark, and access tokens.
API_ACTIONS = ("bot", "token", "revoke")


def _api_action(request: HttpRequest, user: User, action: str) -> HttpResponse:
    """Mark the account a bot or not; make a token (shown on this answer only:
    it is kept hashed) or revoke one."""
    if action == "bot":
        user.is_bot = request.POST.get("is_bot") == "on"
        user.save(update_fields=["is_bot"])
        if user.is_bot:
            messages.success(request, f"Your account is a bot: players see “{user.public_name}”.")
        else:
            messages.success(request, "Your account is no longer marked as a bot.")
        return redirect(f"{reverse('accounts:profile')}#bot")
    if action == "revoke":
        raw = request.POST.get("token_id", "")
        if raw.isdigit() and access_tokens.revoke(user, int(raw)):
            messages.success(request, "The token is revoked: it no longer works.")
        else:
            messages.error(request, "There is no such token (it may be revoked already).")
        return redirect(f"{reverse('accounts:profile')}#tokens")
    profile_form = ProfileForm(instance=user, prefix="profile")
    email_form = EmailChangeForm(user=user, prefix="email")
    try:
        made = access_tokens.make(user, request.POST.get("token_name", ""))
    except access_tokens.TokenError as exc:
        return _profile_page(request, profile_form, email_form, status=400, token_error=exc.message)
    return _profile_page(request, profile_form, email_form, new_token=made)


@never_cache
@require_http_methods(["GET", "POST"])
def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows the new address and a button; POST makes the change."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        link = tokens.read_email_change_token(token)
    except signing.SignatureExpired:
        return link_problem(
            request,
            "This link has expired",
            f"Confirmation links work for {services.EMAIL_CHANGE_DAYS} days. "
            "Ask for a new one on your profile page.",
        )
    except signing.BadSignature:
        return link_problem(
            request,
            "This link does not work",
            "This confirmation link is not valid. It may have been cut short or changed "
            "on the way. Ask for a new one on your profile page.",
        )
    user = _user(request)
    if link.user_id != user.pk:
        return link_problem(
            request,
            "This link is for another account",
            "This confirmation link was made for a different account than the one you "
            "are signed in to. Sign out, sign in to the account that asked for the "
            "change, and follow the link again.",
            status=403,
        )
    if request.method != "POST":
        if not services.email_change_link_is_current(user, link):
            return used_email_link(request, user, link)
        again = link.new_email == user.email.lower()
        return render(
            request, "accounts/confirm_email.html", {"new_email": link.new_email, "again": again}
        )
    again = link.new_email == user.email.lower()
    try:
        services.change_email(user, link)
    except services.EmailLinkUsed:
        return used_email_link(request, user, link)
    except services.EmailTaken as exc:
        return link_problem(request, "That address is taken", str(exc), status=409)
    if again:
        messages.success(request, f"Your address {link.new_email} is confirmed: mail goes to it.")
    else:
        messages.success(request, f"Your address is now {link.new_email}.")
    return redirect("accounts:profile")


def used_email_link(request: HttpRequest, user: User, link: tokens.EmailChangeLink) -> HttpResponse:
    if user.email.lower() == link.new_email:
        text = f"This confirmation link has already been used: your address is {user.email}."
    else:
        text = services.EmailLinkUsed.message
    return link_problem(request, "This link was already used", text, status=410)
