"""The game-over email names the recipient's biggest missed chances and links
the analysis page, in its text and its HTML."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.coach import analysis
from games.kinds.jumbulaya.log_words import move_in_words
from games.mail_out.emails import message_for
from games.models import Game, Notification
from games.models import GameAnalysis as Stored

pytestmark = pytest.mark.django_db


def game_over_email(game: Game, seat: int) -> tuple[str, str]:
    user = game.seats.get(index=seat).user
    row = Notification.objects.select_related("game", "user").get(
        game=game, user=user, kind=Notification.Kind.GAME_OVER
    )
    message = message_for(row)
    assert message is not None
    return message.body, str(message.alternatives[0][0])  # type: ignore[index]


@pytest.mark.parametrize("stored", [True, False])
def test_each_player_is_told_their_own_missed_chances(
    finished_game: Callable[..., Game], stored: bool
) -> None:
    game = finished_game()
    if stored:
        analysis.analyse_game(game.pk)
    else:
        Stored.objects.all().delete()
    result = analysis.analysis_of(game)
    for seat in (0, 1):
        text, html = game_over_email(game, seat)
        assert f"/games/{game.pk}/analysis/" in text and f"/games/{game.pk}/analysis/" in html
        mine = result.totals[seat].biggest
        assert "Your biggest missed chances" in text
        if mine:
            for m in mine:
                played, best = move_in_words(m.played), move_in_words(m.best)
                assert f"turn {m.turn + 1}: you played {played}, where {best} scored" in text
                assert f"({m.missed} more)" in html
        else:
            assert "none" in text
        other = result.totals[1 - seat].biggest
        for m in other:
            if all(m.turn != n.turn for n in mine):
                assert f"turn {m.turn + 1}: you played" not in text


def test_at_most_three_are_named(finished_game: Callable[..., Game]) -> None:
    game = finished_game()
    text, _ = game_over_email(game, 0)
    line = next(p for p in text.split("\n\n") if "Your biggest missed chances" in p)
    assert line.count("you played") <= 3
