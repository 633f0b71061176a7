"""Rating a game when it ends, with ``openskill``'s Plackett-Luce model (a
maintained implementation of the Weng-Lin Bayesian ratings, which rates two
to four players at once by their final places).

:func:`after_move` is a step of the one door's last step
(:func:`games.core.door.submit`): a move that ends a rated game rates it in
the same transaction.  :func:`rate_game` is idempotent: a game that has rating
changes already is never rated again (and the unique ``(game, seat)`` of
:class:`~ratings.models.RatingChange` holds that even against a race), so an
ending processed twice, or ``manage.py rate_games`` run over games already
rated, changes nothing.

The places come from the final state through the kind (scores and seats out,
the parts of a stored state the dashboard reads too): the highest score
first, equal scores share a place, and seats that resigned or were removed
share the last place.  A seat a robot took over is rated for the player who
left it (last), not for the robot.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from games.core.followers import Moved, Rebuilt
from games.core.projection import kind_of
from games.models import Game, Seat, SeatChange
from ratings.models import Rating, RatingChange

log = logging.getLogger(__name__)

#: The model every rating is computed with (its defaults: mu 25, sigma 25/3).
MODEL = PlackettLuce()


def final_ranks(scores: Sequence[int], out: frozenset[int]) -> list[int]:
    """Each seat's place, 1 the best: by score among the seats still in the
    game (equal scores share the better place), then every seat out of the
    game together after them."""
    playing = [i for i in range(len(scores)) if i not in out]
    last = len(playing) + 1
    return [
        last if seat in out else 1 + sum(1 for j in playing if scores[j] > score)
        for seat, score in enumerate(scores)
    ]


def ranked_players(game: Game) -> list[tuple[int, int, int]]:
    """``(seat, user id, rank)`` of a finished game, by seat: the player each
    seat is rated for (who sat there first) and their place."""
    kind = kind_of(game)
    assert game.state is not None  # a finished game has its final state
    scores = kind.scores_from_state(game.state, game.seat_count)
    out = set(kind.out_from_state(game.state))
    users = dict(Seat.objects.filter(game=game).values_list("index", "user_id"))
    for change in SeatChange.objects.filter(game=game).order_by("-seq", "-pk"):
        users[change.seat] = change.left_id  # the first to sit there, once all are undone
        out.add(change.seat)  # they left: resigned or removed
    ranks = final_ranks(scores, frozenset(out))
    return [(seat, users[seat], ranks[seat]) for seat in range(game.seat_count)]


def rate_game(game: Game) -> bool:
    """Rate a finished rated game, once: True when this call wrote its rating
    changes; False when the game is not a finished rated one, or was rated
    already."""
    if not game.rated or game.status != Game.Status.OVER:
        return False
    if RatingChange.objects.filter(game=game).exists():
        return False
    placed = ranked_players(game)
    if len({user for _, user, _ in placed}) != len(placed) or len(placed) < 2:
        return False  # nothing to compare (an account never holds two seats of a game)
    kind = game.kind
    try:
        with transaction.atomic():
            current = _locked_ratings([user for _, user, _ in placed], kind)
            teams = [
                [MODEL.rating(mu=current[user].mu, sigma=current[user].sigma)]
                for _, user, _ in placed
            ]
            rated = MODEL.rate(teams, ranks=[float(rank) for _, _, rank in placed])
            changes = []
            for (seat, user, rank), before, [after] in zip(placed, teams, rated, strict=True):
                row = current[user]
                changes.append(
                    RatingChange(
                        game=game,
                        seat=seat,
                        user_id=user,
                        kind=kind,
                        rank=rank,
                        mu_before=before[0].mu,
                        sigma_before=before[0].sigma,
                        mu_after=after.mu,
                        sigma_after=after.sigma,
                        ordinal_before=before[0].ordinal(),
                        ordinal_after=after.ordinal(),
                    )
                )
                row.mu, row.sigma, row.ordinal = after.mu, after.sigma, after.ordinal()
                row.games += 1
                row.save(update_fields=["mu", "sigma", "ordinal", "games", "updated_at"])
            RatingChange.objects.bulk_create(changes)
    except IntegrityError:
        return False  # rated at the same moment by another process
    log.info("game %s rated (%s players)", game.pk, len(placed))
    return True


def _locked_ratings(users: Sequence[int], kind: str) -> dict[int, Rating]:
    """The players' ratings at ``kind`` (a new one for a first game), locked
    in the order of their ids, so that two games ending at once for the same
    player update their rating one after the other."""
    start = MODEL.rating()
    for user in sorted(users):
        Rating.objects.get_or_create(
            user_id=user,
            kind=kind,
            defaults={"mu": start.mu, "sigma": start.sigma, "ordinal": start.ordinal()},
        )
    rows = (
        Rating.objects.select_for_update().filter(user_id__in=users, kind=kind).order_by("user_id")
    )
    return {row.user_id: row for row in rows}


def on_move(moved: Moved) -> None:
    """A follower of the one door's moves: a move that ended a rated game
    rates it, in the move's transaction."""
    _rate_if_over(moved.game)


def on_rebuilt(rebuilt: Rebuilt) -> None:
    """A follower of the rebuilds: a rated game its log says is over, though
    its projection did not, is rated in the rebuild's transaction."""
    _rate_if_over(rebuilt.game)


def _rate_if_over(game: Game) -> None:
    if game.rated and game.status == Game.Status.OVER:
        rate_game(game)


def unrated() -> list[int]:
    """The finished rated games with no rating changes (ended before ratings
    existed, or by a path that does not rate), oldest first."""
    return list(
        Game.objects.filter(status=Game.Status.OVER, rated=True, rating_changes__isnull=True)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
