"""Blockers' robots in the service (robot seats playing a game to its end,
their accounts, hints, the analysis and its page) and the ``manage.py``
commands on Blockers (``replay`` over the conformance cases, ``rebuild_games``,
``robot --kind blockers match``, ``analyse``; ``robot`` answering seat views is
every kind's: tests/contract/)."""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games.coach import analysis
from games.coach import hints as hints_of
from games.core import door, lobby, projection
from games.engine import blockers as engine
from games.kinds import presentation
from games.kinds.blockers.kind import BLOCKERS
from games.models import Event, Game, GameAnalysis
from games.robots import owed, turns

from .conftest import pile

CASES = sorted((Path(__file__).parents[2] / "conformance" / "blockers").glob("*.json"))


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def play_out_robots(game: Game) -> None:
    """Play every robot turn owed until the game ends (a sweep plays those due)."""
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            return
        assert turns.sweep() > 0, "a robot turn is owed while the game goes on"
    raise AssertionError("the robots did not finish the game")


def test_every_blockers_level_has_its_robot_account(db: None) -> None:
    assert list(BLOCKERS.robots.levels) == ["beginner", "greedy", "strong"]  # type: ignore[union-attr]
    assert BLOCKERS.robots.strongest == "strong"  # type: ignore[union-attr]
    for level in BLOCKERS.robots.levels:  # type: ignore[union-attr]
        account = owed.robot(level)
        assert account is not None and account.is_robot and not account.is_active
        assert account.email == f"robot-{level}@robots.invalid"


def test_robot_seats_play_a_game_to_its_end(make_user: Callable[[str], User]) -> None:
    ann = make_user("ann")
    game = lobby.create_game(
        ann, kind="blockers", seat_count=3, rules=BLOCKERS.presets["standard"],
        robots=["casual", "expert"],
    )  # fmt: skip
    assert game.status == Game.Status.PLAYING
    # Ann leaves at once (a resignation may be made out of turn): the robots play on.
    door.submit(game.pk, 0, "resign", game.last_seq, Event.Source.WEB)
    play_out_robots(game)
    state = projection.current_state(game)
    assert state.end == "complete" and state.turns_taken == (0, 24, 24)
    assert sum(1 for o in state.owners if o >= 0) + sum(map(sum, state.captures)) == 48
    assert set(state.winners()) <= {1, 2}
    dashboard = signed_in(ann).get("/dashboard/").content.decode()
    names = {1: "Robot Casual", 2: "Robot Expert"}
    won = " and ".join(names[s] for s in state.winners())
    assert f"{won} won" in dashboard or "Tie:" in dashboard

    # The analysis: every robot turn against the strong robot's choice, and its page.
    assert analysis.analyse_game(game.pk)
    stored = GameAnalysis.objects.get(game=game)
    assert stored.format == "blockers-analysis/1"
    assert len(stored.data["turns"]) == 48 and stored.data["robot_level"] == "strong"
    turn = stored.data["turns"][0]
    assert set(turn) >= {"seat", "played", "score", "robot", "robot_score"}
    page = signed_in(ann).get(f"/games/{game.pk}/analysis/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "against the strong robot's choice" in html
    assert "Turns played as the robot would" in html and html.count("<tr>") >= 48


def test_the_analysis_compares_each_move_with_the_robot_s_choice() -> None:
    """Hand-worked: Ann's 1 at A1 leaves her 1 point; with the 2 next to it
    (A2) a second tile would join the group, so every move leaves 1 or 2."""
    started = engine.GameStarted(
        options=engine.Options(),
        players=("ann", "bob", "cy"),
        first=0,
        racks=(("1", "2", "3", "4", "5"), ("A", "B", "C", "D", "E"), ("6", "7", "8", "9", "F")),
        piles=(pile("1", "2", "3", "4", "5")[5:], pile("A", "B", "C", "D", "E")[5:],
               pile("6", "7", "8", "9", "F")[5:]),
    )  # fmt: skip
    state = engine.start(started)
    events: list[engine.Event] = [started]
    for seat, move in ((0, "1 at A1"), (1, "A at A1"), (2, "6 at I6")):
        for event in engine.decide(state, seat, move):
            events.append(event)
            state = engine.evolve(state, event)
    robots = BLOCKERS.robots
    assert robots is not None
    result = robots.analyse(events, None, "greedy", 20.0, 1)
    first, second, third = result.turns
    assert (first.played, first.score) == ("1 at A1", 1)
    # Bob's capture left him 1 group + 1 yellow taken = 2; the greedy robot
    # places on an empty square instead (1 point), so Bob gave 1 away.
    assert (second.played, second.score, second.robot_score, second.difference) == (
        "A at A1", 2, 1, 1,
    )  # fmt: skip
    assert second.best_score == 1 and third.score == 1
    assert result.given_away(1) == 1 and result.given_away(0) == 0
    back = robots.analysis_from_json(json.loads(json.dumps(result.to_json())))
    assert back == result
    said = presentation.of(BLOCKERS).missed_chances(result, 1)
    assert said == [
        "Your biggest missed chances, by the score each move left at once: at move #3 "
        f"you played A at A1 (leaving you 2) where the greedy robot chose {second.robot} "
        "(leaving 1)."
    ]


def test_hints_on_the_page_are_the_moves_leaving_the_lowest_score(after_ann_s_1: Game) -> None:
    game = after_ann_s_1
    user = game.seats.get(index=1).user
    assert user is not None
    assert hints_of.prepare(game.pk, 1, game.last_seq)  # the task, off the request
    html = signed_in(user).get(f"/games/{game.pk}/").content.decode()
    assert "The moves that leave your score lowest right now" in html
    # Every placement on an empty square leaves Bob 1 point; capturing Ann's 1 leaves 2.
    assert html.count("leaves you 1 point</li>") == 5 and "(a capture)" not in html
    robots = BLOCKERS.robots
    assert robots is not None
    hints = robots.hints(projection.load_events(game), projection.current_state(game), 1, None, 100)
    assert [h.points for h in hints] == sorted(h.points for h in hints)
    assert {h.notation for h in hints if h.captures} == {"A at A1"}


# --- commands -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_manage_py_replay_runs_each_conformance_case(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = json.loads(path.read_text())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(case["record"]))
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(record))
    out = json.loads(capsys.readouterr().out)
    assert exited.value.code == case["expect"]["exit"]
    for key, want in case["expect"].items():
        if key == "exit":
            continue
        got = out[key]
        if key == "racks" and want is not None:
            got, want = [sorted(r) for r in got], [sorted(r) for r in want]
        if key == "error" and want is not None:
            got = {k: got[k] for k in want}
        assert got == want, f"{key}: {case['about']}"


