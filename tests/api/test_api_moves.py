"""Moves through the API: the one door (``services.submit``), the same refusals
as the game page, ``expected_seq``, ``Idempotency-Key``, previews, resigning."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from django.utils.html import escape

from accounts.models import User
from games.core.projection import current_state, game_lexicon
from games.engine.jumbulaya import legal_moves
from games.models import Event, Game
from tests.api.conftest import ApiClient


def a_word_move(game: Game) -> str:
    state = current_state(game)
    moves = legal_moves(state, state.turn, game_lexicon(game))
    assert moves, "the deal leaves the player to move no word"
    return moves[0].notation()


def moves_of(game: Game) -> list[tuple[int, str, str]]:
    return list(
        Event.objects.filter(game=game).order_by("seq").values_list("seq", "type", "source")
    )


def test_a_move_is_made_through_the_one_door_and_recorded_as_from_the_api(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, game.turn_seat)
    move = a_word_move(game)
    answer = api.post(f"/games/{game.pk}/moves", {"move": move, "expected_seq": 1})
    assert answer.status == 200, answer.text
    assert answer.json == {
        "seq": 2,
        "status": "playing",
        "turn": 1 - game.turn_seat,
        "movers": [1 - game.turn_seat],
        "sealed": False,
        "overtaken": False,
        "message": "Your move was made.",
    }
    assert moves_of(game)[-1] == (2, "word_built", "api")


def test_a_refused_move_is_a_422_with_the_rules_code_and_the_pages_message(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    seat = game.turn_seat
    answer = seat_api(game, seat).post(
        f"/games/{game.pk}/moves", {"move": "1 QZXQZX", "expected_seq": 1}
    )
    assert answer.status == 422
    assert answer.json["code"] == "unknown_tile"  # game-record.md: Q alone is no tile
    assert "there is no Q tile, only QU" in answer.json["message"]
    # The game page refuses it in the very same words.
    page = Client()
    page.force_login(game.seats.get(index=seat).user)
    form = {"notation": "1 QZXQZX", "expected_seq": "1", "idempotency_key": "k" * 20}
    html = page.post(f"/games/{game.pk}/move/", form).content.decode()
    assert escape(answer.json["message"]) in html
    assert len(moves_of(game)) == 1


def test_out_of_turn_and_timeout_are_refused_by_the_rules_codes(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    waiting = seat_api(game, 1 - game.turn_seat)
    answer = waiting.post(f"/games/{game.pk}/moves", {"move": "pass", "expected_seq": 1})
    assert (answer.status, answer.json["code"]) == (422, "not_your_turn")
    mover = seat_api(game, game.turn_seat)
    answer = mover.post(f"/games/{game.pk}/moves", {"move": "timeout", "expected_seq": 1})
    assert (answer.status, answer.json["code"]) == (422, "bad_move")
    assert len(moves_of(game)) == 1


def test_a_stale_move_is_a_409_and_changes_nothing(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, game.turn_seat)
    answer = api.post(f"/games/{game.pk}/moves", {"move": "pass", "expected_seq": 0})
    assert answer.status == 409 and answer.json["code"] == "stale"
    assert "it is at move 1, you saw 0" in answer.json["message"]
    assert len(moves_of(game)) == 1


def test_the_same_idempotency_key_never_makes_a_move_twice(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, game.turn_seat)
    key = {"Idempotency-Key": "my-first-pass"}
    body = {"move": "pass", "expected_seq": 1}
    assert api.post(f"/games/{game.pk}/moves", body, headers=key).status == 200
    again = api.post(f"/games/{game.pk}/moves", body, headers=key)
    assert again.status == 409 and again.json["code"] == "duplicate"
    assert [seq for seq, _, _ in moves_of(game)] == [1, 2]


def test_another_accounts_key_is_its_own(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    """Keys are the client's: the same string from two players is two keys."""
    game = started_game()
    key = {"Idempotency-Key": "pass"}
    first, second = game.turn_seat, 1 - game.turn_seat
    body = {"move": "pass", "expected_seq": 1}
    assert seat_api(game, first).post(f"/games/{game.pk}/moves", body, headers=key).status == 200
    body["expected_seq"] = 2
    answer = seat_api(game, second).post(f"/games/{game.pk}/moves", body, headers=key)
    assert answer.status == 200, answer.text
    assert [seq for seq, _, _ in moves_of(game)] == [1, 2, 3]


def test_a_malformed_key_or_body_is_a_400(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, game.turn_seat)
    url = f"/games/{game.pk}/moves"
    bad_key = api.post(url, {"move": "pass", "expected_seq": 1}, headers={"Idempotency-Key": "a b"})
    assert bad_key.status == 400 and bad_key.json["code"] == "bad_request"
    missing = api.post(url, {"move": "pass"})
    assert missing.status == 400 and "expected_seq" in missing.json["message"]
    wrong = api.post(url, {"move": "pass", "expected_seq": "one"})
    assert wrong.status == 400
    not_json = api.post(url, raw=b"{not json")
    assert not_json.status == 400 and set(not_json.json) == {"code", "message"}
    too_long = api.post(url, {"move": "1 " + "A" * 300, "expected_seq": 1})
    assert too_long.status == 400
    assert len(moves_of(game)) == 1


def test_a_spectator_gets_403_and_a_stranger_404(
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    public = started_game(is_public=True)
    eve = api_for(make_user("eve"))
    body = {"move": "pass", "expected_seq": 1}
    answer = eve.post(f"/games/{public.pk}/moves", body)
    assert (answer.status, answer.json["code"]) == (403, "not_yours")
    assert eve.post(f"/games/{public.pk}/preview", {"move": "pass"}).status == 403
    private = Game.objects.create(
        kind="jumbulaya", created_by=public.created_by, seat_count=2, rules={},
        lexicon_name="default", lexicon_sha256="",
    )  # fmt: skip
    for pk in (private.pk, 999_999):
        answer = eve.post(f"/games/{pk}/moves", body)
        assert (answer.status, answer.json["code"]) == (404, "not_found")
        assert eve.get(f"/games/{pk}").status == 404


def test_a_preview_says_what_the_move_would_do_and_changes_nothing(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, game.turn_seat)
    move = a_word_move(game)
    shown = api.post(f"/games/{game.pk}/preview", {"move": move})
    assert shown.status == 200
    assert shown.json["kind"] == "word" and shown.json["refused"] is False
    assert shown.json["line"] == int(move.split()[0])
    refused = api.post(f"/games/{game.pk}/preview", {"move": "10 CAT"}).json
    assert refused["refused"] is True and refused["code"] == "bad_line"
    assert len(moves_of(game)) == 1


def test_resigning_ends_a_two_player_game(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, 1 - game.turn_seat)  # out of turn: a resignation may be
    answer = api.post(f"/games/{game.pk}/resign", {})
    assert answer.status == 200, answer.text
    assert answer.json["status"] == "over"
    assert moves_of(game)[-1][1:] == ("resigned", "api")
    again = api.post(f"/games/{game.pk}/resign", {"expected_seq": 1})
    assert again.status == 409 and again.json["code"] == "stale"
