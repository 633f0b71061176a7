"""Downloading a game's record and replaying a finished game step by step."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core import lexicons
from games.core.door import submit
from games.core.lobby import create_game
from games.core.projection import current_state, game_lexicon
from games.core.records import NOT_OVER_DOWNLOAD, NOT_OVER_REPLAY, NOT_STARTED
from games.engine.jumbulaya import PRESETS, legal_moves, replay_json
from games.models import Event, Game


def text(response: Any) -> str:
    """The page as a reader sees it (entities such as &#x27; decoded)."""
    return html.unescape(response.content.decode())


def play(game: Game, seat: int, move: str) -> None:
    submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()


def a_word_move(game: Game) -> str:
    state = current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, game_lexicon(game))
    return moves[0].notation() if moves else "pass"


def finish(game: Game) -> Game:
    """A word, a pass, then the player to move resigns: a 2-player game is over."""
    play(game, game.turn_seat, a_word_move(game))  # type: ignore[arg-type]
    play(game, game.turn_seat, "pass")  # type: ignore[arg-type]
    play(game, game.turn_seat, "resign")  # type: ignore[arg-type]
    assert game.status == Game.Status.OVER
    return game


def signed_in(client: Client, game: Game, seat: int = 0) -> Client:
    user = game.seats.get(index=seat).user
    assert user is not None
    client.force_login(user)
    return client


# --- download --------------------------------------------------------------------


