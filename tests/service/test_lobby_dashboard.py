"""The lobby: the dashboard, the next-game link and the demo command."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import zoneinfo
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.core.door import submit
from games.core.lobby import create_game, join_game
from games.core.projection import current_state
from games.engine.jumbulaya import PRESETS, GameState, state_to_json
from games.engine.jumbulaya.state import JumbulayaMade
from games.models import Game

DASHBOARD = reverse("games:dashboard")


@pytest.fixture
def players(make_user: Callable[..., User]) -> dict[str, User]:
    return {name: make_user(name) for name in ("ann", "bob", "cy")}


def play(creator: User, *others: User, **options: Any) -> Game:
    """A started game: ``creator`` in seat 0, ``others`` after."""
    game = create_game(
        creator,
        seat_count=1 + len(others),
        rules=PRESETS["official"],
        invite_emails=[u.email for u in others],
        **options,
    )
    for user in others:
        join_game(game.pk, user)
    game.refresh_from_db()
    return game


def set_turn(game: Game, seat: int, hours: float) -> None:
    """Test set-up only: put the projection's turn and deadline where wanted."""
    Game.objects.filter(pk=game.pk).update(
        turn_seat=seat, deadline_at=timezone.now() + timedelta(hours=hours)
    )


def finish(game: Game, seat: int) -> None:
    submit(game.pk, seat, "resign", game.last_seq, "web")


def section(html: str, heading: str) -> str:
    """The part of the page under ``<h2>heading</h2>`` up to the next heading."""
    start = html.index(f"<h2>{heading}</h2>")
    end = html.find("<h2>", start + 1)
    return html[start : end if end != -1 else len(html)]


def test_dashboard_needs_sign_in(client: Client, db: None) -> None:
    assert client.get(DASHBOARD).status_code == 302


def test_dashboard_groups_and_orders(client: Client, players: dict[str, User]) -> None:
    ann, bob, cy = players["ann"], players["bob"], players["cy"]
    later = play(ann, bob)
    soon = play(ann, cy)
    theirs = play(bob, ann)
    set_turn(later, 0, 40)
    set_turn(soon, 0, 2)
    set_turn(theirs, 0, 10)  # seat 0 is Bob's there
    waiting_open = create_game(ann, seat_count=3, rules=PRESETS["official"], is_open=True)
    done = play(ann, cy)
    finish(done, 1)  # Cy resigns: Ann wins
    client.force_login(ann)
    response = client.get(DASHBOARD)
    assert response.status_code == 200
    html = response.content.decode()

    mine = section(html, "Your turn")
    assert mine.index(f"/games/{soon.pk}/") < mine.index(f"/games/{later.pk}/")
    assert f"/games/{theirs.pk}/" not in mine
    waiting = section(html, "Waiting")
    assert f"/games/{theirs.pk}/" in waiting and "Bob\u2019s turn" in waiting
    assert f"/games/{waiting_open.pk}/" in waiting and "Waiting for 2 more players" in waiting
    finished = section(html, "Finished")
    assert f"/games/{done.pk}/" in finished and "You won" in finished
    assert html.index("<h2>Your turn</h2>") < html.index("<h2>Waiting</h2>")
    assert html.index("<h2>Waiting</h2>") < html.index("<h2>Finished</h2>")
    assert "Against Bob" in mine and "Against Cy" in mine
    assert "@example.com" not in html


def test_dashboard_shows_scores_without_racks(client: Client, players: dict[str, User]) -> None:
    ann, bob = players["ann"], players["bob"]
    game = play(ann, bob)
    state = current_state(game)
    client.force_login(ann)
    html = client.get(DASHBOARD).content.decode()
    assert "You: 0" in html and "Bob: 0" in html
    assert all(not re.search(rf"\b{''.join(rack)}\b", html) for rack in state.racks if rack)
    assert "racks" not in html and "bag" not in html


