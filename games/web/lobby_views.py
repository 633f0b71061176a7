"""The lobby: creating games, invitations, open games, and each player's games.

Thin views: every write goes through :mod:`games.core.door` (or
:mod:`games.mail_out.invitations` for the invitation emails).  Pages show display names
only, never another player's email address.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, F, Prefetch, Q, QuerySet, Value
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dates import MONTHS_3, WEEKDAYS_ABBR
from django.utils.timesince import timeuntil
from django.views.decorators.http import require_http_methods

from accounts.forms import DisplayNameForm
from accounts.models import User
from accounts.names import name_from_address, shown_name
from accounts.views import MODEL_BACKEND
from games import kinds
from games.core import lobby, projection
from games.core.tokens import INVITE_DAYS, invite_token, read_invite_token
from games.engine.lexicon import UnknownWordList
from games.mail_out import invitations
from games.models import Game, Seat, SeatChange, moving_seats, other_mover
from games.web.access import may_ask_to_join
from games.web.forms import (
    SHOW_KIND,
    CreateGameForm,
    PlayRobotForm,
    every_kind_preset_options,
    kind_sections,
    lexicon_label,
    play_now,
    preset_label,
    robots_by_kind,
    rules_in_words,
    showing_kind,
)

#: How many finished games the dashboard lists.
FINISHED_SHOWN = 20
#: How many open games the open-games page lists.
OPEN_SHOWN = 50


def _seats() -> Prefetch[Any]:
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))


def _name(seat: Seat) -> str:
    return projection.display_name(seat.user) if seat.user is not None else "(free seat)"


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
#
# The dashboard lists every active game of the user, so it is built for speed:
# three queries of plain values (the user's active games, the last finished
# ones, then all their seats), only the parts of the cached state that scores
# need (never the racks or the bag, and no GameState), one URL reversal, and
# every display string made here so the template only places them.

#: The games' fields a row needs, read through the user's own seat.
_ROW_FIELDS: dict[str, Any] = {
    "kind": F("game__kind"),
    "status": F("game__status"),
    "is_open": F("game__is_open"),
    "turn_seat": F("game__turn_seat"),
    "other_mover": other_mover(),
    "deadline_at": F("game__deadline_at"),
    "created_at": F("game__created_at"),
    "finished_at": F("game__finished_at"),
    "has_state": ExpressionWrapper(Q(game__state__isnull=False), output_field=BooleanField()),
}
#: The prefix of a row's fields that hold parts of the cached state.
_PART = "state__"


def _row_fields() -> dict[str, Any]:
    """:data:`_ROW_FIELDS`, and the cached state's parts that scores and
    results need, for every kind (its :attr:`~games.kinds.base.GameKind.score_keys`,
    never a rack or the bag): JSON key transforms, which SQLite and PostgreSQL
    both evaluate in the database.  (A game is over exactly when its state is:
    no need for its end.)"""
    keys = dict.fromkeys(key for kind in kinds.all() for key in kind.score_keys)
    return _ROW_FIELDS | {f"{_PART}{key}": F(f"game__state__{key}") for key in keys}


_FAR = datetime.max.replace(tzinfo=UTC)
_LONG_AGO = datetime.min.replace(tzinfo=UTC)
_PROBE = 8642097531  # a game id no URL prefix contains, to cut the reversed URL at


@dataclass(slots=True)
class PlayerScore:
    label: str  # "You" or a display name
    score: int | None
    css: str  # the class of its list item: "you", " resigned", "you resigned" or ""


@dataclass(slots=True)
class GameRow:
    """One of the user's games, as the dashboard shows it: display strings only."""

    url: str
    title: str  # "Against Bob, Cy", or "Game 12" before anyone else has joined
    #: The meta line up to its deadline: "Waiting for 2 more players", "Your turn",
    #: "Bob\u2019s turn", "You won, 3 Mar 2026"...
    meta: str
    players: list[PlayerScore]  # empty for a game still gathering players
    status: str
    kind: str = ""  # which game it is: "JUMBULAYA"
    my_turn: bool = False
    due: str = ""  # the deadline in the user's time zone, e.g. "Mon 2 Mar, 14:00"
    due_iso: str = ""
    due_in: str = ""  # e.g. "2 days, 3 hours"
    deadline: datetime | None = None  # for sorting
    created_at: datetime | None = None  # for sorting


