"""Tumble-Words' robots in the service (a robot's sealed crossword beside a
person's; robot seats playing a game by turns to its end, with its analysis
and page), hints on the page, and ``manage.py robot --kind tumble`` on seat
views."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from io import StringIO

from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games.coach import analysis, hints
from games.core import door, lobby, projection
from games.engine import tumble as engine
from games.kinds.tumble.kind import TUMBLE
from games.mail_in.hint_answers import hints_text
from games.models import Event, Game, GameAnalysis
from games.robots import turns

from .conftest import ANN_CROSSWORD, ANN_POINTS, ROLL


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def play_out_robots(game: Game, rounds: int = 200) -> None:
    for _ in range(rounds):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            return
        assert turns.sweep() > 0, "a robot turn is owed while the game goes on"
    raise AssertionError("the robots did not finish the game")


def test_a_robot_hands_in_its_sealed_crossword_beside_a_person(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    game = lobby.create_game(
        ann, kind="tumble", seat_count=2, rules=TUMBLE.presets["standard"], robots=["casual"]
    )
    assert game.status == Game.Status.PLAYING
    assert turns.sweep() == 1  # the robot's crossword, sealed: the round waits for Ann
    game.refresh_from_db()
    state = projection.current_state(game)
    assert state.round == 1 and state.waiting() == (0,)
    assert state.submission_of(1) is not None
    page = signed_in(ann).get(f"/games/{game.pk}/").content.decode()
    assert "Robot Casual has handed in a crossword (sealed)." in page
    game.refresh_from_db()
    door.submit(game.pk, 0, ".", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    state = projection.current_state(game)
    assert state.round == 2 and state.history[0].points[0] == engine.NOTHING_SUBMITTED
    assert state.history[0].crosswords[1] is not None


def test_robot_seats_play_a_game_by_turns_to_its_end_and_it_is_analysed(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    rules = TUMBLE.with_options("standard", {"target": 15})
    game = lobby.create_game(
        ann, kind="tumble", seat_count=3, rules=rules, robots=["beginner", "casual"]
    )
    game.refresh_from_db()
    door.submit(game.pk, 0, "resign", game.last_seq, Event.Source.WEB)
    play_out_robots(game)
    game.refresh_from_db()
    state = projection.current_state(game)
    assert state.over and state.end == "target"
    assert max(state.totals[1:]) >= 15 and state.winners() in ([1], [2])
    assert all(len(h.seats) == 1 and h.seats[0] != 0 for h in state.history)
    assert analysis.analyse_game(game.pk)
    stored = GameAnalysis.objects.get(game=game)
    assert stored.format == "tumble-analysis/1"
    assert len(stored.data["rounds"]) == len(state.history)
    page = signed_in(ann).get(f"/games/{game.pk}/analysis/").content.decode()
    assert "Round by round" in page and page.count("<tr>") >= len(state.history)


def test_hints_offer_the_strong_robot_s_crossword_for_the_roll(
    tumble_game: Callable[..., Game],
) -> None:
    game = tumble_game(hints=True)
    ann = signed_in(game.seats.get(index=0).user)  # type: ignore[arg-type]
    page = ann.get(f"/games/{game.pk}/").content.decode()
    assert "being prepared" in page and "Show a hint" not in page  # not found in the request
    assert hints.prepare(game.pk, 0, game.last_seq)  # the task, off the request
    now = hints.hints_now(game, 0)  # what the page shows (a search in time may vary)
    assert now is not None and now.hints is not None
    (stored,) = now.hints
    page = html.unescape(ann.get(f"/games/{game.pk}/").content.decode())
    # Drawn as the page draws a crossword, never in the notation.
    shown = page[page.index('id="hints"') : page.index('id="preview"')]
    caption = f"<caption>The strong robot's crossword for your roll, scoring {stored.points}"
    assert "Show a hint" in shown and '<table class="tw-grid">' in shown and caption in shown
    assert "submit " not in shown and stored.notation.partition(" ")[2] not in shown
    # Using it puts its rows in the crossword field, as a player types them.
    rows = stored.notation.partition(" ")[2].replace("/", "\n")
    assert f'data-suggest="{rows}">Use this crossword</button>' in shown
    # Without a script, the button previews it in the whole page, ready to hand in.
    after = ann.post(f"/games/{game.pk}/preview/", {"suggested": rows}).content.decode()
    assert f"This crossword scores {stored.points} points." in after
    assert f">{rows}</textarea>" in html.unescape(after) and ">Hand in</button>" in after
    # The robot's crossword scores at least Ann's hand-made one on this roll.
    assert stored.points >= ANN_POINTS
    # A hint reply gives it as a reply would hand it in: one row a line.
    said = hints_text(game, 0)
    assert "submit" not in said and f"Scoring {stored.points}, one row a line" in said
    assert "\n".join(f"    {row}" for row in rows.splitlines()) in said


def test_robot_command_answers_tumble_seat_views() -> None:
    started = engine.GameStarted(engine.Options(), ("ann", "bob"), (), 0, (ROLL, ROLL))
    state = engine.start(started)
    words = {"words": ["CAPED", "CAT", "ACT"]}
    lines = [
        json.dumps(engine.seat_view(state, 1, lexicon=words)),  # its crossword
        json.dumps(engine.seat_view(state, None, lexicon=words)),  # a spectator's: refused
        "not json",
    ]
    out = StringIO()
    stdin = StringIO("\n".join(lines) + "\n")
    call_command("robot", "--kind", "tumble", "--seed", "1", stdin=stdin, stdout=out)
    answers = out.getvalue().splitlines()
    assert len(answers) == 3
    assert answers[0].startswith("submit ")
    submitted = engine.decide(state, 1, answers[0], frozenset(words["words"]))[0]
    assert isinstance(submitted, engine.Submitted) and submitted.points == ANN_POINTS
    assert "/".join(ANN_CROSSWORD).split("/")[0] in answers[0]
    assert answers[1].startswith("error: ") and answers[2].startswith("error: ")