def test_deadlines_in_the_users_time_zone(client: Client, players: dict[str, User]) -> None:
    ann, bob = players["ann"], players["bob"]
    game = play(ann, bob)
    deadline = timezone.now().replace(microsecond=0) + timedelta(days=2)
    Game.objects.filter(pk=game.pk).update(turn_seat=0, deadline_at=deadline)
    ann.time_zone = "Asia/Tokyo"
    ann.save()
    client.force_login(ann)
    html = client.get(DASHBOARD).content.decode()
    tokyo = deadline.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo"))
    assert tokyo.strftime("%H:%M") in html
    assert "Asia/Tokyo" in html


def test_dashboard_queries_do_not_grow_with_games(
    client: Client,
    players: dict[str, User],
    django_assert_max_num_queries: Any,
    settings: Any,
) -> None:
    # 54 games made by Ann at once: far beyond a day's allowance, which is not tested here.
    settings.JUMBULAYA_GAMES_PER_DAY = settings.JUMBULAYA_INVITATIONS_PER_DAY = 0
    ann, bob, cy = players["ann"], players["bob"], players["cy"]
    for i in range(50):  # two- and three-player games, Ann's turn or not
        play(ann, bob, cy) if i % 5 == 0 else play(ann, bob if i % 2 else cy)
    for _ in range(3):
        finish(play(ann, bob), 1)
    create_game(ann, seat_count=2, rules=PRESETS["official"], is_open=True)
    client.force_login(ann)
    client.get(DASHBOARD)  # a session's first request of the day renews it (one write)
    # The signed-in user, the games in play and waiting, the finished ones, the ones
    # left to a robot, the seats' names (one query for every game's), the invitations,
    # the robots of the one-click buttons and the mail banner's status: eight, however
    # many games.
    with django_assert_max_num_queries(8):
        response = client.get(DASHBOARD)
    assert response.status_code == 200
    assert len(re.findall(r'href="/games/\d+/"', response.content.decode())) == 50 + 3 + 1


def cache_state(game: Game, state: GameState) -> None:
    """Test set-up only: put ``state`` in the game's cached state."""
    Game.objects.filter(pk=game.pk).update(state=state_to_json(state))


def test_dashboard_scores_match_the_cached_state(client: Client, players: dict[str, User]) -> None:
    """Scores come from the cached state's lines and JUMBULAYA alone: the same
    figures as ``GameState.scores()``, two-letter tiles and all."""
    ann, bob, cy = players["ann"], players["bob"], players["cy"]
    game = play(ann, bob, cy)
    state = current_state(game)
    lines = list(state.lines)
    lines[0] = replace(lines[0], tiles=("QU", "A", "I", "N", "T"), owner=0)  # 5 + 1
    lines[1] = replace(lines[1], tiles=tuple("ABCDEFG"), owner=1)  # 10
    lines[2] = replace(lines[2], tiles=("TH", "E", "N"), owner=1)  # 3 + 1
    lines[3] = replace(lines[3], tiles=tuple("ABC"), owner=None)
    made = JumbulayaMade(seat=2, tiles=tuple("ABCDEFGH"), lines=(1,) * 8, points=12)
    state = replace(state, lines=tuple(lines), jumbulaya=made, resigned=frozenset({2}))
    cache_state(game, state)
    assert state.scores() == [6, 14, 12]
    client.force_login(bob)
    html = client.get(DASHBOARD).content.decode()
    assert '<li class="you">You: 14</li>' in html
    assert '<li class="">Ann: 6</li>' in html
    assert '<li class=" resigned">Cy: 12</li>' in html