def test_a_finished_game_downloads_as_a_record_that_replays_to_its_state(
    client: Client, started_game: Callable[..., Game]
) -> None:
    game = finish(started_game())
    response = signed_in(client, game).get(reverse("games:download", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == (
        f'attachment; filename="jumbulaya-game-{game.pk}.json"'
    )
    record = json.loads(response.content)
    assert record["format"] == "jumbulaya-record/1"
    assert record["lexicon"] == game.lexicon_name
    assert [t["move"] for t in record["turns"]][-2:] == ["pass", "resign"]
    result = replay_json(response.content, lexicons.load)
    assert result.exit_code == 0, result.error
    assert result.state == current_state(game)
    assert result.state is not None and result.state.end == "resigned"


def test_a_game_in_progress_is_not_downloadable(
    client: Client, started_game: Callable[..., Game]
) -> None:
    game = started_game()
    play(game, game.turn_seat, "pass")  # type: ignore[arg-type]
    response = signed_in(client, game).get(reverse("games:download", args=[game.pk]))
    assert response.status_code == 409
    page = text(response)
    assert NOT_OVER_DOWNLOAD.format(secrets="every rack and the bag") in page
    assert "Content-Disposition" not in response
    assert '"racks"' not in page and '"bag"' not in page and 'class="tile"' not in page


def test_a_game_waiting_for_players_has_no_record(
    client: Client, make_user: Callable[[str], User]
) -> None:
    ann = make_user("ann")
    game = create_game(ann, seat_count=2, rules=PRESETS["official"])
    client.force_login(ann)
    for name in ("games:download", "games:game_replay"):
        response = client.get(reverse(name, args=[game.pk]))
        assert response.status_code == 409
        assert NOT_STARTED in text(response)


def test_only_those_who_can_see_a_game_may_download_it(
    client: Client, started_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = finish(started_game())
    client.force_login(make_user("eve"))
    for name in ("games:download", "games:game_replay"):
        assert client.get(reverse(name, args=[game.pk])).status_code == 404
    assert client.get(reverse("games:download", args=[999999])).status_code == 404


def test_a_spectator_of_a_finished_public_game_may_download_it(
    client: Client, started_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = finish(started_game(is_public=True))
    client.force_login(make_user("eve"))
    response = client.get(reverse("games:download", args=[game.pk]))
    assert response.status_code == 200
    assert replay_json(response.content, lexicons.load).exit_code == 0


def test_signing_in_is_needed(client: Client, started_game: Callable[..., Game]) -> None:
    game = finish(started_game())
    for name in ("games:download", "games:game_replay"):
        response = client.get(reverse(name, args=[game.pk]))
        assert response.status_code == 302
        assert "sign" in response["Location"] or "login" in response["Location"]


# --- replay ----------------------------------------------------------------------


def tiles_html(tiles: tuple[str, ...]) -> str:
    return "".join(f'<span class="tile">{t}</span> ' for t in tiles)


def test_the_replay_steps_from_the_deal_to_the_end(
    client: Client, started_game: Callable[..., Game]
) -> None:
    game = started_game()
    dealt = current_state(game)
    finish(game)
    url = reverse("games:game_replay", args=[game.pk])
    signed_in(client, game, seat=1)

    first = client.get(url, {"step": "0"})
    assert first.status_code == 200
    page = text(first)
    assert "Step 0 of 3" in page and "The deal." in page
    for rack in dealt.racks:  # a finished game has no secrets: every rack is shown
        assert tiles_html(rack) in page
    assert re.search(r'<a href="\?step=1" rel="next"[^>]*>Next</a>', page)
    assert re.search(r'<a href="\?step=3"[^>]*>Last</a>', page)
    assert 'class="current" aria-current="step"' in page
    assert "The game is over:" in page and "fewer than two players remain" in page

    assert text(client.get(url)).count("Step 0 of 3") == 1  # no step: the deal

    last = text(client.get(url, {"step": "3"}))
    assert "Step 3 of 3" in last and "resigned." in last
    assert re.search(r'<a href="\?step=2" rel="prev"[^>]*>Previous</a>', last)
    assert "Next</a>" not in last
    final = current_state(game)
    for line in final.lines:
        assert "".join(f'<span class="tile">{t}</span>' for t in line.tiles) in last
    assert reverse("games:download", args=[game.pk]) in last

    middle = text(client.get(url, {"step": "1"}))
    assert "Step 1 of 3" in middle and " played " in middle


def test_the_replay_marks_the_line_each_step_changed(
    client: Client, started_game: Callable[..., Game]
) -> None:
    game = finish(started_game())
    built = Event.objects.get(game=game, seq=2)
    assert built.type == "word_built"
    number = built.payload["line"] + 1
    url = reverse("games:game_replay", args=[game.pk])
    signed_in(client, game)
    page = text(client.get(url, {"step": "1"}))
    changed = re.findall(
        r'<li class="[^"]*\bchanged\b[^"]*">\s*<span class="num">(\d)</span>', page
    )
    assert changed == [str(number)]
    assert page.count("changed by this move") == 1
    for step in ("0", "2", "3"):  # the deal, a pass, a resignation: no line changed
        assert "changed by this move" not in text(client.get(url, {"step": step})), step


@pytest.mark.parametrize(("raw", "shown"), [("-4", 0), ("99", 3), (" 2 ", 2), ("", 0)])
def test_an_out_of_range_step_is_brought_into_range(
    client: Client, started_game: Callable[..., Game], raw: str, shown: int
) -> None:
    game = finish(started_game())
    response = signed_in(client, game).get(
        reverse("games:game_replay", args=[game.pk]), {"step": raw}
    )
    assert response.status_code == 200
    assert f"Step {shown} of 3" in text(response)


@pytest.mark.parametrize("raw", ["abc", "1.5", "9" * 5000])
def test_a_step_that_is_not_a_number_is_refused_clearly(
    client: Client, started_game: Callable[..., Game], raw: str
) -> None:
    game = finish(started_game())
    response = signed_in(client, game).get(
        reverse("games:game_replay", args=[game.pk]), {"step": raw}
    )
    assert response.status_code == 400
    page = text(response)
    assert "is not a step number" in page and "from 0 (the deal) to 3" in page


def test_a_game_in_progress_cannot_be_replayed(
    client: Client, started_game: Callable[..., Game]
) -> None:
    game = started_game()
    response = signed_in(client, game).get(reverse("games:game_replay", args=[game.pk]))
    assert response.status_code == 409
    page = text(response)
    assert NOT_OVER_REPLAY.format(secrets="every rack and the bag") in page
    assert 'class="tile"' not in page