def _standing(game: dict[str, Any], seats: int) -> tuple[list[int], frozenset[int], list[int]]:
    """The scores, the seats out of the game and (once over) the winners, as
    the kind tells them from the cached state's parts the row read (its
    :attr:`~games.kinds.base.GameKind.score_keys`)."""
    kind = kinds.get(game["kind"])
    parts = {key: game[f"{_PART}{key}"] for key in kind.score_keys}
    return (
        kind.scores_from_state(parts, seats),
        kind.out_from_state(parts),
        kind.winners_from_state(parts, seats),
    )


class _Dates:
    """Dates as the ``date`` filter shows them in ``zone`` ("D j M, H:i" and
    "j M Y"), and ``timeuntil``'s text, for a page's worth of rows."""

    def __init__(self, zone: zoneinfo.ZoneInfo) -> None:
        self.zone = zone
        self.now = timezone.now()
        self.days = [str(WEEKDAYS_ABBR[d]) for d in range(7)]
        self.months = [""] + [str(MONTHS_3[m]).title() for m in range(1, 13)]

    def due(self, when: datetime) -> tuple[str, str, str]:
        """The text, the ISO form and the time left."""
        t = when.astimezone(self.zone)
        day = f"{self.days[t.weekday()]} {t.day} {self.months[t.month]}"
        text = f"{day}, {t.hour:02d}:{t.minute:02d}"
        return text, t.isoformat(), timeuntil(when, self.now)

    def day(self, when: datetime) -> str:
        t = when.astimezone(self.zone)
        return f"{t.day} {self.months[t.month]} {t.year:04d}"


@dataclass(slots=True)
class _Seat:
    index: int
    taken: bool
    name: str


def _row(game: dict[str, Any], seats: list[_Seat], url: str, dates: _Dates) -> GameRow:
    row = _status_row(game, seats, url, dates)
    row.kind = kinds.get(game["kind"]).label
    return row


def _status_row(game: dict[str, Any], seats: list[_Seat], url: str, dates: _Dates) -> GameRow:
    mine = game["my_seat"]
    others = [s.name for s in seats if s.index != mine and s.taken]
    title = f"Against {', '.join(others)}" if others else f"Game {game['game_id']}"
    status = game["status"]
    if game.get("left_reason"):
        return _left_row(game, seats, url, dates, title)
    if status == Game.Status.OPEN:
        free = sum(1 for s in seats if not s.taken)
        listed = " (listed under Open games)" if game["is_open"] else ""
        meta = f"Waiting for {free} more player{'' if free == 1 else 's'}{listed}"
        return GameRow(url, title, meta, [], status, created_at=game["created_at"])
    has_state = game["has_state"]
    # Only the scores leave the cached state: never a rack or the bag.
    scores: list[int | None]
    if not has_state:  # no cached state (not expected once a game has started)
        scores, resigned, winners = [None] * len(seats), frozenset[int](), list[int]()
    else:
        final, resigned, winners = _standing(game, len(seats))
        scores = list(final)
    players = [
        PlayerScore(
            "You" if s.index == mine else s.name,
            scores[s.index],
            ("you" if s.index == mine else "") + (" resigned" if s.index in resigned else ""),
        )
        for s in seats
    ]
    turn = game["turn_seat"]
    if status == Game.Status.PLAYING:
        row = GameRow(url, title, "", players, status)
        if turn is not None:
            row.my_turn = turn == mine or game["other_mover"] == 1
            row.meta = "Your turn" if row.my_turn else f"{seats[turn].name}\u2019s turn"
            row.deadline = game["deadline_at"]
            if row.deadline is not None:
                row.due, row.due_iso, row.due_in = dates.due(row.deadline)
        return row
    result = ""
    if has_state:  # the game is over: its kind said who won
        if mine in winners and len(winners) == 1:
            result = "You won"
        elif len(winners) == 1:
            result = f"{seats[winners[0]].name} won"
        elif winners:
            result = "Tie: " + ", ".join("you" if w == mine else seats[w].name for w in winners)
    meta = result or "Game over"
    if game["finished_at"] is not None:
        meta += f", {dates.day(game['finished_at'])}"
    return GameRow(url, title, meta, players, status)