def test_rebuild_games_replays_a_game_of_blockers(blockers_game: Callable[..., Game]) -> None:
    game = blockers_game()
    seat = game.turn_seat
    assert seat is not None
    move = BLOCKERS.legal_moves(projection.current_state(game), seat, None)[0]
    door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
    Game.objects.filter(pk=game.pk).update(state=None, last_seq=0)
    out = StringIO()
    call_command("rebuild_games", stdout=out)
    assert f"game {game.pk}: the cached projection differed" in out.getvalue()
    game.refresh_from_db()
    assert game.last_seq == 2 and game.state is not None and game.turn_seat == (seat + 1) % 3
    check = StringIO()
    call_command("rebuild_games", "--check", stdout=check)
    assert "found 0 that differed" in check.getvalue()


def test_analyse_command_analyses_a_finished_game(blockers_game: Callable[..., Game]) -> None:
    game = blockers_game()
    for seat in (1, 2):
        game.refresh_from_db()
        door.submit(game.pk, seat, "resign", game.last_seq, Event.Source.WEB)
    out = StringIO()
    call_command("analyse", "--game", str(game.pk), stdout=out, stderr=StringIO())
    stored = GameAnalysis.objects.get(game=game)
    assert stored.format == "blockers-analysis/1" and stored.data["turns"] == []


def test_robot_match_prints_win_rates_with_intervals(capsys: Any) -> None:
    out = StringIO()
    call_command(
        "robot", "--kind", "blockers", "match", "--levels", "greedy,beginner", "--games", "3",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    table = out.getvalue()
    assert table.splitlines()[0].split()[:3] == ["level", "games", "won"]
    assert "greedy" in table and "beginner" in table and "%-" in table


def test_a_match_counts_the_first_level_s_sole_and_shared_wins_game_by_game() -> None:
    from games.kinds.blockers.robots import BLOCKERS_ROBOTS

    summary = BLOCKERS_ROBOTS.match("greedy", "beginner", 3, 4, None)
    told = []
    for game, seat in zip(summary.games, summary.a_seat, strict=True):
        winners = game.state.winners()
        told.append("won" if winners == [seat] else "shared" if seat in winners else "lost")
    assert summary.played == len(told) == 3
    assert (summary.wins, summary.draws, summary.losses) == (
        told.count("won"),
        told.count("shared"),
        told.count("lost"),
    )
    assert summary.capped == 0
