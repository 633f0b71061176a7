"""The lobby: creating games, invitations, open games, and each player's games.

Thin views: every write goes through :mod:`games.services` (or
:mod:`games.invitations` for the invitation emails).  Pages show display names
only, never another player's email address.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.db import transaction
from django.db.models import F, Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from accounts.models import User
from games import services
from games.engine import UnknownWordList, rules_from_json, state_from_json
from games.forms import CreateGameForm, lexicon_label, preset_label, preset_options, rules_in_words
from games.invitations import send_invitations
from games.models import Game, Seat
from games.tokens import INVITE_DAYS, invite_token, read_invite_token

#: How many finished games the dashboard lists.
FINISHED_SHOWN = 20
#: How many open games the open-games page lists.
OPEN_SHOWN = 50


def _seats() -> Prefetch[Any]:
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))


def _name(seat: Seat) -> str:
    return services.display_name(seat.user) if seat.user is not None else "(free seat)"


def _time_zone(user: User) -> str:
    """The user's time zone name, or UTC when it is not one."""
    name = user.time_zone or "UTC"
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return name


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)


# --- the dashboard -----------------------------------------------------------


@dataclass
class PlayerScore:
    name: str
    score: int | None
    is_you: bool
    resigned: bool = False


@dataclass
class GameRow:
    """One of the user's games, as the dashboard shows it."""

    game: Game
    my_seat: int
    opponents: list[str]
    players: list[PlayerScore] = field(default_factory=list)
    turn_name: str | None = None  # whose turn: "you" or a display name
    my_turn: bool = False
    deadline: datetime | None = None
    free_seats: int = 0
    result: str = ""  # for a finished game: who won


def _row(game: Game, user: User) -> GameRow:
    seats = list(game.seats.all())
    mine = next(s.index for s in seats if s.user_id == user.pk)
    row = GameRow(
        game=game,
        my_seat=mine,
        opponents=[_name(s) for s in seats if s.index != mine and s.user_id is not None],
        free_seats=sum(1 for s in seats if s.user_id is None),
    )
    if game.status == Game.Status.OPEN or game.state is None:
        row.players = [PlayerScore(_name(s), None, s.index == mine) for s in seats]
        return row
    # Only the scores leave the cached state: never a rack or the bag.
    state = state_from_json(game.state)
    scores = state.scores()
    row.players = [
        PlayerScore(_name(s), scores[s.index], s.index == mine, s.index in state.resigned)
        for s in seats
    ]
    if game.status == Game.Status.PLAYING and game.turn_seat is not None:
        row.my_turn = game.turn_seat == mine
        row.turn_name = "you" if row.my_turn else _name(seats[game.turn_seat])
        row.deadline = game.deadline_at
    if game.status == Game.Status.OVER:
        winners = state.winners()
        if mine in winners and len(winners) == 1:
            row.result = "You won"
        elif len(winners) == 1:
            row.result = f"{_name(seats[winners[0]])} won"
        elif winners:
            names = ["you" if w == mine else _name(seats[w]) for w in winners]
            row.result = "Tie: " + ", ".join(names)
    return row


def _my_games(user: User) -> QuerySet[Game]:
    return Game.objects.filter(seats__user=user).prefetch_related(_seats())


