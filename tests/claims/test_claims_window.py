"""JUMBULAYA claim windows: opening, sealed calls, closing and the pages.

The deal is tests/conftest.py's ``board_game``: nine moves claim the board and
the ninth (Ann's "9 CUT") makes a JUMBULAYA callable, with Bob to move;
SPRINTS, RAINOUT and SPRINTSO run down the board, PRINTED is not a listed
word.  A call made off one's turn is sealed; one on one's own turn is judged
at once (tests/claims/test_claims_on_turn.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import access_tokens
from accounts.models import User
from games.core import door, projection, submitted, windows
from games.core.windows import AlreadyCalled
from games.engine.jumbulaya import PRESETS, Refusal, state_to_json
from games.kinds.jumbulaya import calls as claims
from games.kinds.jumbulaya.models import JumbulayaClaim
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game, Notification
from tests.conftest import CLAIM_THE_BOARD

ANN, BOB = 0, 1


def send(game: Game, seat: int, move: str) -> submitted.Submitted:
    """``move`` for ``seat`` with the game's current sequence number."""
    seq = Game.objects.values_list("last_seq", flat=True).get(pk=game.pk)
    return door.submit(game.pk, seat, move, seq, Event.Source.WEB)


def play(game: Game, moves: list[str]) -> None:
    """Each move by the seat whose turn it is."""
    for move in moves:
        seat = projection.current_state(Game.objects.get(pk=game.pk)).turn
        assert seat is not None
        send(game, seat, move)


def opened(board_game: Callable[..., Game], **options: Any) -> Game:
    """A game whose claim window the ninth move just opened (Bob to move)."""
    game = board_game(**options)
    play(game, CLAIM_THE_BOARD)
    game.refresh_from_db()
    assert game.window_closes_at is not None
    return game


def close_now(game: Game) -> int:
    """Move the window's close into the past and run the sweep."""
    Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now() - timedelta(seconds=1))
    return windows.close_windows()


def types_after(game: Game, seq: int) -> list[tuple[str, int | None]]:
    return list(
        Event.objects.filter(game=game, seq__gt=seq).order_by("seq").values_list("type", "seat")
    )


def claims_open_for(game: Game) -> list[tuple[int | None, int | None]]:
    return sorted(
        Notification.objects.filter(game=game, kind=Notification.Kind.WINDOW_OPEN).values_list(
            "user_id", "event_seq"
        )
    )


def users_of(game: Game) -> list[int | None]:
    return [s.user_id for s in game.seats.order_by("index")]


# --- opening -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_window_opens_when_the_conditions_first_hold(board_game: Callable[..., Game]) -> None:
    game = board_game()
    play(game, CLAIM_THE_BOARD[:-1])
    game.refresh_from_db()
    assert game.window_closes_at is None
    assert not projection.current_state(game).jumbulaya_open()
    assert claims_open_for(game) == []

    before = timezone.now()
    play(game, CLAIM_THE_BOARD[-1:])
    game.refresh_from_db()
    assert projection.current_state(game).jumbulaya_open()
    # 72 hours per move: the window runs to the deadline, which is over 12 hours away.
    assert game.deadline_at is not None and game.deadline_at > before + timedelta(hours=12)
    assert game.window_closes_at == game.deadline_at
    assert claims_open_for(game) == sorted((uid, game.last_seq) for uid in users_of(game))

    # Later moves neither reopen nor move the window.
    closes = game.window_closes_at
    send(game, BOB, "pass")
    game.refresh_from_db()
    assert game.window_closes_at == closes
    assert len(claims_open_for(game)) == 2


@pytest.mark.django_db
def test_a_short_deadline_still_gives_twelve_hours(board_game: Callable[..., Game]) -> None:
    before = timezone.now()
    game = opened(board_game, move_hours=1)
    after = timezone.now()
    assert game.window_closes_at is not None
    assert before + timedelta(hours=12) <= game.window_closes_at <= after + timedelta(hours=12)


@pytest.mark.django_db
def test_with_the_option_off_the_first_valid_call_wins_at_once(
    board_game: Callable[..., Game],
) -> None:
    game = board_game(claim_window=False)
    play(game, CLAIM_THE_BOARD)
    game.refresh_from_db()
    assert game.window_closes_at is None
    assert claims_open_for(game) == []
    done = send(game, BOB, "jumbulaya SPRINTS")
    assert not done.sealed and done.state.over
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    assert not JumbulayaClaim.objects.filter(game=game).exists()


