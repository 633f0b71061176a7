"""The read side of a game's log: the game's kind (:func:`kind_of`, through
which the core knows its rules), event rows to that kind's events and back,
the state they fold to, the word list a game is played with, and the names
players see.

Everything that reads a game's state (presenters, emails, claim windows,
deadlines) uses these; the writes go through :mod:`games.core.door`, which
builds on them.  This module imports nothing that writes, so any module may
import it without tying itself to the one door.
"""

from __future__ import annotations

from accounts.models import User
from games import kinds
from games.core import lexicons
from games.kinds.base import GameKind, KindEvent, State, WordIndex
from games.models import Event, Game


class ServiceError(Exception):
    """A request the service refuses; nothing was changed.  ``message`` is for
    people."""

    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def display_name(user: User) -> str:
    """The name other players see: never the email address."""
    return user.public_name


def kind_of(game: Game) -> GameKind:
    """The game's kind (:mod:`games.kinds`), through which the core knows its rules."""
    return kinds.get(game.kind)


def event_row(game: Game, event: KindEvent, seq: int, source: str, key: str | None) -> Event:
    """An ``Event`` row: the public fields in ``payload``, the private ones
    (a seat's draws, the deal) in ``private``."""
    kind = kind_of(game)
    data = kind.event_to_dict(event)
    private = {name: data.pop(name) for name in kind.private_fields(event)}
    seat = kind.event_seat(event)
    return Event(
        game=game,
        seq=seq,
        type=kind.event_type(event),
        seat=seat,
        source=source,
        payload=data,
        private=private or None,
        private_seat=None if kind.is_deal(event) else seat,
        idempotency_key=key,
    )


def engine_event(row: Event) -> KindEvent:
    """The event a row holds (``row.game`` is the game the rows were loaded through)."""
    return kind_of(row.game).event_from_dict({**row.payload, **(row.private or {})})


def load_events(game: Game) -> list[KindEvent]:
    return [engine_event(row) for row in game.events.order_by("seq")]


def replay_game(game: Game) -> State:
    """The state the log folds to (the truth the cache must equal)."""
    return kind_of(game).replay(load_events(game))


def current_state(game: Game) -> State:
    """The game's state: from the cache when it is there, else the log."""
    if game.state is not None:
        return kind_of(game).state_from_json(game.state)
    return replay_game(game)


def turn_still_open(game: Game, seq: int) -> bool:
    """Whether a move chosen at move ``seq`` of ``game`` still answers the
    turn open now: always at the game's last move; after it, only in a kind
    whose seats move at once (:attr:`~games.kinds.base.Progress.movers`)
    while the same round is open.  There the moves made since are the
    round's sealed ones, which change nothing another seat may see, so one
    player's submission does not turn away the other's sent from the same
    position (nor a player's own replacement of it)."""
    if seq == game.last_seq:
        return True
    if not 0 < seq < game.last_seq or game.status != Game.Status.PLAYING:
        return False
    kind = kind_of(game)
    now = kind.progress(current_state(game))
    if now.over or now.movers is None:
        return False
    rows = game.events.filter(seq__lte=seq).order_by("seq")
    then = kind.progress(kind.replay([engine_event(row) for row in rows]))
    return then.movers is not None and not then.over and then.round == now.round


def game_lexicon(game: Game) -> WordIndex:
    """The game's kind's index of the word list the game is played with
    (refusing a list that changed)."""
    lexicon = lexicons.index(kind_of(game), game.lexicon_name)
    if lexicon.sha256 != game.lexicon_sha256:
        raise ServiceError(
            f"The word list {game.lexicon_name!r} has changed since this game began, so its "
            "moves cannot be checked. An operator must reinstall the list it was played with."
        )
    return lexicon
