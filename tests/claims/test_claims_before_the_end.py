"""A move that would end the game while sealed JUMBULAYA calls wait: the claim
window closes first, the calls are judged on the board as it stood before
that move, and a valid one ends the game (the move is not made).  A
resignation is the exception: it is always made, and withdraws the
resigner's own calls.

The deal is tests/conftest.py's ``board_game``.  Once its ninth move opens the
window, Bob is to move (so only Ann's calls are sealed then).  This module's
word list adds the words that end the game in each way: line 1 grows STRANGE →
ADSTRANGE → HADSTRANGE (ten tiles), or Ann takes Bob's four lines by shuffling
them (PEA, MID, TAO, WOST).  SPRINTS and SPRINTSO run down the board; PRINTED
is not a listed word.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.core import door, lexicons, projection, timeouts, windows
from games.core.records import export_json
from games.engine.jumbulaya import PRESETS
from games.kinds.jumbulaya.models import JumbulayaClaim
from games.mail_out.emails import message_for
from games.models import Event, Game, Notification
from games.web.confirmations import FIELD, YES
from tests.claims.test_claims_window import close_now, play, send
from tests.conftest import BOARD_LINES, BOARD_RACKS, BOARD_WORDS, CLAIM_THE_BOARD

ANN, BOB, CY = 0, 1, 2
Outcome = JumbulayaClaim.Outcome


@pytest.fixture
def board_words(tmp_path: Path, settings: Any) -> Iterator[str]:
    """The board's word list and the words that end the game."""
    settings.JUMBULAYA_WORDLIST_DIR = tmp_path / "wordlists"
    lexicons.store.cache_clear()
    source = tmp_path / "words.txt"
    extra = ["ADSTRANGE", "HADSTRANGE", "PEA", "MID", "TAO", "WOST"]
    source.write_text("\n".join([*BOARD_WORDS, *extra]) + "\n")
    lexicons.store().install("board", source)
    yield "board"
    lexicons.store.cache_clear()


@dataclass(frozen=True)
class Ending:
    """A game one move from its end, with a claim window open."""

    name: str  # the end the move would bring
    rules: str  # the preset
    before: list[str]  # the moves after the window opened, each by the seat to move
    mover: int
    move: str
    event: str  # the type of the move's event


ENDINGS = [
    Ending(
        "ten_tiles", "official", ["pass", "1 ADSTRANGE", "pass"], ANN, "1 HADSTRANGE", "word_built"
    ),
    Ending(
        "all_lines",
        "official",
        ["pass", "2 PEA", "pass", "4 MID", "pass", "6 TAO", "pass"],
        ANN,
        "8 WO[ST]",
        "word_built",
    ),
    Ending("stalled", "boardspace", ["pass", "pass", "pass"], ANN, "pass", "passed"),
]  # fmt: skip
#: Ann resigns on her turn (Bob passed), which leaves one player.
RESIGNING = Ending("resigned", "official", ["pass"], ANN, "resign", "resigned")


def at_the_brink(
    board_game: Callable[..., Game], ending: Ending, first: Sequence[tuple[int, str]] = ()
) -> Game:
    """The game one move from ``ending``; the calls ``first`` are made as the
    window opens, Bob to move (Ann's are sealed)."""
    game = board_game(rules=PRESETS[ending.rules], is_public=True)
    play(game, CLAIM_THE_BOARD)
    for seat, call in first:
        assert send(game, seat, call).sealed
    play(game, ending.before)
    game.refresh_from_db()
    assert game.window_closes_at is not None and game.status == Game.Status.PLAYING
    return game


def types_after(game: Game, seq: int) -> list[tuple[str, int | None]]:
    return list(
        Event.objects.filter(game=game, seq__gt=seq).order_by("seq").values_list("type", "seat")
    )


def outcomes(game: Game) -> list[tuple[int, str, str]]:
    return list(
        JumbulayaClaim.objects.filter(game=game)
        .order_by("created_at", "pk")
        .values_list("seat", "word", "outcome")
    )


def closed_emails(game: Game) -> dict[int, str]:
    """The claims-closed emails, by seat: subject and text."""
    out = {}
    for note in Notification.objects.filter(game=game, kind=Notification.Kind.WINDOW_CLOSED):
        seat = game.seats.get(user=note.user).index
        message = message_for(note)
        assert message is not None
        out[seat] = f"{message.subject}\n{message.body}"
    return out