# --- sealing -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_call_in_the_window_is_sealed_and_appends_nothing(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)  # Bob to move: Ann's calls are sealed
    events = Event.objects.filter(game=game).count()
    done = send(game, ANN, "jumbulaya sprints")
    assert done.sealed and done.events == []
    send(game, ANN, "jumbulaya PRINTED")  # not even a word: nobody is told yet
    game.refresh_from_db()
    assert Event.objects.filter(game=game).count() == events
    assert game.status == Game.Status.PLAYING and game.last_seq == events
    assert list(JumbulayaClaim.objects.filter(game=game).values_list("seat", "word")) == [
        (ANN, "SPRINTS"),
        (ANN, "PRINTED"),
    ]
    assert [c.word for c in claims.sealed_claims(game, ANN)] == ["SPRINTS", "PRINTED"]
    assert claims.sealed_claims(game, BOB) == []
    assert claims.sealed_claims(game, None) == []


@pytest.mark.django_db
def test_the_same_call_sealed_again_is_refused_with_its_code(
    board_game: Callable[..., Game],
) -> None:
    """The example bot sent one call twelve times: a call is judged once, so a
    repeat is refused, says so, and changes nothing."""
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTS")
    for again in ("jumbulaya SPRINTS", "jumbulaya sprints"):
        with pytest.raises(AlreadyCalled) as refused:
            send(game, ANN, again)
        assert refused.value.code == "already_called"
        assert "You have already called SPRINTS" in refused.value.message
    assert JumbulayaClaim.objects.filter(game=game).count() == 1
    # Through the API: a 409 with the code, for people and programs alike.
    ann = game.seats.get(index=ANN).user
    assert ann is not None
    token = access_tokens.make(ann, "bot").token
    body = {"move": "jumbulaya SPRINTS", "expected_seq": game.last_seq}
    answer = Client().post(
        f"/api/v1/games/{game.pk}/moves",
        body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 409 and answer.json()["code"] == "already_called"
    assert JumbulayaClaim.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_sealing_refuses_what_the_engine_refuses_before_the_word(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)
    state = projection.current_state(game)
    cases: list[tuple[Any, int, str, str]] = [
        (replace(state, end="ten_tiles", turn=None), BOB, "jumbulaya SPRINTS", "game_over"),
        (replace(state, resigned=frozenset({BOB})), BOB, "jumbulaya SPRINTS", "not_in_game"),
        (state, 7, "jumbulaya SPRINTS", "not_in_game"),
        (state, BOB, "jumbulaya", "bad_move"),
        (state, BOB, "jumbulaya SP!NTS", "bad_move"),
        (state, BOB, "jumbulaya QXRINTS", "unknown_tile"),
        (replace(state, barred=frozenset({BOB})), BOB, "jumbulaya SPRINTS", "jumbulaya_barred"),
        (state, BOB, "jumbulaya " + "A" * 80, "bad_move"),
    ]
    for st, seat, move, code in cases:
        with pytest.raises(Refusal) as refused:
            claims.seal(game, st, seat, move)
        assert refused.value.code == code, move
        assert refused.value.message and "Traceback" not in refused.value.message
    assert not JumbulayaClaim.objects.filter(game=game).exists()
    # Through the one door: a stale call is refused like any stale move.
    with pytest.raises(door.StaleMove):
        door.submit(game.pk, BOB, "jumbulaya SPRINTS", game.last_seq - 1, "web")


# --- closing -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_longest_valid_claim_wins_after_the_failed_ones(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTS")  # valid, 7 tiles, first
    send(game, ANN, "jumbulaya PRINTED")  # Ann's own failed call: she does not win anyway
    send(game, BOB, "pass")  # Ann to move: Bob's calls are sealed
    seq = Game.objects.get(pk=game.pk).last_seq
    send(game, BOB, "jumbulaya PRINTED")  # not a word: the winner's own failure costs nothing
    send(game, BOB, "jumbulaya SPRINTSO")  # valid, 8 tiles: the longest
    assert close_now(game) == 1
    game.refresh_from_db()
    assert types_after(game, seq) == [("jumbulaya_failed", ANN), ("jumbulaya_verified", BOB)]
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    state = projection.current_state(game)
    assert state.jumbulaya is not None and state.jumbulaya.seat == BOB
    assert len(state.jumbulaya.tiles) == 8
    assert game.window_closes_at is None
    assert not JumbulayaClaim.objects.filter(game=game, resolved_at__isnull=True).exists()
    assert (
        Event.objects.filter(game=game, type="jumbulaya_verified")
        .values_list("source", flat=True)
        .get()
        == Event.Source.SYSTEM
    )
    assert windows.close_windows() == 0  # nothing left to close


@pytest.mark.django_db
def test_equal_claims_go_to_the_earliest(board_game: Callable[..., Game]) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTS")
    send(game, BOB, "pass")
    seq = Game.objects.get(pk=game.pk).last_seq
    send(game, BOB, "jumbulaya RAINOUT")
    # Bob's claim was made first (the order is the time made, not the row's number).
    ann_claim = JumbulayaClaim.objects.get(game=game, seat=ANN)
    JumbulayaClaim.objects.filter(game=game, seat=BOB).update(
        created_at=ann_claim.created_at - timedelta(minutes=5)
    )
    assert close_now(game) == 1
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    state = projection.current_state(Game.objects.get(pk=game.pk))
    assert state.jumbulaya is not None and state.jumbulaya.tiles == tuple("RAINOUT")


@pytest.mark.django_db
def test_a_lost_turn_that_would_stall_the_game_does_not_beat_a_valid_claim(
    board_game: Callable[..., Game],
) -> None:
    """Boardspace's rules end a game after 2 rounds without a word: three passes,
    then Ann's failed call would be the fourth turn without one.  Bob's valid
    claim ends the game with his JUMBULAYA, not stalled."""
    game = opened(board_game, rules=PRESETS["boardspace"])
    send(game, ANN, "jumbulaya PRINTED")  # sealed while Bob is to move
    play(game, ["pass"])
    send(game, BOB, "jumbulaya SPRINTS")  # sealed while Ann is to move
    play(game, ["pass", "pass"])
    seq = Game.objects.get(pk=game.pk).last_seq
    assert close_now(game) == 1
    game.refresh_from_db()
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    assert game.end_reason == "jumbulaya"
    # the undone lost turn owed nothing: one game-over email each, for the JUMBULAYA
    assert Notification.objects.filter(game=game, kind="game_over").count() == 2


@pytest.mark.django_db
def test_failed_claims_cost_a_turn_and_the_game_goes_on(board_game: Callable[..., Game]) -> None:
    game = opened(board_game)
    seq = game.last_seq
    send(game, ANN, "jumbulaya PRINTED")
    assert close_now(game) == 1
    game.refresh_from_db()
    assert types_after(game, seq) == [("jumbulaya_failed", ANN)]
    assert game.status == Game.Status.PLAYING and game.window_closes_at is None
    state = projection.current_state(game)
    assert state.turn == BOB and state.skips[ANN] == 1  # Ann loses her next turn
    send(game, BOB, "pass")
    assert projection.current_state(Game.objects.get(pk=game.pk)).turn == BOB
    # After the window a call is decided at once: the first valid one wins.
    done = send(game, BOB, "jumbulaya SPRINTS")
    assert not done.sealed and done.state.over


@pytest.mark.django_db
def test_a_window_without_claims_closes_and_nothing_happens(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)
    seq = game.last_seq
    assert close_now(game) == 1
    game.refresh_from_db()
    assert types_after(game, seq) == []
    assert game.status == Game.Status.PLAYING and game.window_closes_at is None
    assert game.last_seq == seq


@pytest.mark.django_db
def test_a_window_not_yet_due_stays_open(board_game: Callable[..., Game]) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTS")
    assert windows.close_windows() == 0
    game.refresh_from_db()
    assert game.window_closes_at is not None and game.status == Game.Status.PLAYING


@pytest.mark.django_db
def test_a_resigned_callers_claim_is_not_made(board_game: Callable[..., Game]) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTSO")
    send(game, BOB, "pass")
    seq = Game.objects.get(pk=game.pk).last_seq
    send(game, BOB, "jumbulaya SPRINTS")
    # Ann's claim cannot be made once she is out (set directly: with two players,
    # a resignation ends the game, and a resignation withdraws it anyway).
    game.refresh_from_db()
    state = projection.current_state(game)
    Game.objects.filter(pk=game.pk).update(
        state=state_to_json(replace(state, resigned=frozenset({ANN})))
    )
    assert close_now(game) == 1
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]


