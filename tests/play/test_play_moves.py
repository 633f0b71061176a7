"""Sending moves from the game page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.core.projection import current_state, game_lexicon
from games.engine.jumbulaya import legal_moves
from games.models import Event, Game

BATCH_LINES = [
    ["B", "A", "T"],
    *[["O", "N", "E"]] * 2,
    *[["R", "I", "P"]] * 2,
    *[["S", "U", "N"]] * 2,
    ["M", "A", "D"],
    ["L", "O", "G"],
]


def move_url(game: Game) -> str:
    return f"/games/{game.pk}/move/"


def a_word_move(game: Game) -> str:
    state = current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, game_lexicon(game))
    assert moves, "the deal leaves the player to move no word"
    return moves[0].notation()


def form(game: Game, notation: str, key: str = "a-key-of-sixteen-or-more") -> dict[str, str]:
    """A move form as the page sends it, a pass already confirmed (the question a
    pass asks first is tested in test_play_confirm.py)."""
    return {
        "notation": notation,
        "expected_seq": str(game.last_seq),
        "idempotency_key": key,
        "confirmed": "yes",
    }


def test_a_word_move_redirects_and_the_log_says_played(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    client = seat_client(game, seat)
    response = client.post(move_url(game), form(game, a_word_move(game)))
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.last_seq == 2
    event = Event.objects.get(game=game, seq=2)
    assert event.type == "word_built" and event.source == "web"
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert " played " in html and "Your move was made." in html


def test_a_refused_move_shows_the_engine_message_and_changes_nothing(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    before = Event.objects.filter(game=game).count()
    response = seat_client(game, seat).post(move_url(game), form(game, "1 QZXQZX"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "there is no Q tile, only QU" in html
    assert 'value="1 QZXQZX"' in html  # what was typed is kept
    assert Event.objects.filter(game=game).count() == before
    # off turn: the engine says whose turn it is
    other = seat_client(game, 1 - seat)
    response = other.post(move_url(game), form(game, "pass"))
    assert response.status_code == 422
    assert "turn, not yours" in response.content.decode()
    assert Event.objects.filter(game=game).count() == before


def test_an_ambiguous_word_lists_the_accepted_forms(
    rigged_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = rigged_game(
        lines=BATCH_LINES, racks=[["C", "H", "CH", "E", "E"], ["I", "I", "K", "W", "Y"]]
    )
    response = seat_client(game, 0).post(move_url(game), form(game, "1 batch"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "can be built with different tiles" in html
    assert 'data-suggest="1 B-A-T-C-H"' in html and 'data-suggest="1 BAT[CH]"' in html
    assert Event.objects.filter(game=game).count() == 1
    # the explicit form is accepted
    response = seat_client(game, 0).post(move_url(game), form(game, "1 BAT[CH]"))
    assert response.status_code == 302
    assert Event.objects.get(game=game, seq=2).payload["tiles"] == ["B", "A", "T", "CH"]


def test_a_stale_move_says_the_game_moved_on(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    client = seat_client(game, seat)
    stale = form(game, "pass", key="first-key-0123456789")
    assert client.post(move_url(game), stale).status_code == 302
    # the other player moves; the first player's old page is now stale
    game.refresh_from_db()
    seat_client(game, 1 - seat).post(move_url(game), form(game, "pass", key="other-key-0123456789"))
    game.refresh_from_db()
    assert game.last_seq == 3
    old_page = {**form(game, "pass", key="third-key-0123456789"), "expected_seq": "2"}
    response = client.post(move_url(game), old_page)
    assert response.status_code == 409
    html = response.content.decode()
    assert "The game moved on" in html
    assert 'name="expected_seq" value="3"' in html  # the fresh board, ready to resend
    assert Event.objects.filter(game=game).count() == 3


def test_a_repeated_submission_is_treated_as_success(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    client = seat_client(game, seat)
    data = form(game, "pass", key="double-click-0123456789")
    assert client.post(move_url(game), data).status_code == 302
    response = client.post(move_url(game), data)
    assert response.status_code == 302
    assert Event.objects.filter(game=game).count() == 2
    assert "it was made once" in client.get(f"/games/{game.pk}/").content.decode()


def test_malformed_forms_are_a_400_with_a_sentence(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    client = seat_client(game, game.turn_seat or 0)
    good = form(game, "pass")
    cases: list[tuple[dict[str, Any], str]] = [
        ({k: v for k, v in good.items() if k != "notation"}, "sent no move"),
        ({k: v for k, v in good.items() if k != "expected_seq"}, "which move of the game"),
        (good | {"expected_seq": "two"}, "is not a number"),
        (good | {"expected_seq": "-1"}, "is not a number"),
        ({k: v for k, v in good.items() if k != "idempotency_key"}, "one-time key"),
        (good | {"idempotency_key": "short"}, "one-time key"),
        (good | {"notation": "x" * 500}, "longer than"),
    ]
    for data, words in cases:
        response = client.post(move_url(game), data)
        assert response.status_code == 400, data
        assert words in response.content.decode()
    assert client.get(move_url(game)).status_code == 405
    assert Event.objects.filter(game=game).count() == 1


def test_timeout_cannot_be_sent_from_the_page(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    response = seat_client(game, game.turn_seat or 0).post(move_url(game), form(game, "timeout"))
    assert response.status_code == 422
    assert "written by the service" in response.content.decode()
    assert Event.objects.filter(game=game).count() == 1


def test_a_spectator_cannot_move(
    started_game: Callable[..., Game],
    make_user: Callable[..., User],
    client_for: Callable[[User], Client],
) -> None:
    game = started_game(is_public=True)
    eve = client_for(make_user("eve"))
    response = eve.post(move_url(game), form(game, "jumbulaya SPRINTED"))
    assert response.status_code == 403
    assert eve.post(f"/games/{game.pk}/preview/", {"notation": "pass"}).status_code == 403
    assert Event.objects.filter(game=game).count() == 1


def test_outsiders_get_403_or_404_whatever_the_form_holds(
    started_game: Callable[..., Game],
    make_user: Callable[..., User],
    client_for: Callable[[User], Client],
) -> None:
    public = started_game(is_public=True)
    eve = client_for(make_user("eve"))
    for data in (
        {"notation": "pass"},  # malformed: no sequence, no key
        form(public, "timeout"),  # refused before the game is read
        {**form(public, "pass"), "expected_seq": "0"},  # stale
    ):
        assert eve.post(move_url(public), data).status_code == 403, data
    private = Game.objects.get(pk=public.pk)
    Game.objects.filter(pk=private.pk).update(is_public=False)
    for data in ({"notation": "pass"}, form(private, "pass")):
        assert eve.post(move_url(private), data).status_code == 404, data
    assert eve.post("/games/987654/move/", form(private, "pass")).status_code == 404
    assert Event.objects.filter(game=public).count() == 1


def test_a_move_costs_two_reads_and_three_writes(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    """The move path's budget: the signed-in user, the game locked with its seats
    (and whether any player has a vacation ahead), the event, the projection and
    the email owed.  A player's vacations are read only when they have one."""
    game = started_game()
    client = seat_client(game, game.turn_seat or 0)
    client.get(f"/games/{game.pk}/")  # the session is cached from here on
    with CaptureQueriesContext(connection) as captured:
        response = client.post(move_url(game), form(game, "pass"))
    assert response.status_code == 302
    sql = [
        q["sql"]
        for q in captured.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))
    ]
    # On PostgreSQL the game's doorbell rings in the move's transaction (games/live/):
    # open pages and waits hear of the move when it commits.
    rings = [q for q in sql if q.startswith("SELECT pg_notify")]
    assert len(rings) == (1 if connection.vendor == "postgresql" else 0)
    statements = [statement(q) for q in sql if q not in rings]
    assert statements == [
        "SELECT accounts_user",
        "SELECT games_seat",  # joined with its game (locked) and its users
        "INSERT games_event",
        "UPDATE games_game",
        "INSERT games_notification",
    ]


def statement(sql: str) -> str:
    """``VERB table`` of one SQL statement: the table it reads or writes (the one
    outside any subquery)."""
    while re.search(r"\([^()]*\)", sql):
        sql = re.sub(r"\([^()]*\)", "", sql)
    found = re.match(r'(SELECT .*? FROM|INSERT INTO|UPDATE) "?(\w+)', sql, re.S)
    assert found is not None, sql
    return f"{found[1].split()[0]} {found[2]}"


def test_htmx_moves_return_the_live_partial(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    client = seat_client(game, seat)
    response = client.post(move_url(game), form(game, a_word_move(game)), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"')
    assert "<html" not in html and "<header" not in html
    assert " played " in html and "Your move was made." in html
    assert 'name="expected_seq" value="2"' in html  # forms for the new position
    assert 'value="pass"' not in html  # no longer this seat's turn: no pass button
    # a refusal comes back as the partial too, with the message, at 422
    game.refresh_from_db()
    other = seat_client(game, 1 - seat)
    data = form(game, "1 QZX", key="another-key-0123456789")
    response = other.post(move_url(game), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"') and "no Q tile" in html
