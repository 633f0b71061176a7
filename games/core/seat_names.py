"""Players' names as they are now, for what pages and emails show of a game.

A game's log keeps the names its players had when it began (the deal event,
and so every state folded from it): the log is append-only, and a record of
the game replays the same.  A player who renames themself must still be shown
under the new name in every game, so whatever is shown to people is built from
a state or a log whose names are swapped here for the seats' current display
names.  The engine's truth (the log, the cached state, the replay check) keeps
the names of the deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.projection import current_state, display_name, kind_of, load_events
from games.kinds.base import GameKind, KindEvent, State
from games.models import Game, Seat


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


def shown_state(game: Game) -> State:
    """:func:`games.core.projection.current_state`, naming the players as they are now."""
    return renamed_state(kind_of(game), current_state(game), names_now(game))


def shown_events(game: Game) -> list[KindEvent]:
    """:func:`games.core.projection.load_events`, naming the players as they are now."""
    return renamed_events(kind_of(game), load_events(game), names_now(game))
