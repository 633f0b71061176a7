"""What the API shows of games, built from what every viewer may see plus
the asking seat's own tiles: the same read side the pages use
(:mod:`games.core.projection`, :mod:`games.core.seat_names`, the kind's
robots' seat view or its presentation).

Hidden information stays hidden: an event is given as its public payload
(a seat's draws, the tiles it exchanged and the deal's racks and bag are
stored apart, in ``Event.private``, and never read here); a game's state only
as a seat view; scores from the stored state's public parts.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.http import Http404

from accounts.models import User
from api.errors import ApiError
from games.core.projection import current_state, kind_of, load_events
from games.core.seat_changes import left_in_words
from games.core.seat_names import names_now, renamed_events, renamed_state
from games.kinds import presentation
from games.models import Event, Game, Seat, SeatChange
from games.web.access import Viewer, viewer_or_404

#: How many finished games "my games" lists.
FINISHED_LISTED = 20


def when(moment: datetime | None) -> str | None:
    """A time as ISO 8601 with its offset (``2026-11-27T09:00:00+00:00``)."""
    return None if moment is None else moment.isoformat()


def plain(value: Any) -> Any:
    """``value`` as JSON: dataclasses as objects, tuples and sets as lists,
    enums by value, times as ISO 8601."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, datetime):
        return when(value)
    return value


def viewer(game_id: int, user: User) -> Viewer:
    """The game as ``user`` may see it: a seat's player, or a spectator of a
    public game; 404 otherwise (a private game's existence is not disclosed)."""
    return viewer_or_404(game_id, user)


def player(game_id: int, user: User) -> Viewer:
    """:func:`viewer`, for what only the game's players may do (403 for a
    spectator, and for a player who left the game to a robot, told so)."""
    seen = viewer(game_id, user)
    if seen.left is not None:
        raise ApiError(403, "not_yours", left_in_words(seen.left))
    if seen.seat is None:
        raise ApiError(403, "not_yours", "Only the players of this game can do this; you watch it.")
    return seen


