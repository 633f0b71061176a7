"""What follows a move: the followers registered at start-up, in the order
documented in :mod:`games.core.followers`, run inside the move's transaction,
and the core imports none of them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.coach import analysis, hints
from games.core import followers, windows
from games.core.door import submit
from games.core.followers import Moved, Rebuilt, SeatTaken
from games.core.projection import current_state, game_lexicon
from games.engine.jumbulaya import legal_moves
from games.mail_out import move_notices
from games.models import Event, Game, Notification, RobotTurn
from games.robots import owed
from games.timing import lateness
from ratings import rating
from tests.test_import_graph import import_graph

#: The modules whose functions follow the moves: the core imports none of them.
FOLLOWERS = {
    "games.mail_out.move_notices",
    "games.timing.lateness",
    "games.robots.owed",
    "games.coach.hints",
    "games.coach.analysis",
    "ratings.rating",
}


def test_the_followers_run_in_the_documented_order() -> None:
    assert followers.followers(Moved) == [
        move_notices.on_move,
        lateness.on_move,
        windows.on_move,
        owed.on_move,
        hints.on_move,
        analysis.on_move,
        rating.on_move,
    ]
    assert followers.followers(SeatTaken) == [windows.on_seat_taken, owed.on_seat_taken]
    assert followers.followers(Rebuilt) == [rating.on_rebuilt]


def test_the_core_imports_none_of_its_followers() -> None:
    graph = import_graph()
    core = {name for name in graph if name.startswith("games.core")}
    for name in core:
        assert not graph[name] & FOLLOWERS, f"{name} imports {graph[name] & FOLLOWERS}"
    # The door does not import the window it asks either: the window installs its gate.
    assert "games.core.windows" not in graph["games.core.door"]


def a_move(game: Game) -> str:
    state = current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, game_lexicon(game))
    return moves[0].notation() if moves else "pass"


def test_the_followers_run_inside_the_moves_transaction(
    started_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = started_game()
    seen: list[tuple[int, int]] = []

    def looks(moved: Moved) -> None:
        # The move is written, in the same transaction, when a follower runs.
        seen.append((moved.game.last_seq, Event.objects.filter(game=moved.game).count()))

    def breaks(moved: Moved) -> None:
        raise RuntimeError("a follower failed")

    registered = followers.followers(Moved)
    monkeypatch.setitem(followers._followers, Moved, [*registered, looks, breaks])
    emails = Notification.objects.filter(game=game).count()
    with pytest.raises(RuntimeError, match="a follower failed"):
        submit(game.pk, game.turn_seat, a_move(game), game.last_seq, Event.Source.WEB)
    assert seen == [(2, 2)]
    # The follower that raised rolled the move back, with what the others owed.
    game.refresh_from_db()
    assert game.last_seq == 1 and Event.objects.filter(game=game).count() == 1
    assert Notification.objects.filter(game=game).count() == emails
    assert not RobotTurn.objects.filter(game=game).exists()

    monkeypatch.setitem(followers._followers, Moved, registered)
    done = submit(game.pk, game.turn_seat, a_move(game), game.last_seq, Event.Source.WEB)
    assert done.game.last_seq == 2
    assert Notification.objects.filter(game=game, kind=Notification.Kind.YOUR_TURN).count() == 2
