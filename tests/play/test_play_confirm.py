"""Confirm before harm: a pass, an exchange of the whole rack and a resignation
sent from a page are asked about once ("Pass your turn?"), by the server, so the
question works without JavaScript; the answer sends the move, with the message
typed with it.  Other moves are
sent at once, and a move the rules refuse is refused without a question."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

import pytest
from django.test import Client

from games.core.projection import current_state
from games.kinds.jumbulaya.confirmations import question_for
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game, Message


def form(game: Game, notation: str, key: str = "a-key-of-sixteen-or-more") -> dict[str, str]:
    return {"notation": notation, "expected_seq": str(game.last_seq), "idempotency_key": key}


def hidden_fields(html: str, form_class: str) -> dict[str, str]:
    """The named fields of the first form with ``form_class``."""
    found = re.search(rf'<form [^>]*class="{form_class}"[^>]*>(.*?)</form>', html, re.S)
    assert found is not None, html
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', found[1]))


@pytest.mark.parametrize(
    ("notation", "question", "yes"),
    [
        ("pass", "Pass your turn?", "Yes, pass"),
        ("exchange all", "Exchange all 5 tiles of your rack?", "Yes, exchange them"),
        ("resign", "Resign from this game?", "Yes, resign"),
    ],
)
def test_the_page_asks_once_then_the_answer_makes_the_move(
    started_game: Callable[..., Game],
    seat_client: Callable[[Game, int], Client],
    notation: str,
    question: str,
    yes: str,
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    client = seat_client(game, seat)
    asked = client.post(f"/games/{game.pk}/move/", form(game, notation))
    assert asked.status_code == 200
    html = asked.content.decode()
    assert f">{question}</h2>" in html and f">{yes}</button>" in html
    assert 'id="move-form"' not in html  # the question stands in for the move forms
    game.refresh_from_db()
    assert game.last_seq == 1  # nothing happened yet
    answer = hidden_fields(html, "confirm-actions")
    assert answer["notation"] == notation and answer["confirmed"] == "yes"
    assert answer["expected_seq"] == "1"
    made = client.post(f"/games/{game.pk}/move/", answer)
    assert made.status_code == 302
    game.refresh_from_db()
    assert game.last_seq == 2 and Event.objects.get(game=game, seq=2).seat == seat


@pytest.mark.parametrize("notation", ["pass", "exchange all", "resign"])
def test_a_message_typed_with_the_move_goes_through_the_question(
    started_game: Callable[..., Game],
    seat_client: Callable[[Game, int], Client],
    notation: str,
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    client = seat_client(game, seat)
    said = 'Sorry, "no" <b>vowels</b>\nsee you next game'
    asked = client.post(f"/games/{game.pk}/move/", form(game, notation) | {"message": said})
    html = asked.content.decode()
    assert asked.status_code == 200 and "confirm-actions" in html
    assert not Message.objects.exists()  # nothing is sent before the answer
    assert "<b>vowels</b>" not in html  # shown escaped
    assert "Your message goes with it" in html
    answer = {k: unescape(v) for k, v in hidden_fields(html, "confirm-actions").items()}
    assert answer["message"] == said
    made = client.post(f"/games/{game.pk}/move/", answer)
    assert made.status_code == 302
    game.refresh_from_db()
    [message] = Message.objects.all()
    assert (message.text, message.seat, message.seq) == (said, seat, game.last_seq)
    assert Event.objects.get(game=game, seq=2).seat == seat


def test_without_a_message_the_question_carries_none(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    client = seat_client(game, seat)
    asked = client.post(f"/games/{game.pk}/move/", form(game, "pass") | {"message": "  "})
    html = asked.content.decode()
    assert "message" not in hidden_fields(html, "confirm-actions")
    assert "Your message goes with it" not in html
    client.post(f"/games/{game.pk}/move/", hidden_fields(html, "confirm-actions"))
    assert Event.objects.filter(game=game, seq=2).exists() and not Message.objects.exists()


def test_the_question_says_what_the_move_does_and_the_way_back(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    client = seat_client(game, game.turn_seat or 0)
    html = client.post(f"/games/{game.pk}/move/", form(game, "resign")).content.decode()
    assert "a player who resigned cannot win" in html
    assert re.search(
        rf'<a class="button" href="/games/{game.pk}/"[^>]*>No, stay in the game</a>', html
    )
    assert 'class="danger">Yes, resign' in html


def test_with_htmx_the_question_is_the_live_part(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    client = seat_client(game, game.turn_seat or 0)
    asked = client.post(f"/games/{game.pk}/move/", form(game, "pass"), HTTP_HX_REQUEST="true")
    html = asked.content.decode()
    assert asked.status_code == 200 and html.lstrip().startswith('<div id="live"')
    assert "Pass your turn?" in html and "autofocus" in html
    game.refresh_from_db()
    assert game.last_seq == 1


def test_typed_moves_are_asked_about_too_but_other_moves_are_not(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    rack = current_state(game).racks[seat]
    client = seat_client(game, seat)
    whole = f"exchange {' '.join(reversed(rack))}"  # the whole rack, named tile by tile
    asked = client.post(f"/games/{game.pk}/move/", form(game, whole))
    assert asked.status_code == 200 and "Exchange all 5 tiles" in asked.content.decode()
    some = client.post(f"/games/{game.pk}/move/", form(game, f"exchange {rack[0]}"))
    assert some.status_code == 302  # part of the rack: sent at once
    game.refresh_from_db()
    assert game.last_seq == 2


def test_a_move_the_rules_refuse_gets_its_refusal_not_a_question(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    waiting = 1 - (game.turn_seat or 0)
    response = seat_client(game, waiting).post(f"/games/{game.pk}/move/", form(game, "pass"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "not yours" in html and "Pass your turn?" not in html


def test_the_link_page_asks_the_same_question(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    user = game.seats.get(index=seat).user
    assert user is not None
    url = f"/t/{turn_token(user.pk, game.pk, 1)}/"
    asked = client.post(url, form(game, "pass"))
    html = asked.content.decode()
    assert asked.status_code == 200 and "Pass your turn?" in html
    assert f'href="{url}"' in html  # the way back is the link's page
    answer = hidden_fields(html, "confirm-actions")
    assert client.post(url, answer).status_code == 302
    assert Event.objects.get(game=game, seq=2).source == "link"


def test_which_moves_are_asked_about() -> None:
    rack = ("A", "B", "QU")
    assert question_for("pass", rack) is not None
    assert question_for("PASS", rack) is not None
    assert question_for("exchange all", rack) is not None
    assert question_for("exchange qu b a", rack) is not None
    assert question_for("exchange a b", rack) is None
    assert question_for("resign", rack) is not None
    assert question_for("3 CAT", rack) is None
    assert question_for("jumbulaya SPRINTS", rack) is None
    assert question_for("pass now", rack) is None  # unreadable: the engine says why