def started(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise ApiError(
            409, "not_started", "This game has not started yet: it is waiting for players."
        )


# --- a game ------------------------------------------------------------------


def _players(game: Game) -> list[dict[str, Any]]:
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    return [
        {
            "seat": s.index,
            "name": None if s.user is None else s.user.public_name,
            "bot": s.user is not None and s.user.is_bot,
            "robot": s.user is not None and bool(s.user.robot_level),
        }
        for s in seats
    ]


def _scores(game: Game) -> list[int] | None:
    if game.state is None:
        return None
    return list(kind_of(game).scores_from_state(game.state, game.seat_count))


def movers(game: Game) -> list[int]:
    """The seats that may move now: the one on turn, and in a kind whose seats
    move at once (a sealed round) every other that has not moved yet."""
    return [s for s in range(game.seat_count) if game.may_move(s)]


def summary(game: Game, seat: int | None, left: SeatChange | None = None) -> dict[str, Any]:
    """A game as its list and its page head show it (``seat``: the viewer's;
    ``left``: how the viewer left it to a robot)."""
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "seq": game.last_seq,
        "turn": game.turn_seat,
        "movers": movers(game),
        "your_seat": seat,
        "your_turn": seat is not None and game.may_move(seat),
        "left": left_in_words(left) if left is not None else None,
        "players": _players(game),
        "scores": _scores(game),
        "deadline": when(game.deadline_at),
        "claims_close": when(game.window_closes_at),
        "end": game.end_reason or None,
        "public": game.is_public,
        "open": game.is_open,
        "lexicon": game.lexicon_name,
        "move_minutes": game.move_minutes,
        "rated": game.rated,
        "hints": game.hints,
        "created_at": when(game.created_at),
        "finished_at": when(game.finished_at),
    }


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The game's state as ``seat`` sees it (``None``: a spectator), with the
    game's ``seq``: for a kind with robots its seat view document (JUMBULAYA:
    ``jumbulaya-view/1``, seat-view.md), the very input of ``manage.py
    robot``; for another kind the view its presentation draws the page from."""
    started(game)
    kind = kind_of(game)
    names = names_now(game)
    state = renamed_state(kind, current_state(game), names)
    if kind.robots is not None:
        events = renamed_events(kind, load_events(game), names)
        window = None
        if game.window_closes_at is not None:
            window = {"closes": when(game.window_closes_at) or ""}
        doc = kind.robots.seat_view(
            events, state, seat, lexicon=game.lexicon_name, claim_window=window
        )
    else:
        shown = presentation.of(kind).seat_view(state, seat)
        doc = {"format": f"{kind.name}-board", "seat": seat, "board": plain(shown)}
    return {**doc, "seq": game.last_seq}


# --- the log -----------------------------------------------------------------


def public_event(row: Event) -> dict[str, Any]:
    """An event as every viewer may see it: never its private fields."""
    return {
        "seq": row.seq,
        "type": row.type,
        "seat": row.seat,
        "source": row.source,
        "at": when(row.created_at),
        "payload": row.payload,
    }


def log_since(game: Game, after: int) -> dict[str, Any]:
    """What happened after ``after``: the public events, and the log's words
    for them (the game page's), with where the game is now."""
    rows = list(game.events.filter(seq__gt=after).order_by("seq"))
    words: list[dict[str, Any]] = []
    if rows or game.last_seq > after:
        shown = presentation.of(kind_of(game)).game_log(game)
        words = [{"seq": e.seq, "words": e.words} for e in shown if e.seq > after]
    return {
        "seq": game.last_seq,
        "status": game.status,
        "turn": game.turn_seat,
        "movers": movers(game),
        "events": [public_event(row) for row in rows],
        "log": words,
    }


# --- an account's games ------------------------------------------------------


def _with_seats(games: Iterable[int]) -> dict[int, Game]:
    found = (
        Game.objects.filter(pk__in=list(games))
        .select_related("created_by")
        .prefetch_related("seats__user")
    )
    return {game.pk: game for game in found}


def my_games(user: User) -> dict[str, Any]:
    """The account's games, as its dashboard lists them: those where it is to
    move first (by deadline), then the others in play or gathering players,
    then those it left to a robot (finished for it, ``left`` saying how), then
    the last :data:`FINISHED_LISTED` finished; and its invitations."""
    mine = Seat.objects.filter(user=user)
    active = dict(
        mine.filter(game__status__in=[Game.Status.PLAYING, Game.Status.OPEN]).values_list(
            "game_id", "index"
        )
    )
    finished = dict(
        mine.filter(game__status=Game.Status.OVER)
        .order_by("-game__finished_at", "-game_id")
        .values_list("game_id", "index")[:FINISHED_LISTED]
    )
    # The games it left to a robot are finished for it, the latest left first.
    left = {
        change.game_id: change
        for change in SeatChange.objects.filter(left=user)
        .select_related("took_over")
        .order_by("-created_at", "-pk")[:FINISHED_LISTED]
    }
    games = _with_seats([*active, *finished, *left])
    far = "9999"

    def rows(seats: dict[int, int]) -> list[dict[str, Any]]:
        return [summary(games[pk], seat) for pk, seat in seats.items() if pk in games]

    playing = rows(active)
    playing.sort(key=lambda g: (not g["your_turn"], g["deadline"] or far, g["id"]))
    gone = [summary(games[pk], None, change) for pk, change in left.items() if pk in games]
    email = (user.email or "").lower()
    invited = dict(
        Seat.objects.filter(invited_email=email, user__isnull=True, game__status=Game.Status.OPEN)
        .exclude(game__seats__user=user)
        .values_list("game_id", "invited_by")
    )
    inviters = {u.pk: u for u in User.objects.filter(pk__in=set(invited.values()))}
    invitations = [
        {
            "game": pk,
            "by": inviters.get(invited[pk], game.created_by).public_name,
            "kind": game.kind,
            "players": _players(game),
        }
        for pk, game in _with_seats(invited).items()
    ]
    return {
        "games": playing + gone + rows(finished),
        "invitations": invitations,
    }


def game_or_404(game_id: int) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