def _left_row(
    game: dict[str, Any], seats: list[_Seat], url: str, dates: _Dates, title: str
) -> GameRow:
    """A game the user left to a robot: finished for them, whatever its status;
    their seat shown under the robot's name."""
    mine = game["my_seat"]
    robot = seats[mine].name
    if game["left_reason"] == SeatChange.Reason.TIMEOUTS:
        meta = f"You were removed after missed turns, and {robot} took your seat"
    else:
        meta = f"You resigned, and {robot} took your seat"
    scores: list[int | None] = [None] * len(seats)
    resigned: frozenset[int] = frozenset()
    if game["has_state"]:
        final, resigned, winners = _standing(game, len(seats))
        scores = list(final)
        if game["status"] == Game.Status.OVER and winners:
            names = [seats[w].name for w in winners]
            meta += f"; {names[0]} won" if len(names) == 1 else f"; tie: {', '.join(names)}"
    players = [
        PlayerScore(s.name, scores[s.index], " resigned" if s.index in resigned else "")
        for s in seats
    ]
    meta += f", {dates.day(game['left_at'])}"
    return GameRow(url, title, meta, players, Game.Status.OVER)


def _my_games(user: User, statuses: list[str]) -> QuerySet[Seat, dict[str, Any]]:
    """The user's games in ``statuses``, as values, with ``my_seat``."""
    found = Seat.objects.filter(user=user, game__status__in=statuses)
    return cast(
        "QuerySet[Seat, dict[str, Any]]",
        found.values("game_id", my_seat=F("index"), **_row_fields()),
    )


def _games_left(user: User) -> QuerySet[SeatChange, dict[str, Any]]:
    """The games the user left to a robot, as values (as :func:`_my_games`),
    with ``left_reason`` and ``left_at``: finished for them, the latest first."""
    found = SeatChange.objects.filter(left=user).order_by("-created_at", "-pk")
    # No longer theirs to move; the change's own created_at is not the game's.
    fields = {k: v for k, v in _row_fields().items() if k != "created_at"}
    fields["other_mover"] = Value(0)
    return cast(
        "QuerySet[SeatChange, dict[str, Any]]",
        found.values(
            "game_id",
            my_seat=F("seat"),
            left_reason=F("reason"),
            left_at=F("created_at"),
            **fields,
        ),
    )


@login_required
@require_http_methods(["GET"])
def dashboard(request: HttpRequest) -> HttpResponse:
    """The user's games: whose turn it is first, then waiting, then finished."""
    user = _user(request)
    active = list(_my_games(user, [Game.Status.PLAYING, Game.Status.OPEN]).order_by("game_id"))
    finished = list(
        _my_games(user, [Game.Status.OVER]).order_by(
            F("game__finished_at").desc(nulls_last=True), "-game_id"
        )[:FINISHED_SHOWN]
    )
    # The games the user left to a robot are finished for them, when they left.
    finished = sorted(
        finished + list(_games_left(user)[:FINISHED_SHOWN]),
        key=lambda g: g.get("left_at") or g["finished_at"] or _LONG_AGO,
        reverse=True,
    )[:FINISHED_SHOWN]
    seats: dict[int, list[_Seat]] = {g["game_id"]: [] for g in active + finished}
    names: dict[int, str] = {}  # by user id: the same players come up again and again
    found = (
        Seat.objects.filter(game_id__in=list(seats))
        .order_by("index")
        .values_list(
            "game_id",
            "index",
            "user_id",
            "user__display_name",
            "user__is_bot",
            "user__robot_level",
        )
    )
    for game_id, index, user_id, display_name, is_bot, robot_level in found:
        if user_id is None:
            name = "(free seat)"  # as _name()
        elif user_id in names:
            name = names[user_id]
        else:  # a User with just what display_name() reads, without a query per seat
            # Django's from_db reads the values in the model's field order, not the names'.
            player = User.from_db(
                found.db,
                ["id", "display_name", "robot_level", "is_bot"],
                (user_id, display_name, robot_level, is_bot),
            )
            name = names[user_id] = projection.display_name(player)
        seats[game_id].append(_Seat(index, user_id is not None, name))
    # One reversal: "/games/<id>/" for every game.
    head, _, tail = reverse("games:game", args=[_PROBE]).rpartition(str(_PROBE))
    tz = _time_zone(user)
    dates = _Dates(zoneinfo.ZoneInfo(tz))

    def row(game: dict[str, Any]) -> GameRow:
        gid = game["game_id"]
        return _row(game, seats[gid], f"{head}{gid}{tail}", dates)

    rows = [row(g) for g in active]
    your_turn = sorted((r for r in rows if r.my_turn), key=lambda r: r.deadline or _FAR)
    playing = sorted(
        (r for r in rows if not r.my_turn and r.status == Game.Status.PLAYING),
        key=lambda r: r.deadline or _FAR,
    )
    gathering = sorted(
        (r for r in rows if r.status == Game.Status.OPEN),
        key=lambda r: cast(datetime, r.created_at),
        reverse=True,
    )
    email = (user.email or "").lower()
    invited = (
        Seat.objects.filter(invited_email=email, user__isnull=True, game__status=Game.Status.OPEN)
        .exclude(game__seats__user=user)
        .select_related("game__created_by", "invited_by")
        .defer("game__state")
        .order_by("-game__created_at")
        if email
        else Seat.objects.none()
    )
    invitations = [
        {
            "game": seat.game,
            "inviter": projection.display_name(seat.invited_by or seat.game.created_by),
            "url": reverse("games:accept_invite", args=[invite_token(seat.game_id, email)]),
        }
        for seat in invited
    ]
    return render(
        request,
        "games/dashboard.html",
        {
            "groups": [
                ("Your turn", "your-turn", your_turn, "No game is waiting for your move."),
                (
                    "Waiting",
                    "waiting",
                    playing + gathering,
                    "No game is waiting for other players.",
                ),
                ("Finished", "finished", [row(g) for g in finished], "No finished games yet."),
            ],
            "invitations": invitations,
            "tz": tz,
            "kinds": kinds.all(),
            "play_now": play_now(),
        },
    )


