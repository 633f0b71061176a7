"""Players' names as they are now, for what pages and emails show of a game.

A game's log keeps the names its players had when it began (the deal event,
and so every state folded from it): the log is append-only, and a record of
the game replays the same.  A player who renames themself must still be shown
under the new name in every game, so whatever is shown to people is built from
a state or a log whose names are swapped here for the seats' current display
names.  The engine's truth (the log, the cached state, the replay check) keeps
the names of the deal.  A seat a robot took over (a player who left) is named,
in the lines played before, by the player who held it then (:func:`as_played`).

Players of one game can be told apart: a seat is refused to a player whose name
could be taken for a seated player's (``games.core.lobby.join_game``), and
so is a new name that could be taken for a co-player's in any game not over
(:func:`refuse_look_alike_rename`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError

from accounts.models import User
from accounts.names import look_alike
from games.core.projection import current_state, display_name, kind_of, load_events
from games.core.seat_changes import change_words
from games.kinds.base import GameKind, KindEvent, Logged, State
from games.models import Game, Seat, SeatChange

#: The games whose players must be told apart: those not over.
LIVE = (Game.Status.OPEN, Game.Status.PLAYING)


def names_now(game: Game, seats: Sequence[Seat] | None = None) -> dict[int, str]:
    """Each seated player's display name now, by seat (``seats``: the game's
    seats with their users, when the caller has them)."""
    if seats is None:
        seats = list(game.seats.filter(user__isnull=False).select_related("user"))
    return {s.index: display_name(s.user) for s in seats if s.user is not None}


def renamed_state(kind: GameKind, state: State, names: dict[int, str]) -> State:
    """``state`` (of ``kind``) with the players' names of ``names`` (a copy)."""
    players = kind.players(state)
    return kind.with_players(state, tuple(names.get(i, name) for i, name in enumerate(players)))


def renamed_events(
    kind: GameKind, events: Sequence[KindEvent], names: dict[int, str]
) -> list[KindEvent]:
    """The log with the names of ``names`` in its deal, so every state folded
    from it names the players as they are now."""
    return [kind.rename_deal(e, names) if kind.is_deal(e) else e for e in events]


def names_then(names: Mapping[int, str], changes: Sequence[SeatChange], seq: int) -> dict[int, str]:
    """``names`` (the players' names now) as they were at event ``seq``: a
    seat a robot took after it named by the player who held it then."""
    then = dict(names)
    for change in sorted(changes, key=lambda c: (c.seq, c.pk), reverse=True):
        if change.seq >= seq:
            then[change.seat] = display_name(change.left)
    return then


def as_played(
    game: Game, names: Mapping[int, str], tell: Callable[[dict[int, str]], list[Logged]]
) -> list[Logged]:
    """A game's log in words (``tell(names)``: the kind's, with those names),
    every line naming the players who held the seats when it was played (a
    player a robot took over from, under their own name now), and a line where
    each seat changed hands (:func:`games.core.seat_changes.change_words`)."""
    changes = list(game.seat_changes.select_related("left", "took_over"))
    if not changes:
        return tell(dict(names))
    told: dict[tuple[tuple[int, str], ...], list[Logged]] = {}
    entries: list[Logged] = []
    bounds = sorted({c.seq for c in changes})
    for low, high in zip([None, *bounds], [*bounds, None], strict=True):
        then = names_then(names, changes, (low or 0) + 1)
        key = tuple(sorted(then.items()))
        if key not in told:
            told[key] = tell(then)
        entries += [
            e for e in told[key] if (low is None or e.seq > low) and (high is None or e.seq <= high)
        ]
    for change in sorted(changes, key=lambda c: (c.seq, c.pk)):
        at = next((i for i, e in enumerate(entries) if e.seq > change.seq), len(entries))
        words = change_words(change)
        entries.insert(at, Logged(change.seq, words, words, words))
    return entries


def shown_state(game: Game) -> State:
    """:func:`games.core.projection.current_state`, naming the players as they are now."""
    return renamed_state(kind_of(game), current_state(game), names_now(game))


def shown_events(game: Game) -> list[KindEvent]:
    """:func:`games.core.projection.load_events`, naming the players as they are now."""
    return renamed_events(kind_of(game), load_events(game), names_now(game))


def refuse_look_alike_rename(sender: Any, user: User, name: str, **kwargs: Any) -> None:
    """accounts' ``renaming`` signal: refuse (``ValidationError``) a new name
    that could be taken for that of a co-player in a game waiting for
    players or in play, naming each such player and game, as a seat is
    refused (``games.core.lobby.join_game``)."""
    renamed = copy.copy(user)
    renamed.display_name = name
    mine = display_name(renamed)  # a bot's with its mark, as the others would see it
    live = Seat.objects.filter(user=user, game__status__in=LIVE).values("game_id")
    others = (
        Seat.objects.filter(game_id__in=live, user__isnull=False)
        .exclude(user=user)
        .select_related("user")
        .order_by("game_id", "index")
    )
    clashes = []
    for seat in others:
        theirs = display_name(seat.user) if seat.user is not None else ""
        if theirs and look_alike(mine, theirs):
            clashes.append(f"{theirs} in game {seat.game_id}")
    if clashes:
        raise ValidationError(
            f"“{name}” could be taken for the name of {', '.join(clashes)}, who "
            f"{'plays' if len(clashes) == 1 else 'play'} with you. Choose a name they can "
            "tell apart (an initial will do); your name is unchanged.",
            code="look_alike",
        )