def test_finished_games_show_the_result(client: Client, players: dict[str, User]) -> None:
    ann, bob, cy = players["ann"], players["bob"], players["cy"]
    tie, lost = play(ann, bob, cy), play(bob, ann)
    finish(tie, 2)  # Cy resigns, then whoever is to move
    tie.refresh_from_db()
    finish(tie, current_state(tie).turn or 0)
    finish(lost, 1)  # Ann resigns: Bob wins
    state = current_state(Game.objects.get(pk=tie.pk))
    lines = [replace(ln, tiles=tuple("ABCD"), owner=i) for i, ln in enumerate(state.lines[:3])]
    cache_state(tie, replace(state, lines=(*lines, *state.lines[3:]), resigned=frozenset({2})))
    client.force_login(ann)
    finished = section(client.get(DASHBOARD).content.decode(), "Finished")
    assert "Tie: you, Bob, " in finished
    assert "Bob won, " in finished
    assert finished.index(f"/games/{lost.pk}/") < finished.index(f"/games/{tie.pk}/")


def test_next_game_goes_to_the_most_urgent(client: Client, players: dict[str, User]) -> None:
    ann, bob, cy = players["ann"], players["bob"], players["cy"]
    later, soon, theirs = play(ann, bob), play(ann, cy), play(bob, ann)
    set_turn(later, 0, 30)
    set_turn(soon, 0, 3)
    set_turn(theirs, 1, 1)  # Ann is seat 1 there, and its deadline is soonest
    client.force_login(ann)
    response = client.get(reverse("games:next_game"))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[theirs.pk])
    set_turn(theirs, 0, 1)
    response = client.get(reverse("games:next_game"))
    assert response["Location"] == reverse("games:game", args=[soon.pk])


def test_next_game_when_none_waits(client: Client, players: dict[str, User]) -> None:
    ann, bob = players["ann"], players["bob"]
    game = play(ann, bob)
    set_turn(game, 1, 5)
    client.force_login(ann)
    response = client.get(reverse("games:next_game"), follow=True)
    assert response.redirect_chain[-1][0] == DASHBOARD
    assert "No game is waiting for you" in response.content.decode()


# --- the demo command ---------------------------------------------------------


#: The repository, where the printed commands are run.
REPO = Path(__file__).resolve().parents[2]


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_is_idempotent_and_prints_links(db: None, client: Client) -> None:
    first = run_demo()
    second = run_demo()
    assert User.objects.filter(email__in=["ann@example.com", "bob@example.com"]).count() == 2
    robot_games = Game.objects.filter(seats__user__robot_level__gt="")
    assert robot_games.count() == 1  # Ann against a robot, made once
    assert "Ann against a robot: http" in first and "Ann against a robot: http" in second
    assert Game.objects.exclude(pk__in=robot_games).count() == 1
    game = Game.objects.exclude(pk__in=robot_games).get()
    assert game.status == Game.Status.PLAYING
    assert {s.user.public_name for s in game.seats.all()} == {"Ann", "Bob"}  # type: ignore[union-attr]
    for out in (first, second):
        links = re.findall(r"(?:Ann|Bob): (http\S+/account/sign-in/\S+/)", out)
        assert len(links) == 2
    assert "Created demo game" in first and "Found demo game" in second
    # A finished demo game is replaced by a fresh one.
    finish(game, 0)
    run_demo()
    assert Game.objects.exclude(status=Game.Status.OVER).exclude(pk__in=robot_games).count() == 1


@pytest.mark.slow
def test_the_command_demo_prints_runs_as_printed(db: None, tmp_path: Path) -> None:
    """The hint runs as printed, in the repository, with no environment of its
    own (only the state directory is a fresh one, as on a fresh clone)."""
    out = run_demo()
    (command,) = re.findall(r"run `([^`]+)` again", out)
    env = {"PATH": os.environ["PATH"], "JUMBULAYA_VAR_DIR": str(tmp_path / "var")}
    done = subprocess.run(
        shlex.split(command), cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(re.findall(r"(?:Ann|Bob): http\S+/account/sign-in/\S+/", done.stdout)) == 2
    assert f"run `{command}` again" in done.stdout