def _next_game(user: User) -> int | None:
    """The id of the game where the user's move is most urgent."""
    return (
        moving_seats(Seat.objects.filter(user=user, game__status=Game.Status.PLAYING))
        .order_by(F("game__deadline_at").asc(nulls_last=True), "game_id")
        .values_list("game_id", flat=True)
        .first()
    )


@login_required
@require_http_methods(["GET"])
def next_game(request: HttpRequest) -> HttpResponse:
    """The game where the user's move is most urgent."""
    game_id = _next_game(_user(request))
    if game_id is None:
        messages.info(request, "No game is waiting for you.")
        return redirect("games:dashboard")
    return redirect("games:game", game_id)


# --- creating a game ---------------------------------------------------------


def _robot_kind(request: HttpRequest) -> dict[str, str]:
    """The game the robot form starts on: ``?robot=<kind>`` (a one-click
    button pressed before signing in), when it names one."""
    wanted = request.GET.get("robot", "")
    if any(kind.name == wanted for kind in kinds.all()):
        return {"kind": wanted}
    return {}


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if request.method == "POST" and SHOW_KIND in request.POST:
        # Another kind chosen without the page's script: its options, nothing created.
        kind, initial = showing_kind(request.POST)
        form = CreateGameForm(user=user, kind=kind, initial=initial)
        status = 200
    elif request.method == "POST":
        form = CreateGameForm(request.POST, user=user)
        if form.is_valid():
            data = form.cleaned_data
            try:
                with transaction.atomic():
                    game = lobby.create_game(user, **form.game_arguments())
                    invited = len(data["invite_emails"])  # emailed by the outbox
            except projection.ServiceError as e:
                form.add_error(None, e.message)
            except UnknownWordList:
                form.add_error(
                    "lexicon_name", "That word list is no longer installed: choose another."
                )
            else:
                note = "Your game is created."
                if invited:
                    plural = "s are" if invited > 1 else " is"
                    note += f" {invited} invitation{plural} on the way by email."
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
        {
            "form": form,
            "sections": kind_sections(form),
            "presets": every_kind_preset_options(),
            "robot_form": PlayRobotForm(initial=_robot_kind(request)),
            "robots_by_kind": robots_by_kind(),
        },
        status=status,
    )


@require_http_methods(["POST"])
def play_robot(request: HttpRequest) -> HttpResponse:
    """ "Play against a robot now": a game with one robot, started at once (a
    one-click button of the home page or the dashboard, or the create page's
    form).  A visitor not signed in is asked to sign in first, and then
    lands on the create page with that game chosen."""
    if not request.user.is_authenticated:
        kind = str(request.POST.get("kind", ""))[:32]  # the create page ignores any other
        back = reverse("games:create") + (f"?{urlencode({'robot': kind})}" if kind else "")
        return redirect_to_login(back)
    form = PlayRobotForm(request.POST)
    if not form.is_valid():
        problems = [str(e) for errors in form.errors.values() for e in errors]
        messages.error(request, " ".join(problems) or "Choose a game and a robot to play.")
        return redirect("games:create")
    data = form.cleaned_data
    try:
        game = lobby.play_against_robot(_user(request), data["level"], kind=data["kind"])
    except projection.ServiceError as e:
        messages.error(request, e.message)
        return redirect("games:create")
    return redirect("games:game", game.pk)


# --- invitations -------------------------------------------------------------


