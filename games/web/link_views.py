"""The game page reached through the turn link of a game email, without signing in.

``/t/<token>/`` is the game page (:mod:`games.web.play_views`) for the player the
link was sent to, with everything it offers: composing and previewing a move,
passing, exchanging, resigning, calling JUMBULAYA.  Its forms post to the link's
own addresses, so every request carries the signed token again:

* a GET only shows (mail scanners open links): it never moves and never signs
  in; for a browser already signed in as that player it is the game page itself;
* a POST (CSRF protected) to ``/t/<token>/`` makes a move, checked against the
  move the email was sent at, so a link cannot act once the game has moved on
  (a JUMBULAYA call is the exception while a claim window is open: calls are
  sealed and judged on the board as it is when the window closes);
* ``/t/<token>/preview/`` (POST) says what a move would do, changing nothing;
  ``/t/<token>/changes/`` (GET) is what the page polls, and ``/t/<token>/hints/``
  (GET) what it polls while the player's hints are being prepared.

Tokens come from :mod:`games.mail_out.turnlinks`, access from :mod:`games.web.access`, moves
go through :func:`games.core.door.submit` by way of :func:`~games.web.play_views.send_move`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from games.core.door import NotAPlayer
from games.core.projection import kind_of, turn_still_open
from games.kinds.base import GameKind
from games.mail_out.emails import zone_of
from games.mail_out.turnlinks import BadLink, TurnLink, read_turn_token
from games.models import Event, Game
from games.web import play_views
from games.web.access import Viewer, viewer_or_404
from games.web.play_views import Door, GameUrls, LinkStatus


class LinkProblem(Exception):
    """A link that opens no game for this browser; ``status`` and ``message`` say why."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class ThroughLink(Door):
    """The game as a turn link opens it: as the link's player, moves checked
    against the move the email was sent at."""

    source = Event.Source.LINK

    def __init__(self, request: HttpRequest, token: str) -> None:
        try:
            self.link = read_turn_token(token)
        except BadLink as e:
            raise LinkProblem(e.message, 400) from None
        user = request.user
        if user.is_authenticated and user.pk != self.link.user_id:
            raise LinkProblem(
                "This link was sent to another player, and you are signed in as "
                f"{user.public_name}. Sign out to use it, or open your own games.",
                403,
            )
        self.request = request
        self.game_id = self.link.game_id
        self.urls = GameUrls(
            page=reverse("games:turn_link", args=[token]),
            move=reverse("games:turn_link", args=[token]),
            preview=reverse("games:turn_link_preview", args=[token]),
            changes=reverse("games:turn_link_changes", args=[token]),
            hints=reverse("games:turn_link_hints", args=[token]),
            live=reverse("games:turn_link_live", args=[token]),
        )
        self.opened = self.viewer()
        self.tz_name = _zone_name(self.opened)

    def viewer(self) -> Viewer:
        link = self.link
        granted = {str(link.game_id): link.user_id}
        try:
            viewer: Viewer | None = viewer_or_404(link.game_id, self.request.user, granted)
        except Http404:
            viewer = None
        if viewer is None or (viewer.seat is None and viewer.left is None):
            raise LinkProblem(
                "This link no longer opens a game: the game or your seat is gone.", 404
            )
        return viewer  # a player who left the game to a robot sees it read-only

    def kind(self) -> GameKind:
        return kind_of(self.opened.game)

    def mover(self) -> int | User:
        if self.opened.seat is None:  # a player who left the game to a robot
            raise NotAPlayer("Only the players of this game can make moves in it.")
        return self.opened.seat

    def expected(self, notation: str, post: Any) -> int:
        # A call in an open claim window is sealed and judged on the board as it is
        # when the window closes, so the moves made since the email do not matter.
        game = self.opened.game
        kind = kind_of(game)
        is_call = kind.window is not None and kind.verb_of(notation) == kind.window.verb
        if is_call and game.window_closes_at is not None:
            return game.last_seq
        return self.link.seq

    def link_status(self, viewer: Viewer) -> LinkStatus:
        if viewer.seat is None:  # a player who left: the page says so
            return LinkStatus(moves=False, calls=False, note="")
        return link_status(self.link, viewer)

    def note_here(self) -> None:
        play_views.note_here(self.opened)

    def stale_message(self, game: Game) -> str:
        return (
            f"This link was sent when the game was at move {self.link.seq}, and the game has "
            f"moved on since (it is at move {game.last_seq}), so nothing was changed. Use the "
            "link in your newest email from this game, or sign in to play."
        )


def _zone_name(viewer: Viewer) -> str:
    """The time zone of the player the link was sent to (who may have left)."""
    player = next((s.user for s in viewer.game.seats.all() if s.index == viewer.seat), None)
    if player is None and viewer.left is not None:
        player = viewer.left.left
    return zone_of(player).key if player is not None else "UTC"


def link_status(link: TurnLink, viewer: Viewer) -> LinkStatus:
    """What the link may still do, and what the page says about it.  A game that
    moved on by the player's own move is no refusal: the page says what comes next."""
    game = viewer.game
    window = game.window_closes_at is not None
    if turn_still_open(game, link.seq):  # at that move, or in the same sealed round
        return LinkStatus(moves=True, calls=True, note="")
    first = Event.objects.filter(game=game, seq=link.seq + 1).values_list("seat", "type").first()
    calls = (
        f" A {kind_of(game).label} call can still be sent from here while the claim window is open."
    )
    if first == (viewer.seat, "timed_out"):
        note = "Your time for the move this email was sent for ran out, and the turn passed."
    elif first is not None and first[0] == viewer.seat:
        note = "You have moved since this email was sent."
    else:
        note = (
            f"The game has moved on since this email was sent (at move {link.seq}; "
            f"it is at move {game.last_seq} now), so this link no longer sends moves."
        )
    return LinkStatus(moves=False, calls=window, note=note + (calls if window else ""))


def _problem(request: HttpRequest, problem: LinkProblem) -> HttpResponse:
    return render(
        request, "games/turn_link.html", {"problem": problem.message}, status=problem.status
    )


@require_http_methods(["GET", "POST"])
def turn_link(request: HttpRequest, token: str) -> HttpResponse:
    """The game page through a turn link: GET shows it, POST sends a move."""
    try:
        door = ThroughLink(request, token)
    except LinkProblem as e:
        return _problem(request, e)
    if request.method == "POST":
        try:
            return play_views.send_move(request, door)
        except LinkProblem as e:  # the seat went while the move was on its way
            return _problem(request, e)
    if request.user.is_authenticated:
        return redirect("games:game", game_id=door.game_id)
    return play_views.page(request, door, door.opened)


@require_POST
def turn_link_preview(request: HttpRequest, token: str) -> HttpResponse:
    try:
        return play_views.preview_move(request, ThroughLink(request, token))
    except LinkProblem as e:
        return _problem(request, e)


@require_GET
def turn_link_changes(request: HttpRequest, token: str) -> HttpResponse:
    try:
        return play_views.changes_since(request, ThroughLink(request, token))
    except LinkProblem as e:
        return _problem(request, e)


@require_GET
def turn_link_hints(request: HttpRequest, token: str) -> HttpResponse:
    try:
        return play_views.hints_when_ready(request, ThroughLink(request, token))
    except LinkProblem as e:
        return _problem(request, e)