def page_of(game: Game, seat: int | None) -> str:
    client = Client()
    if seat is None:
        from accounts.models import User

        client.force_login(User.objects.create_user(username="eve", email="eve@example.com"))
    else:
        user = game.seats.get(index=seat).user
        assert user is not None
        client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


# --- a valid sealed call wins over the move --------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("ending", ENDINGS, ids=lambda e: e.name)
def test_a_valid_sealed_call_ends_the_game_before_the_move(
    board_game: Callable[..., Game], ending: Ending
) -> None:
    game = at_the_brink(board_game, ending)
    seq = game.last_seq
    send(game, BOB, "jumbulaya SPRINTS")
    done = send(game, ending.mover, ending.move)
    assert done.overtaken and done.events == [] and done.state.over
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    assert game.window_closes_at is None
    # Bob's JUMBULAYA, made before Ann's move, ends the game; her move is never made.
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    state = projection.current_state(game)
    assert state.jumbulaya is not None and state.jumbulaya.tiles == tuple("SPRINTS")
    assert outcomes(game) == [(BOB, "SPRINTS", Outcome.MADE)]
    assert projection.replay_game(game) == state

    emails = closed_emails(game)
    assert list(emails) == [BOB]  # the callers are told
    assert "Your call SPRINTS: verified: it ended the game." in emails[BOB]

    bobs = page_of(game, BOB)
    assert "What became of your sealed JUMBULAYA calls: SPRINTS: verified" in bobs
    spectator = page_of(game, None)
    assert "What became of your sealed" not in spectator
    assert "Bob&#x27;s SPRINTS was verified and ended the game" in spectator  # the log


@pytest.mark.django_db
def test_each_caller_is_told_of_their_own_calls_only(board_game: Callable[..., Game]) -> None:
    game = at_the_brink(board_game, ENDINGS[0], first=[(ANN, "jumbulaya RAINOUT")])
    seq = game.last_seq
    send(game, BOB, "jumbulaya SPRINTSO")  # the longest: it wins
    send(game, BOB, "jumbulaya PRINTED")  # the winner's own failed call costs nothing
    assert send(game, ANN, ENDINGS[0].move).overtaken
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    assert outcomes(game) == [
        (ANN, "RAINOUT", Outcome.OVERTAKEN),
        (BOB, "SPRINTSO", Outcome.MADE),
        (BOB, "PRINTED", Outcome.FREE),
    ]
    emails = closed_emails(game)
    assert "Your call RAINOUT: valid, but a longer or earlier call was made." in emails[ANN]
    assert "Your call SPRINTSO" not in emails[ANN] and "Your call PRINTED" not in emails[ANN]
    assert "Your call SPRINTSO: verified: it ended the game." in emails[BOB]
    assert "Your call PRINTED: not verified, but the game ended before" in emails[BOB]
    assert "Your call RAINOUT" not in emails[BOB]
    anns = page_of(game, ANN)
    assert "What became of your sealed JUMBULAYA calls: RAINOUT: valid" in anns
    assert "SPRINTSO: verified" not in anns


@pytest.mark.django_db
@pytest.mark.parametrize("ending", ENDINGS, ids=lambda e: e.name)
def test_the_movers_own_valid_call_wins_over_their_move(
    board_game: Callable[..., Game], ending: Ending
) -> None:
    game = at_the_brink(board_game, ending, first=[(ANN, "jumbulaya SPRINTS")])
    seq = game.last_seq
    send(game, BOB, "jumbulaya SPRINTSO")  # longer: it wins
    done = send(game, ANN, ending.move)
    assert done.overtaken
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    assert outcomes(game) == [(ANN, "SPRINTS", Outcome.OVERTAKEN), (BOB, "SPRINTSO", Outcome.MADE)]
    assert (
        "Your call SPRINTS: valid, but a longer or earlier call was made."
        in (closed_emails(game)[ANN])
    )


# --- a resignation is always made ---------------------------------------------


