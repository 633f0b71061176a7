"""The crossword game's analysis of moves that answer a play: a challenge that
takes a phony back costs the challenger nothing (their turn is still theirs,
and the play they then make is the turn analysed), and a pass that accepts the
end a last play makes is shown as ``accept``, no turn of play either."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client

from games.coach import analysis
from games.core import door
from games.kinds import get
from games.kinds.crossword.analysis import GameAnalysis
from games.models import Event, Game


def play(game: Game, seat: int, move: str) -> None:
    game.refresh_from_db()
    door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)


def page_of(game: Game, seat: int) -> str:
    user = game.seats.get(index=seat).user
    assert user is not None
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/analysis/").content.decode()


def test_a_right_challenge_leaves_nothing_on_the_table(xw_game: Callable[..., Game]) -> None:
    rules = get("crossword").options_from_json({"preset": "standard", "challenge": "async"})
    game = xw_game(["JESUSAT", "DOGCATE"], rules=rules)
    play(game, 0, "8H JUSES")  # no word: accepted, open to a challenge
    play(game, 1, "challenge")  # right: the play is taken back, Bob still to play
    play(game, 1, "8H DOG")
    play(game, 0, "resign")
    found = analysis.compute(game)
    assert isinstance(found, GameAnalysis)
    jukes, challenge, dog = found.turns[:3]
    assert (jukes.move, jukes.points) == ("8H JUSES (withdrawn)", 0)
    assert (challenge.seat, challenge.move) == (1, "challenge")
    assert not challenge.on_turn and challenge.missed == 0 and challenge.robot is None
    assert dog.on_turn and dog.best is not None and dog.robot is not None
    bob = next(t for t in found.totals if t.seat == 1)
    assert bob.left == dog.missed
    assert all(m.turn != challenge.turn for m in bob.biggest)


def test_accepting_the_end_is_shown_as_accept(xw_game: Callable[..., Game]) -> None:
    rules = get("crossword").options_from_json(
        {"preset": "translating", "levels": ["psalms_proverbs"], "challenge": "async"}
    )
    game = xw_game(["KINGDOM", "DOGCATE"], rules=rules)
    play(game, 0, "8E KINGDOM")  # 95: past the target of 70, so the end waits on Bob
    play(game, 1, "pass")  # his answer: the end accepted
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    analysis.analyse_game(game.pk)
    found = analysis.compute(game, robot=False)
    accepted = found.turns[-1]
    assert (accepted.seat, accepted.move, accepted.on_turn) == (1, "accept", False)
    assert "<td>accept</td>" in page_of(game, 1)