@login_required
@require_http_methods(["GET"])
def dashboard(request: HttpRequest) -> HttpResponse:
    """The user's games: whose turn it is first, then waiting, then finished."""
    user = _user(request)
    active = _my_games(user).filter(status__in=[Game.Status.PLAYING, Game.Status.OPEN])
    rows = [_row(g, user) for g in active]
    far = datetime.max.replace(tzinfo=zoneinfo.ZoneInfo("UTC"))
    your_turn = sorted((r for r in rows if r.my_turn), key=lambda r: r.deadline or far)
    playing = sorted(
        (r for r in rows if not r.my_turn and r.game.status == Game.Status.PLAYING),
        key=lambda r: r.deadline or far,
    )
    gathering = sorted(
        (r for r in rows if r.game.status == Game.Status.OPEN),
        key=lambda r: r.game.created_at,
        reverse=True,
    )
    finished = [
        _row(g, user)
        for g in _my_games(user)
        .filter(status=Game.Status.OVER)
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")[:FINISHED_SHOWN]
    ]
    email = (user.email or "").lower()
    invited = (
        Seat.objects.filter(invited_email=email, user__isnull=True, game__status=Game.Status.OPEN)
        .exclude(game__seats__user=user)
        .select_related("game__created_by")
        .order_by("-game__created_at")
        if email
        else Seat.objects.none()
    )
    invitations = [
        {
            "game": seat.game,
            "inviter": services.display_name(seat.game.created_by),
            "url": reverse("games:accept_invite", args=[invite_token(seat.game_id, email)]),
        }
        for seat in invited
    ]
    return render(
        request,
        "games/dashboard.html",
        {
            "groups": [
                ("Your turn", your_turn, "No game is waiting for your move."),
                ("Waiting", playing + gathering, "No game is waiting for other players."),
                ("Finished", finished, "No finished games yet."),
            ],
            "invitations": invitations,
            "tz": _time_zone(user),
        },
    )


def _next_game(user: User) -> Game | None:
    return (
        Game.objects.filter(
            status=Game.Status.PLAYING, seats__user=user, seats__index=F("turn_seat")
        )
        .order_by(F("deadline_at").asc(nulls_last=True), "pk")
        .first()
    )


@login_required
@require_http_methods(["GET"])
def next_game(request: HttpRequest) -> HttpResponse:
    """The game where the user's move is most urgent."""
    game = _next_game(_user(request))
    if game is None:
        messages.info(request, "No game is waiting for you.")
        return redirect("games:dashboard")
    return redirect("games:game", game.pk)


# --- creating a game ---------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if request.method == "POST":
        form = CreateGameForm(request.POST, user=user)
        if form.is_valid():
            data = form.cleaned_data
            try:
                with transaction.atomic():
                    game = services.create_game(
                        user,
                        seat_count=data["seat_count"],
                        rules=form.rules(),
                        lexicon_name=data["lexicon_name"],
                        move_hours=data["move_hours"],
                        is_public=data["is_public"],
                        is_open=data["is_open"],
                        invite_emails=data["invite_emails"],
                    )
                    invited = send_invitations(game, user)
            except services.ServiceError as e:
                form.add_error(None, e.message)
            except UnknownWordList:
                form.add_error(
                    "lexicon_name", "That word list is no longer installed: choose another."
                )
            else:
                note = "Your game is created."
                if invited:
                    note += f" {invited} invitation{'s were' if invited > 1 else ' was'} emailed."
                if game.is_open:
                    note += " It is listed under Open games until its seats are full."
                messages.success(request, note)
                return redirect("games:game", game.pk)
        form.redisplay()
        status = 400
    else:
        form = CreateGameForm(user=user)
        status = 200
    return render(
        request,
        "games/create.html",
        {"form": form, "presets": preset_options()},
        status=status,
    )


# --- invitations -------------------------------------------------------------


def _invite_problem(
    game: Game, seats: list[Seat], email: str, user: User | None
) -> tuple[str | None, bool]:
    """Why ``user`` (``None``: not signed in) cannot join with an invitation to
    ``email``, or ``None``; and whether they already have a seat."""
    if user is not None and any(s.user_id == user.pk for s in seats):
        return "You already have a seat in this game.", True
    if game.status == Game.Status.OVER:
        return "This game is over.", False
    if game.status != Game.Status.OPEN:
        return "This game has already started: all its seats are taken.", False
    if user is not None and not game.is_open and (user.email or "").lower() != email:
        return (
            "This invitation was sent to a different email address from the one you are "
            "signed in with. Sign out, then sign in with the address the invitation was "
            "sent to.",
            False,
        )
    who = (user.email or "").lower() if user is not None else email
    free = [s for s in seats if s.user_id is None]
    if not any(s.invited_email == who for s in free) and not (
        game.is_open and any(not s.invited_email for s in free)
    ):
        return "There is no free seat for you in this game any more.", False
    return None, False


def _invite_error(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "games/invite.html", {"problem": message}, status=status)