@pytest.mark.django_db
def test_a_resignation_is_made_and_every_page_email_and_record_agrees(
    board_game: Callable[..., Game],
) -> None:
    """Ann called, then resigned (issue 29, point 7: the resignation was
    overtaken by Bob's sealed call, missing from the log, while her call was
    "withdrawn: the caller resigned" and the page named her the winner).
    Leaving is hers to do: the resignation is made, her calls are withdrawn,
    Bob's are never judged, and everything says Bob won because Ann resigned."""
    game = at_the_brink(board_game, RESIGNING, first=[(ANN, "jumbulaya SPRINTSO")])
    seq = game.last_seq
    send(game, BOB, "jumbulaya SPRINTS")  # valid: it would have ended the game first
    send(game, BOB, "jumbulaya PRINTED")
    ann = game.seats.get(index=ANN).user
    assert ann is not None
    client = Client()
    client.force_login(ann)
    form = {"notation": "resign", "expected_seq": str(seq), "idempotency_key": "ann-resigns-0123"}
    asked = client.post(f"/games/{game.pk}/move/", form).content.decode()
    assert "Resign from this game?" in asked
    assert "a player who resigned cannot win" in asked
    assert "Your sealed JUMBULAYA call SPRINTSO is withdrawn: it is never judged." in asked
    assert "SPRINTS<" not in asked and "PRINTED" not in asked  # never Bob's calls
    assert Event.objects.filter(game=game).count() == seq  # asking changes nothing

    client.post(f"/games/{game.pk}/move/", form | {FIELD: YES})
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "resigned"
    assert game.window_closes_at is None
    assert types_after(game, seq) == [("resigned", ANN)]
    state = projection.current_state(game)
    assert state.winners() == [BOB] and projection.replay_game(game) == state
    assert outcomes(game) == [
        (ANN, "SPRINTSO", Outcome.WITHDRAWN),
        (BOB, "SPRINTS", Outcome.ENDED),
        (BOB, "PRINTED", Outcome.ENDED),
    ]

    emails = closed_emails(game)
    assert "Your call SPRINTSO: withdrawn: the caller left the game." in emails[ANN]
    assert "Your call SPRINTS: not judged: the game ended first." in emails[BOB]
    assert "Your call PRINTED: not judged: the game ended first." in emails[BOB]
    assert "SPRINTSO" not in emails[BOB] and "SPRINTS:" not in emails[ANN]
    for note in Notification.objects.filter(game=game, kind=Notification.Kind.GAME_OVER):
        message = message_for(note)
        assert message is not None
        assert "fewer than two players remain" in message.body
        mine = game.seats.get(user=note.user).index
        assert ("You won." if mine == BOB else "The winner is Bob.") in message.body

    for seat in (ANN, BOB, None):
        page = page_of(game, seat)
        assert "Winner: <strong>Bob</strong>." in page
        assert "Ann resigned" in page  # the log
        assert "SPRINTSO" not in page or seat == ANN  # a withdrawn call is its caller's only
        assert "verified and ended the game" not in page
    assert "SPRINTSO: withdrawn: the caller left the game" in page_of(game, ANN)
    assert "SPRINTS: not judged: the game ended first" in page_of(game, BOB)

    record = json.loads(export_json(game))
    assert record["turns"][-1] == {"seat": ANN, "move": "resign"}


@pytest.mark.django_db
def test_a_resignation_that_leaves_the_game_going_withdraws_the_resigners_calls_only(
    rigged_game: Callable[..., Game], board_words: str
) -> None:
    """Three players: Bob resigns off his turn, the game goes on, his call is
    withdrawn at once and Cy's stays sealed until the window closes."""
    game = rigged_game(
        BOARD_LINES,
        [*BOARD_RACKS, ["C", "E", "G", "I", "N"]],
        players=3,
        lexicon_name=board_words,
        claim_window=True,
    )
    play(game, CLAIM_THE_BOARD)  # the ninth move is Cy's: Ann to move
    send(game, BOB, "jumbulaya SPRINTSO")
    send(game, CY, "jumbulaya RAINOUT")
    seq = Game.objects.get(pk=game.pk).last_seq
    done = send(game, BOB, "resign")
    assert not done.overtaken and not done.state.over
    game.refresh_from_db()
    assert game.window_closes_at is not None
    assert types_after(game, seq) == [("resigned", BOB)]
    assert outcomes(game) == [(BOB, "SPRINTSO", Outcome.WITHDRAWN), (CY, "RAINOUT", "")]
    assert "withdrawn: the caller left the game" in closed_emails(game)[BOB]
    assert close_now(game) == 1
    assert types_after(game, seq + 1) == [("jumbulaya_verified", CY)]
    assert outcomes(game)[1] == (CY, "RAINOUT", Outcome.MADE)


