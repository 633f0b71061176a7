"""The read side of ratings and players: a player's ratings and their
history, their finished games' results and best plays, and a kind's
leaderboard.

Only finished games are read for a player's figures (``Game.state`` of a
game over: the scores and the seats out, as the dashboard reads them, and the
log's plays that every viewer of the replay sees), so nothing of a live
game's racks reaches these pages.

A player's games, figures and ratings history are those the viewer may see
(:func:`games.web.access.visible_games`): a private game shows only to its
players.  The rating itself (a number, and its count of rated games) counts
every rated game, private ones too: what a player chose to play rated moves
their rating wherever it was played, and the number names no game.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q

from accounts.models import User
from accounts.names import look_alike, shown_name
from games import kinds
from games.core.projection import display_name, engine_event, kind_of
from games.kinds.base import GameKind, KindEvent, Play
from games.models import Game, Seat, SeatChange
from games.web.access import visible_games
from ratings.models import Rating, RatingChange
from ratings.rating import final_ranks

#: How many of a player's latest finished games of a kind are read for their best plays.
BEST_PLAYS_GAMES = 50
BEST_PLAYS_SHOWN = 5
RECENT_GAMES = 10
LEADERBOARD_SIZE = 100


#: A bot's name as pages show it: its name, then the bot mark (``Botty (bot)``).
_AS_A_BOT = re.compile(r"(?P<name>.*?)\s*\(\s*bot\s*\)", re.IGNORECASE)


def find_players(who: str) -> list[User]:
    """The accounts ``who`` names: an id, else a display name (case
    ignored).  A robot's name (``Robot Casual``, or one that could be taken
    for it) names the robot alone: people may not hold one, and a person who
    stored one before that rule, shown as ``player <id>``, is found by that
    number only.  A bot's name as shown, with its mark (``Botty (bot)``),
    names the bot alone.  Robot accounts are found though inactive: they
    never sign in."""
    players = User.objects.filter(Q(is_active=True) | ~Q(robot_level=""))
    if who.isdigit() and len(who) <= 12:
        return list(players.filter(pk=int(who)))
    robots = [
        robot for robot in players.exclude(robot_level="") if look_alike(robot.public_name, who)
    ]
    if robots:
        return robots
    bot = _AS_A_BOT.fullmatch(who.strip())
    if bot is not None:
        players = players.filter(is_bot=True)
        who = bot.group("name")
    named = players.filter(display_name__iexact=who, robot_level="").order_by("pk")
    return [user for user in named if shown_name(user.display_name) is not None]


@dataclass(frozen=True)
class Opponent:
    """Another player of a game, as a player's page links them."""

    name: str
    user_id: int


@dataclass
class Finished:
    """One finished game of a player, as their page lists it: finished, or
    finished for them (``left``: they left it to a robot, their score then)."""

    game: Game
    kind: GameKind
    seat: int
    score: int
    place: int
    won: bool
    opponents: list[Opponent]
    change: float | None = None
    left: bool = False
    #: The seat's events this player made: up to ``until`` (a player who left),
    #: after ``since`` (a robot that took the seat over).
    until: int | None = None
    since: int | None = None


@dataclass
class KindFigures:
    kind: GameKind
    rating: Rating | None
    history: list[RatingChange]
    played: int = 0
    won: int = 0
    total: int = 0
    best: list[Play] = field(default_factory=list)

    @property
    def average(self) -> float | None:
        return self.total / self.played if self.played else None