def _inviter(game: Game, seats: list[Seat], email: str) -> User:
    """Who invited ``email`` to ``game``: a player of it, else its creator."""
    ids = [s.invited_by_id for s in seats if s.invited_email == email and s.invited_by_id]
    found = User.objects.filter(pk__in=ids[:1]).first()
    return found or game.created_by


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
    """An invitation: GET shows the game and its settings, POST takes the seat.

    A visitor invited to an address with no account names themself here and
    is signed in and seated in one step (see :mod:`games.mail_out.invitations`); a
    signed-in player without a name names themself on the same form."""
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
    seats = list(game.seats.all())
    problem, seated = _invite_problem(game, seats, email, user)
    new_player = (
        user is None and problem is None and not User.objects.filter(email__iexact=email).exists()
    )
    if request.method == "POST" and user is None and not new_player:
        return redirect_to_login(request.get_full_path())
    needs_name = new_player or (
        user is not None and problem is None and shown_name(user.display_name) is None
    )
    name_form: DisplayNameForm | None = None
    if needs_name:
        offered = name_from_address(user.email if user is not None else email)
        name_form = DisplayNameForm(initial={"display_name": offered})
    status = 200
    if request.method == "POST":
        status = 409
        if problem is None:
            joined = _join_by_invitation(request, game.pk, email, user, name_form)
            if isinstance(joined, HttpResponse):
                return joined
            name_form, problem, status = joined
    return render(
        request,
        "games/invite.html",
        {
            "game": game,
            "problem": problem,
            "seated": seated,
            "new_player": new_player,
            "name_form": name_form,
            "inviter": projection.display_name(_inviter(game, seats, email)),
            "free_seats": sum(1 for s in seats if s.user_id is None),
            "facts": invitations.game_facts(
                game, [_name(s) for s in seats if s.user_id is not None]
            ),
            "sign_in": f"{reverse('accounts:sign_in')}?{urlencode({'next': request.path})}",
        },
        status=status,
    )


def _join_by_invitation(
    request: HttpRequest,
    game_id: int,
    email: str,
    user: User | None,
    name_form: DisplayNameForm | None,
) -> HttpResponse | tuple[DisplayNameForm | None, str | None, int]:
    """Take the seat (naming, and for a new player making and signing in, the
    account first): the game page, or ``(form, problem, status)`` to show."""
    if name_form is not None:
        name_form = DisplayNameForm(request.POST)
        if not name_form.is_valid():
            return name_form, None, 400
    name = name_form.cleaned_data["display_name"] if name_form is not None else None
    try:
        if user is None:
            assert name is not None
            user = lobby.join_as_new_player(game_id, email, name)
            login(request, user, backend=MODEL_BACKEND)
        else:
            lobby.join_with_name(game_id, user, name)
    except lobby.LookAlikeName as e:
        if name_form is None:
            return None, e.message, 409
        name_form.add_error(
            "display_name",
            f"“{name}” could be taken for the name of {e.theirs}, who already has a seat "
            "in this game: choose a name the others can tell apart (an initial will do).",
        )
        return name_form, None, 409
    except projection.ServiceError as e:
        return name_form, e.message, 409
    return _joined(request, game_id)


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
        kind = kinds.get(game.kind)
        rules = kind.options_from_json(game.rules)
        preset, changed = kind.preset_of(rules)
        rows.append(
            OpenRow(
                game=game,
                creator=projection.display_name(game.created_by),
                players=[_name(s) for s in seats if s.user_id is not None],
                free_seats=takeable,
                rules=rules_in_words(rules, kind)[1:],
                rules_name=preset_label(preset, kind) + (" with changes" if changed else ""),
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
    """Take a free seat of an open game (or the seat one was invited to).  A
    refusal says why only to a user who may know of the game
    (:func:`~games.web.access.may_ask_to_join`); anyone else gets the 404 of a
    game that is not there, whatever the reason, as the API's join answers."""
    if request.method != "POST":
        return redirect("games:open_games")
    user = _user(request)
    if not may_ask_to_join(game_id, user):
        raise Http404("No such game, or no seat in it for you.")
    if shown_name(user.display_name) is None:
        messages.info(request, "Choose the name other players will see, then join.")
        back = urlencode({"next": reverse("games:open_games")})
        return redirect(f"{reverse('accounts:profile')}?{back}")
    try:
        lobby.join_game(game_id, user)
    except Game.DoesNotExist:  # deleted since it was looked at
        raise Http404("No such game, or no seat in it for you.") from None
    except projection.ServiceError as e:
        messages.error(request, e.message)
    else:
        return _joined(request, game_id)
    return redirect("games:open_games")