# --- no valid call: the move is made ------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("ending", ENDINGS, ids=lambda e: e.name)
def test_invalid_sealed_calls_are_judged_then_the_move_ends_the_game(
    board_game: Callable[..., Game], ending: Ending
) -> None:
    game = at_the_brink(board_game, ending)
    seq = game.last_seq
    send(game, BOB, "jumbulaya PRINTED")
    done = send(game, ending.mover, ending.move)
    assert not done.overtaken and done.state.over
    game.refresh_from_db()
    assert game.end_reason == ending.name
    assert types_after(game, seq) == [("jumbulaya_failed", BOB), (ending.event, ending.mover)]
    assert outcomes(game) == [(BOB, "PRINTED", Outcome.FAILED)]
    assert "Your call PRINTED: not verified: it cost a turn." in closed_emails(game)[BOB]
    log = page_of(game, ANN)
    said = "Bob&#x27;s PRINTED could not be verified and cost a turn"
    assert said in log
    # The claim line sits before the move that ended the game (newest first).
    assert log.index(said) > log.index("The game is over:", log.index("log-title"))


@pytest.mark.django_db
@pytest.mark.parametrize("ending", ENDINGS, ids=lambda e: e.name)
def test_the_movers_own_failed_call_does_not_stop_their_move(
    board_game: Callable[..., Game], ending: Ending
) -> None:
    """Ann's failed sealed call would cost the very turn she is playing: the
    game ends with her move, so it costs nothing, and she is told so."""
    game = at_the_brink(board_game, ending, first=[(ANN, "jumbulaya PRINTED")])
    seq = game.last_seq
    done = send(game, ANN, ending.move)
    assert not done.overtaken
    game.refresh_from_db()
    assert game.end_reason == ending.name
    assert types_after(game, seq) == [(ending.event, ANN)]
    assert outcomes(game) == [(ANN, "PRINTED", Outcome.FREE)]
    assert "the game ended before it cost a turn" in closed_emails(game)[ANN]


@pytest.mark.django_db
def test_a_move_that_does_not_end_the_game_leaves_the_window_open(
    board_game: Callable[..., Game],
) -> None:
    game = at_the_brink(board_game, ENDINGS[0])
    send(game, BOB, "jumbulaya SPRINTS")
    done = send(game, ANN, "pass")  # the game goes on
    assert not done.overtaken and not done.state.over
    game.refresh_from_db()
    assert game.window_closes_at is not None
    assert outcomes(game) == [(BOB, "SPRINTS", "")]


# --- the deadline's auto-pass --------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("word", "valid"), [("SPRINTS", True), ("PRINTED", False)])
def test_a_timeout_that_would_stall_the_game_judges_the_calls_first(
    board_game: Callable[..., Game], word: str, valid: bool
) -> None:
    game = at_the_brink(board_game, ENDINGS[2])
    seq = game.last_seq
    send(game, BOB, f"jumbulaya {word}")
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    written = timeouts.time_out_due()
    game.refresh_from_db()
    if valid:
        assert written == 0  # the timeout was not written: the JUMBULAYA came first
        assert game.end_reason == "jumbulaya"
        assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
        assert not Notification.objects.filter(game=game, kind="timed_out").exists()
        assert outcomes(game) == [(BOB, word, Outcome.MADE)]
    else:
        assert written == 1
        assert game.end_reason == "stalled"
        assert types_after(game, seq) == [("jumbulaya_failed", BOB), ("timed_out", ANN)]
        assert outcomes(game) == [(BOB, word, Outcome.FAILED)]


# --- the one door's other callers ---------------------------------------------


@pytest.mark.django_db
def test_the_page_tells_the_mover_their_move_was_overtaken(
    board_game: Callable[..., Game],
) -> None:
    game = at_the_brink(board_game, ENDINGS[0])
    send(game, BOB, "jumbulaya SPRINTS")
    ann = game.seats.get(index=ANN).user
    assert ann is not None
    client = Client()
    client.force_login(ann)
    form = {
        "notation": ENDINGS[0].move,
        "expected_seq": str(game.last_seq),
        "idempotency_key": "ann-ten-tiles-0123456789",
    }
    response = client.post(f"/games/{game.pk}/move/", form)
    assert response.status_code == 409  # refused, as a move the game moved past
    page = response.content.decode()
    assert "your move was not made" in page and "The game is over" in page
    assert "HADSTRANGE" not in page  # not on the board, nor in the log