# --- two sweeps at once ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_resolve_the_window_once(board_game: Callable[..., Game]) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya PRINTED")
    send(game, BOB, "pass")
    seq = Game.objects.get(pk=game.pk).last_seq
    send(game, BOB, "jumbulaya SPRINTS")
    Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now() - timedelta(seconds=1))
    barrier = threading.Barrier(2)
    results: list[int] = []
    errors: list[BaseException] = []

    def sweeper() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(windows.close_windows())
        except BaseException as e:  # reported by the assertion below
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert sorted(results) == [0, 1]
    assert types_after(game, seq) == [("jumbulaya_failed", ANN), ("jumbulaya_verified", BOB)]


# --- the game page -----------------------------------------------------------


def call_form(game: Game, word: str, key: str) -> dict[str, str]:
    return {"jumbulaya_word": word, "expected_seq": str(game.last_seq), "idempotency_key": key}


def client_for(user: User | None) -> Client:
    assert user is not None
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_page_seals_a_call_and_shows_it_to_its_caller_only(
    board_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = opened(board_game, is_public=True)
    ann = client_for(game.seats.get(index=ANN).user)
    bob = client_for(game.seats.get(index=BOB).user)
    eve = client_for(make_user("eve"))
    url = f"/games/{game.pk}/"

    # Bob is to move: Ann's call is sealed.
    response = ann.post(f"{url}move/", call_form(game, "sprints", "ann-call-key-0123456789"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Your claim is sealed until" in html
    assert "Your sealed claims: <strong>SPRINTS</strong>" in html
    assert Event.objects.filter(game=game).count() == game.last_seq

    anns = ann.get(url).content.decode()
    assert "Claim window open until" in anns
    assert "a call made off one's turn is sealed until then" in anns
    assert "a call on one's own turn is judged at once" in anns
    assert "SPRINTS" in anns
    for other in (bob, eve):
        page = other.get(url).content.decode()
        assert "Claim window open until" in page
        assert "SPRINTS" not in page and "sealed claims" not in page

    # An htmx call gets the live part with the same notice.
    send(game, BOB, "pass")
    game.refresh_from_db()
    response = bob.post(
        f"{url}move/",
        call_form(game, "rainout", "bob-call-key-0123456789"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Your claim is sealed until" in html and "RAINOUT" in html and "SPRINTS" not in html

    close_now(game)
    page = ann.get(url).content.decode()
    assert "The game is over" in page and "Claim window open" not in page


@pytest.mark.django_db
def test_no_window_is_shown_before_it_opens(board_game: Callable[..., Game]) -> None:
    game = board_game()
    page = client_for(game.seats.get(index=ANN).user).get(f"/games/{game.pk}/")
    assert "Claim window" not in page.content.decode()


@pytest.mark.django_db
def test_a_call_through_an_older_turn_link_is_sealed_while_the_window_is_open(
    board_game: Callable[..., Game],
) -> None:
    """The claims-open email's link stays good for a call all through the
    window (a call is judged on the board when the window closes); a move
    through it is still held to the position it was sent for."""
    game = opened(board_game)
    ann = game.seats.get(index=ANN).user
    assert ann is not None
    url = f"/t/{turn_token(ann.pk, game.pk, game.last_seq)}/"
    play(game, ["pass", "pass"])  # the game moves on after the email went; Bob to move
    visitor = Client()
    visitor.get(url)
    response = visitor.post(
        url, {"notation": "jumbulaya SPRINTS", "idempotency_key": "k" * 20}, follow=True
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Your claim is sealed until" in page and "Your move was made" not in page
    assert [c.word for c in claims.sealed_claims(game, ANN)] == ["SPRINTS"]
    refused = visitor.post(url, {"notation": "pass", "idempotency_key": "p" * 20})
    assert refused.status_code == 409
