"""A game's projection rewritten from its log (``manage.py rebuild_games``)."""

from __future__ import annotations

from django.db import transaction

from games import models
from games.core.door import turn_deadline
from games.core.followers import Rebuilt, publish
from games.core.projection import engine_event, kind_of
from games.kinds.base import GameKind
from games.live import doorbell
from games.models import Game
from games.timing import deadlines


def rebuild_projection(game: Game, *, write: bool = True) -> bool:
    """Replay the game's log and rewrite its projection from it.  Returns whether
    the stored projection differed from the replay.

    A rated game the rewrite finds over is rated then (once: the ratings follow
    the :class:`~games.core.followers.Rebuilt` published), as every other
    ending is rated in the transaction that writes it.

    The times come from the log too: the game started with its first event and
    finished with its last.  A game in play keeps its stored deadline when the
    turn is the one the log says, and for a kind whose seats move at once the
    round too (vacations may have moved it since); otherwise the deadline is
    counted again from the last event."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        rows = list(game.events.order_by("seq"))
        if not rows:
            return False  # waiting for players: nothing to replay yet
        kind = kind_of(game)
        state = kind.replay([engine_event(row) for row in rows])
        at = kind.progress(state)
        want: dict[str, object] = {
            "state": kind.state_to_json(state),
            "last_seq": at.seq,
            "turn_seat": at.turn,
            "other_movers": models.movers_mask(at.to_move, at.turn),
            "status": Game.Status.OVER if at.over else Game.Status.PLAYING,
            "end_reason": at.end or "",
            "started_at": game.started_at or rows[0].created_at,
        }
        if at.over:
            want |= {
                "deadline_at": None,
                "warn_at": None,
                "window_closes_at": None,
                "finished_at": game.finished_at or rows[-1].created_at,
            }
        else:
            want["finished_at"] = None
            if (
                game.deadline_at is None
                or game.turn_seat != at.turn
                or (at.movers is not None and _stored_round(kind, game) != at.round)
            ):
                assert at.to_move  # a game in play has a seat to move
                due = turn_deadline(game, at.to_move, rows[-1].created_at)
                want |= deadlines.deadline_fields(game, due)
        differs = any(getattr(game, name) != value for name, value in want.items())
        if differs and write:
            Game.objects.filter(pk=game.pk).update(**want)
            doorbell.ring(game.pk, at.seq)
            for name, value in want.items():
                setattr(game, name, value)
            # A game the log says is over, though its projection did not, is rated
            # now, in the same transaction, as the move that ended it would have
            # been (the ratings follow :class:`Rebuilt`).
            publish(Rebuilt(game))
    return differs


def _stored_round(kind: GameKind, game: Game) -> int | None:
    """The round of the game's stored state (``None``: none can be read)."""
    if game.state is None:
        return None
    try:
        return kind.progress(kind.state_from_json(game.state)).round
    except Exception:  # a damaged projection is what a rebuild is for
        return None