@pytest.mark.django_db
def test_a_call_made_at_once_is_unaffected(board_game: Callable[..., Game]) -> None:
    """Without a claim window nothing is sealed, so nothing waits for the end."""
    game = board_game(claim_window=False)
    play(game, CLAIM_THE_BOARD)
    seq = Game.objects.get(pk=game.pk).last_seq
    done = send(game, BOB, "jumbulaya PRINTED")
    assert not done.sealed
    done = send(game, ANN, "resign")
    assert not done.overtaken
    assert types_after(game, seq) == [("jumbulaya_failed", BOB), ("resigned", ANN)]
    assert not JumbulayaClaim.objects.filter(game=game).exists()
    assert not Notification.objects.filter(game=game, kind="window_closed").exists()


# --- replay ------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("ending", [ENDINGS[0], ENDINGS[2]], ids=lambda e: e.name)
@pytest.mark.parametrize("word", ["SPRINTS", "PRINTED"])
def test_the_record_replays_to_the_same_end(
    board_game: Callable[..., Game], ending: Ending, word: str, tmp_path: Path
) -> None:
    game = at_the_brink(board_game, ending)
    send(game, BOB, f"jumbulaya {word}")
    send(game, ending.mover, ending.move)
    game.refresh_from_db()
    state = projection.current_state(game)
    assert state.over
    path = tmp_path / "game.json"
    path.write_bytes(export_json(game))
    out = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=out)
    assert exited.value.code == 0
    replayed = json.loads(out.getvalue())
    assert replayed["status"] == "over" and replayed["end"] == state.end == game.end_reason
    assert replayed["scores"] == state.scores()
    assert replayed["winners"] == state.winners()
    assert replayed["end"] == ("jumbulaya" if word == "SPRINTS" else ending.name)


# --- a sweep and a game-ending move at once ----------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_sweep_and_an_ending_move_at_once_judge_the_calls_once(
    board_game: Callable[..., Game],
) -> None:
    game = at_the_brink(board_game, ENDINGS[0])
    seq = game.last_seq
    send(game, BOB, "jumbulaya SPRINTS")
    Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now() - timedelta(seconds=1))
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def sweeper() -> None:
        try:
            barrier.wait(timeout=10)
            windows.close_windows()
        except BaseException as e:  # reported by the assertion below
            errors.append(e)
        finally:
            connection.close()

    def mover() -> None:
        try:
            barrier.wait(timeout=10)
            door.submit(game.pk, ANN, ENDINGS[0].move, seq, Event.Source.WEB)
        except door.StaleMove:
            pass  # the sweep got in first: Ann's move was not made either
        except BaseException as e:
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper), threading.Thread(target=mover)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    assert outcomes(game) == [(BOB, "SPRINTS", Outcome.MADE)]
    assert Notification.objects.filter(game=game, kind="window_closed").count() == 1


@pytest.mark.django_db
def test_a_robot_taking_the_seat_over_withdraws_the_leavers_calls(
    board_game: Callable[..., Game],
) -> None:
    """The robot plays the seat from now on, with calls of its own: the calls
    the player who left sealed are theirs, withdrawn as they go."""
    game = board_game(takeover_level="casual")
    play(game, CLAIM_THE_BOARD)  # Bob to move
    send(game, ANN, "jumbulaya SPRINTSO")
    seq = Game.objects.get(pk=game.pk).last_seq
    send(game, ANN, "resign")
    game.refresh_from_db()
    seat = game.seats.select_related("user").get(index=ANN)
    assert seat.user is not None and seat.user.robot_level
    assert game.status == Game.Status.PLAYING and game.window_closes_at is not None
    assert types_after(game, seq) == []  # a robot took the seat: no resignation event
    assert outcomes(game) == [(ANN, "SPRINTSO", Outcome.WITHDRAWN)]
    # Ann holds no seat to be emailed as: her resignation's confirmation tells her.
    assert closed_emails(game) == {}