@require_http_methods(["GET", "POST"])
def accept_invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation: GET shows the game, POST takes the seat."""
    try:
        game_id, email = read_invite_token(token)
    except signing.SignatureExpired:
        return _invite_error(
            request,
            f"This invitation has expired: invitation links work for {INVITE_DAYS} days. "
            "Ask the friend who invited you to send a new one.",
            410,
        )
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return _invite_error(
            request,
            "This invitation link is not valid. Check that the whole link from the email "
            "was copied.",
            400,
        )
    game = (
        Game.objects.select_related("created_by")
        .prefetch_related(_seats())
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        return _invite_error(request, "This game no longer exists.", 404)
    user = _user(request) if request.user.is_authenticated else None
    if request.method == "POST" and user is None:
        return redirect_to_login(request.get_full_path())
    seats = list(game.seats.all())
    problem, seated = _invite_problem(game, seats, email, user)
    status = 200
    if request.method == "POST":
        if problem is None:
            assert user is not None
            try:
                services.join_game(game.pk, user)
            except services.ServiceError as e:
                problem = e.message
            else:
                return _joined(request, game.pk)
        status = 409
    return render(
        request,
        "games/invite.html",
        {
            "game": game,
            "problem": problem,
            "seated": seated,
            "inviter": services.display_name(game.created_by),
            "players": [_name(s) for s in seats if s.user_id is not None],
            "free_seats": sum(1 for s in seats if s.user_id is None),
            "rules": rules_in_words(rules_from_json(game.rules)),
            "lexicon": lexicon_label(game.lexicon_name),
            "sign_in": f"{reverse('accounts:sign_in')}?{urlencode({'next': request.path})}",
        },
        status=status,
    )


def _joined(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.get(pk=game_id)
    if game.status == Game.Status.PLAYING:
        messages.success(request, "You joined the game, and it has begun. Good luck!")
    else:
        free = game.seats.filter(user__isnull=True).count()
        messages.success(
            request,
            f"You joined the game. It begins when {free} more player"
            f"{'s join' if free != 1 else ' joins'}.",
        )
    return redirect("games:game", game_id)


# --- open games --------------------------------------------------------------


@dataclass
class OpenRow:
    game: Game
    creator: str
    players: list[str]
    free_seats: int  # the seats this user could take
    rules: list[str]
    rules_name: str
    lexicon: str
    is_mine: bool


@login_required
@require_http_methods(["GET"])
def open_games(request: HttpRequest) -> HttpResponse:
    """Games anyone signed in may join, newest first."""
    user = _user(request)
    email = (user.email or "").lower()
    games = (
        Game.objects.filter(status=Game.Status.OPEN, is_open=True)
        .select_related("created_by")
        .prefetch_related(_seats())
        .order_by("-created_at", "-pk")[: OPEN_SHOWN * 10]
    )
    rows = []
    for game in games:
        seats = list(game.seats.all())
        free = [s for s in seats if s.user_id is None]
        takeable = sum(1 for s in free if not s.invited_email or s.invited_email == email)
        is_mine = any(s.user_id == user.pk for s in seats)
        if not takeable and not is_mine:
            continue
        rules = rules_from_json(game.rules)
        rows.append(
            OpenRow(
                game=game,
                creator=services.display_name(game.created_by),
                players=[_name(s) for s in seats if s.user_id is not None],
                free_seats=takeable,
                rules=rules_in_words(rules)[1:],
                rules_name=preset_label(rules.preset)
                + (" with changes" if rules.overrides() else ""),
                lexicon=lexicon_label(game.lexicon_name),
                is_mine=is_mine,
            )
        )
        if len(rows) >= OPEN_SHOWN:
            break
    return render(request, "games/open_games.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    """Take a free seat of an open game (or the seat one was invited to)."""
    if request.method != "POST":
        return redirect("games:open_games")
    try:
        services.join_game(game_id, _user(request))
    except Game.DoesNotExist:
        messages.error(request, "That game no longer exists.")
    except services.ServiceError as e:
        messages.error(request, e.message)
    else:
        return _joined(request, game_id)
    return redirect("games:open_games")