def finished_games(user: User, seen_by: User | AnonymousUser) -> list[Finished]:
    """``user``'s finished games that ``seen_by`` may see, the latest first,
    with their place; and the games they left to a robot, finished for them
    when they left (placed last, with their score then)."""
    visible = visible_games(seen_by)
    seats = (
        Seat.objects.filter(user=user, game__status=Game.Status.OVER, game__in=visible)
        .select_related("game")
        .order_by("-game__finished_at", "-game__pk")
    )
    gone = list(
        SeatChange.objects.filter(left=user, game__in=visible)
        .select_related("game")
        .order_by("-created_at", "-pk")
    )
    taken = {
        c.game_id: c.seq for c in SeatChange.objects.filter(took_over=user, game__status="over")
    }
    changes = dict(RatingChange.objects.filter(user=user).values_list("game_id", "ordinal_after"))
    before = dict(RatingChange.objects.filter(user=user).values_list("game_id", "ordinal_before"))
    names: dict[int, list[Opponent]] = {}
    game_ids = [s.game_id for s in seats] + [c.game_id for c in gone]
    left_seat = {c.game_id: c.seat for c in gone}
    for other in (
        Seat.objects.filter(game_id__in=game_ids)
        .exclude(user=user)
        .select_related("user")
        .order_by("game_id", "index")
    ):
        if other.user is not None and left_seat.get(other.game_id) != other.index:
            opponent = Opponent(display_name(other.user), other.user.pk)
            names.setdefault(other.game_id, []).append(opponent)
    out = [
        Finished(
            c.game,
            kind_of(c.game),
            c.seat,
            _score_then(c.game, c.seat, c.seq),
            c.game.seat_count,
            False,
            names.get(c.game_id, []),
            changes[c.game_id] - before[c.game_id] if c.game_id in changes else None,
            left=True,
            until=c.seq,
        )
        for c in gone
    ]
    for seat in seats:
        game = seat.game
        if game.state is None:
            continue
        kind = kind_of(game)
        scores = kind.scores_from_state(game.state, game.seat_count)
        ranks = final_ranks(scores, kind.out_from_state(game.state))
        change = (
            changes[game.pk] - before[game.pk] if game.pk in changes and game.pk in before else None
        )
        out.append(
            Finished(
                game,
                kind,
                seat.index,
                scores[seat.index],
                ranks[seat.index],
                ranks[seat.index] == 1,
                names.get(game.pk, []),
                change,
                since=taken.get(game.pk),
            )
        )
    moment = {c.game_id: c.created_at for c in gone}
    return sorted(
        out,
        key=lambda f: (moment.get(f.game.pk) or f.game.finished_at or f.game.created_at, f.game.pk),
        reverse=True,
    )


def _events_to(game: Game, seq: int | None) -> list[KindEvent]:
    """The game's log up to event ``seq`` (``None``: all of it)."""
    rows = game.events.order_by("seq")
    if seq is not None:
        rows = rows.filter(seq__lte=seq)
    return [engine_event(row) for row in rows]


def _score_then(game: Game, seat: int, seq: int) -> int:
    """``seat``'s score after event ``seq`` of ``game`` (when its player left)."""
    kind = kind_of(game)
    state = kind.state_to_json(kind.replay(_events_to(game, seq)))
    return kind.scores_from_state(state, game.seat_count)[seat]


def _best_plays(kind: GameKind, f: Finished) -> list[Play]:
    """The best plays of ``f``'s seat that its player made: up to when they
    left, or since a robot took the seat over."""
    plays = kinds.best_plays(kind, _events_to(f.game, f.until), f.seat)
    if f.since is not None:
        earlier = Counter(kinds.best_plays(kind, _events_to(f.game, f.since), f.seat))
        plays = list((Counter(plays) - earlier).elements())
    return plays


def figures(
    user: User, finished: list[Finished], seen_by: User | AnonymousUser
) -> list[KindFigures]:
    """Per kind the player has a rating at or has finished a game of: the
    rating, its history over the games ``seen_by`` may see, and from
    ``finished`` (:func:`finished_games` for the same viewer) games played and
    won, average score, best plays."""
    ratings = {r.kind: r for r in Rating.objects.filter(user=user)}
    shown_games = visible_games(seen_by)
    out = []
    for kind in kinds.all():
        games = [f for f in finished if f.kind.name == kind.name]
        if not games and kind.name not in ratings:
            continue
        history = list(
            RatingChange.objects.filter(user=user, kind=kind.name, game__in=shown_games).order_by(
                "created_at", "pk"
            )
        )
        shown = KindFigures(kind, ratings.get(kind.name), history)
        shown.played = len(games)
        shown.won = sum(1 for f in games if f.won)
        shown.total = sum(f.score for f in games)
        plays: list[Play] = []
        for f in games[:BEST_PLAYS_GAMES]:
            plays += _best_plays(kind, f)
        shown.best = sorted(plays, key=lambda play: -play.points)[:BEST_PLAYS_SHOWN]
        out.append(shown)
    return out


@dataclass(frozen=True)
class Standing:
    place: int
    user: User
    rating: Rating


def leaderboard(kind: GameKind, limit: int = LEADERBOARD_SIZE) -> list[Standing]:
    """The best-rated players of ``kind``, robots' included: robot accounts
    are inactive (they never sign in), yet play rated games."""
    ranked = Q(user__is_active=True) | ~Q(user__robot_level="")
    rows = Rating.objects.filter(ranked, kind=kind.name).select_related("user")
    return [
        Standing(i, row.user, row)
        for i, row in enumerate(rows.order_by("-ordinal", "pk")[:limit], start=1)
    ]
