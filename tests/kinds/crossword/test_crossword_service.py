"""The crossword game through the service's real paths: the create page, the
game page (board, rack, previews, refusals, questions), "your turn" emails and
replies by email (Postmark and Mailgun as they post them), a deadline's
auto-pass, async challenges on and off turn, a spectator, the record and its
replay.  Scores are worked out by hand from the rules.  The turn link and the
players' messages are every kind's: tests/contract/."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from games.core import door, timeouts
from games.engine.crossword.state import GameState
from games.engine.errors import Refusal
from games.kinds import get
from games.mail_out import outbox
from games.models import Event, Game, Notification, RobotTurn, Seat
from games.robots import owed, turns
from tests.contract.play import move_form, replayed, seat_user, signed_in, state_as, text
from tests.inbound.esp_payloads import (
    BASIC_AUTH,
    MAILGUN_INBOUND_MIME,
    SIGNING_KEY,
    mailgun_mime_form,
    post_form,
    post_json,
    postmark_payload,
    reply_to_turn,
)

CREATE = "/games/new/"
#: Ann's rack plays JESUS (a bonus word, +15) through the centre: J 8 on the
#: centre's double word, E 1, S 1, U 1, and S 1 on a double letter (8L, or H12
#: down): (8 + 1 + 1 + 1 + 2) × 2 + 15 = 41.
ANN = "JESUSAT"
BOB = "DOGCATE"
CY = "RAINBOW"
JESUS_POINTS = 41


def state_of(game: Game) -> GameState:
    return state_as(game, GameState)


def event_types(game: Game) -> list[str]:
    return [e.type for e in game.events.order_by("seq")]


# --- the create page ----------------------------------------------------------------


def test_the_create_page_offers_the_crossword_game_and_creates_one(
    make_user: Callable[[str], User],
) -> None:
    client = signed_in(make_user("ann"))
    html = text(client.get(CREATE))
    assert 'type="radio" name="kind" value="crossword"' in html
    assert "<strong>Crossword — Bible edition</strong>" in html
    assert "Translating the Word (first to a target score)" in html
    assert "Noah's Ark" in html and "David and Goliath" in html
    form = {
        "kind": "crossword",
        "seat_count": "2",
        "preset": "translating",
        "options_from": "translating",
        "challenge": "async",
        "rack_size": "7",
        "level": "old_testament",
        "david_goliath": "on",
        "lexicon_name": "default",
        "move_hours": "72",
        "invite_emails": "bob@example.com",
    }
    response = client.post(CREATE, form)
    assert response.status_code == 302, text(response)[:2000]
    game = Game.objects.get()
    assert game.kind == "crossword" and game.lexicon_name == "default"
    assert game.rules == {
        "preset": "translating",
        "challenge": "async",
        "levels": ["old_testament"],
        "david_goliath": True,
    }


# --- the game page --------------------------------------------------------------------


def test_the_page_shows_the_board_and_own_rack_previews_refuses_and_plays(
    xw_game: Callable[..., Game],
) -> None:
    game = xw_game([ANN, BOB])
    ann = signed_in(seat_user(game, 0))
    base = f"/games/{game.pk}/"
    page = text(ann.get(base))
    assert 'data-rack="0"' in page and 'data-rack="1"' not in page
    for tile in ANN:
        assert f'data-tile="{tile}"' in page
    assert 'data-tile="D"' not in page and 'data-tile="G"' not in page  # Bob's
    # The premiums in text, the centre star, the coordinates.
    assert '<th scope="col">O</th>' in page and '<th scope="row">15</th>' in page
    assert "1A: triple word" in page and "8H: centre star, double word" in page
    assert "1D: double letter" in page and "2F: triple letter" in page
    assert "It is your turn." in page

    preview = text(ann.post(f"{base}preview/", {"notation": "8H JESUS"}))
    assert f"Play 8H JESUS: {JESUS_POINTS} points." in preview
    assert "Words formed: JESUS. Bonus word: JESUS (+15)." in preview
    refused = ann.post(f"{base}move/", move_form(game, "8A JESUS", "off-centre"))
    assert refused.status_code == 422
    assert "The first play must cover the centre square, 8H." in text(refused)
    not_a_word = text(ann.post(f"{base}preview/", {"notation": "8H JUSES"}))
    assert "JUSES is not in the word list: 8H JUSES is refused." in not_a_word
    bob = signed_in(seat_user(game, 1))
    late = bob.post(f"{base}move/", move_form(game, "8H DOG", "bob-early"))
    assert late.status_code == 422 and "not yours" in text(late)
    asked = text(ann.post(f"{base}move/", move_form(game, "pass", "ann-pass")))
    assert "Pass your turn? It scores nothing." in asked and event_types(game) == ["game_started"]

    made = ann.post(f"{base}move/", move_form(game, "8H JESUS", "ann-jesus"))
    assert made.status_code == 302
    assert event_types(game) == ["game_started", "played"]
    state = state_of(game)
    assert state.points == (JESUS_POINTS, 0) and state.turn == 1
    page = text(bob.get(base))
    assert f"Ann played 8H JESUS for {JESUS_POINTS} points, forming JESUS." in page
    assert "The last play's tiles are framed: 8H, 8I, 8J, 8K, 8L." in page
    assert 'class="sq p-dw centre filled last" data-square="8H" data-letter="J"' in page


def test_a_missed_deadline_passes_the_turn(xw_game: Callable[..., Game]) -> None:
    game = xw_game([ANN, BOB])
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert timeouts.time_out_due() == 1
    last = game.events.order_by("-seq").first()
    assert last is not None and last.type == "timed_out" and last.seat == 0
    assert Notification.objects.filter(game=game, kind=Notification.Kind.TIMED_OUT).exists()
    state = state_of(game)
    assert state.turn == 1 and state.scoreless == 1


def test_a_spectator_sees_the_board_and_no_rack(
    xw_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = xw_game([ANN, BOB], is_public=True)
    door.submit(game.pk, 0, "8H JESUS", game.last_seq, Event.Source.WEB)
    page = text(signed_in(make_user("eve")).get(f"/games/{game.pk}/"))
    assert "You are watching this game." in page and 'data-square="8H" data-letter="J"' in page
    assert "data-rack" not in page and "data-tile" not in page and 'id="move-form"' not in page


# --- emails and replies -----------------------------------------------------------------


def test_your_turn_emails_show_the_board_and_replies_by_email_move(
    xw_game: Callable[..., Game], client: Client, mailoutbox: list[Any]
) -> None:
    game = xw_game([ANN, BOB])
    outbox.sweep()
    ann, bob = seat_user(game, 0), seat_user(game, 1)
    mail = next(m for m in mailoutbox if m.to == [ann.email] and "your turn" in m.subject)
    assert "     A   B   C   D   E   F   G   H" in mail.body  # the grid's columns
    assert " 8   =   .   .   '   .   .   .   *   .   .   .   '   .   .   =" in mail.body
    assert "Your rack: J E S U S A T" in mail.body and "D O G C A T E" not in mail.body
    assert f"“8H FACTS #{game.last_seq}”" in mail.body
    html = str(mail.alternatives[0][0])
    assert '<th scope="row"' in html and ">TW</td>" in html and ">★</td>" in html

    webhooks = override_settings(
        ANYMAIL={"WEBHOOK_SECRET": BASIC_AUTH, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY},
        JUMBULAYA_INBOUND_ESPS=["postmark", "mailgun"],
    )
    with webhooks:
        # Postmark: lower case and a down play, the position named.
        reply = reply_to_turn(game, ann, f"  h8 jesus  #{game.last_seq}")
        assert post_json(client, postmark_payload(reply)) == 200
        state = state_of(game)
        assert [state.board[r * 15 + 7] for r in range(7, 12)] == list("JESUS")
        assert state.points == (JESUS_POINTS, 0)
        # Mailgun: an exchange, forgiving of case and spacing.
        reply = reply_to_turn(game, bob, "Exchange d o g")
        assert post_form(client, MAILGUN_INBOUND_MIME, mailgun_mime_form(reply)) == 200
    assert event_types(game)[-1] == "exchanged" and state_of(game).turn == 0
    outbox.sweep()
    done = next(m for m in mailoutbox if m.to == [bob.email] and "Done, your move" in m.body)
    assert "Done, your move was made: Bob exchanged 3 tiles." in done.body


# --- async challenges ---------------------------------------------------------------------


def test_a_challenge_takes_a_phony_play_back(xw_game: Callable[..., Game]) -> None:
    game = xw_game_async(xw_game)
    # JUSES is no word, but with challenges it is accepted: (8 + 1 + 1 + 1 + 2) × 2 = 26.
    door.submit(game.pk, 0, "8H JUSES", game.last_seq, Event.Source.WEB)
    assert state_of(game).points == (26, 0)
    bob = signed_in(seat_user(game, 1))
    page = text(bob.get(f"/games/{game.pk}/"))
    assert "Challenge Ann's play (JUSES)" in page
    preview = text(bob.post(f"/games/{game.pk}/preview/", {"notation": "challenge"}))
    assert "Challenge Ann's play of JUSES." in preview and "JUSES is not" not in preview
    # The page asks first, as it does before a pass: a wrong challenge costs a turn.
    challenge = move_form(game, "challenge", "bob-challenge")
    asked = text(bob.post(f"/games/{game.pk}/move/", challenge))
    assert (
        "Challenge Ann's play of JUSES? If every word is valid, you lose this turn.</h2>" in asked
    )
    assert ">Yes, challenge</button>" in asked and 'id="move-form"' not in asked
    assert event_types(game)[-1] == "played"  # asked, not done
    made = bob.post(f"/games/{game.pk}/move/", challenge | {"confirmed": "yes"})
    assert made.status_code == 302
    state = state_of(game)
    assert event_types(game)[-1] == "play_withdrawn"
    assert state.points == (0, 0) and state.racks[0] == ANN and state.turn == 1
    assert "JUSES is not in the word list, so the play was taken back" in text(
        bob.get(f"/games/{game.pk}/")
    )


def test_with_challenges_the_preview_keeps_the_bluff(xw_game: Callable[..., Game]) -> None:
    """A phony may be played in a game with challenges: its preview gives the
    score and the words formed, never whether the list holds them."""
    game = xw_game_async(xw_game)
    ann = signed_in(seat_user(game, 0))
    for move in ("8H JUSES", "8H JESUS"):
        shown = text(ann.post(f"/games/{game.pk}/preview/", {"notation": move}))
        assert f"Play {move}:" in shown and "Words formed:" in shown
        assert "word list" not in shown and "Every word" not in shown, shown
        assert "may challenge the play" in shown


def test_without_challenges_the_preview_refuses_a_phony(xw_game: Callable[..., Game]) -> None:
    strict = xw_game([ANN, BOB])
    ann = signed_in(seat_user(strict, 0))
    refused = text(ann.post(f"/games/{strict.pk}/preview/", {"notation": "8H JUSES"}))
    assert "JUSES is not in the word list" in refused


def xw_game_async(xw_game: Callable[..., Game], players: int = 2) -> Game:
    rules = get("crossword").options_from_json({"preset": "standard", "challenge": "async"})
    return xw_game([ANN, BOB, CY][:players], rules=rules)


def test_a_wrong_challenge_off_turn_costs_the_challenger_a_later_turn(
    xw_game: Callable[..., Game],
) -> None:
    game = xw_game_async(xw_game, players=3)
    door.submit(game.pk, 0, "8H JESUS", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    deadline = game.deadline_at
    assert game.turn_seat == 1 and deadline is not None
    cy = signed_in(seat_user(game, 2))
    page = text(cy.get(f"/games/{game.pk}/"))
    assert "It is Bob's turn." in page and "Challenge Ann's play (JESUS)" in page
    challenge = move_form(game, "challenge", "cy-challenge")
    asked = text(cy.post(f"/games/{game.pk}/move/", challenge))
    assert "Challenge Ann's play of JESUS? If every word is valid, you lose your next turn." in (
        asked
    )
    assert event_types(game)[-1] == "played"  # asked, not done
    made = cy.post(f"/games/{game.pk}/move/", challenge | {"confirmed": "yes"})
    assert made.status_code == 302
    game.refresh_from_db()
    assert event_types(game)[-1] == "challenge_failed"
    # Bob is still to play, on the same deadline; Cy will lose a turn.
    assert game.turn_seat == 1 and game.deadline_at == deadline
    assert state_of(game).skips == (0, 0, 1)
    assert "loses 1 turn" in text(cy.get(f"/games/{game.pk}/"))
    door.submit(game.pk, 1, "pass", game.last_seq, Event.Source.WEB)
    assert state_of(game).turn == 0  # Cy's turn was lost


def test_no_challenge_in_a_game_without_them(xw_game: Callable[..., Game]) -> None:
    game = xw_game([ANN, BOB])
    door.submit(game.pk, 0, "8H JESUS", game.last_seq, Event.Source.WEB)
    with pytest.raises(Refusal, match="This game has no challenges"):
        door.submit(game.pk, 1, "challenge", game.last_seq + 1, Event.Source.WEB)


def test_a_play_draws_with_the_system_generator_from_the_whole_bag_when_made(
    xw_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is drawn in advance (issue 27): the service's play picks its
    tiles with ``secrets.SystemRandom``, then, from all 86 in the bag."""
    from games.engine.crossword import commands

    picked: list[tuple[int, int]] = []

    class Watched(secrets.SystemRandom):
        def sample(self, population: Any, k: int, **kw: Any) -> list[Any]:
            picked.append((len(population), k))
            return super().sample(population, k, **kw)

    assert type(commands._RANDOM) is secrets.SystemRandom
    monkeypatch.setattr(commands, "_RANDOM", Watched())
    game = xw_game([ANN, BOB])
    door.submit(game.pk, 0, "8H JESUS", game.last_seq, Event.Source.WEB)
    assert picked == [(86, 5)]


# --- records ------------------------------------------------------------------------------


def test_the_record_downloads_once_over_and_replays(
    xw_game: Callable[..., Game], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = xw_game([ANN, BOB])
    client = signed_in(seat_user(game, 0))
    door.submit(game.pk, 0, "8H JESUS", game.last_seq, Event.Source.WEB)
    early = client.get(f"/games/{game.pk}/record.json")
    assert early.status_code == 409
    assert "every rack and the bag" in text(early)
    game.refresh_from_db()
    door.submit(game.pk, 1, "resign", game.last_seq, Event.Source.WEB)
    response = client.get(f"/games/{game.pk}/record.json")
    record = json.loads(response.content)
    assert record["format"] == "crossword-bible-record/1"
    assert record["setup"]["racks"] == [ANN, BOB]
    drawn = state_of(game).racks[0][len("AT") :]  # what JESUS drew, at random
    assert len(drawn) == 5
    assert record["turns"] == [
        {"seat": 0, "move": "8H JESUS", "draw": drawn},
        {"seat": 1, "move": "resign"},
    ]
    replay = text(client.get(f"/games/{game.pk}/replay/?step=1"))
    assert "Racks after step 1" in replay and "8H: J, last play" in replay
    out = replayed(response.content, tmp_path, capsys)
    assert out["status"] == "over" and out["end"] == "resigned" and out["winners"] == [0]
    assert out["scores"] == [JESUS_POINTS, 0]


@pytest.mark.parametrize(
    ("play", "after"), [("8H JUSES", "play_withdrawn"), ("8H JESUS", "played")]
)
def test_a_robot_off_its_turn_challenges_a_phony_and_lets_a_word_stand(
    xw_game: Callable[..., Game], play: str, after: str
) -> None:
    """Cy's seat is a robot's: Ann's play owes it an answer though Bob is to move."""
    game = xw_game_async(xw_game, players=3)
    robot = owed.robot("strong")
    assert robot is not None
    Seat.objects.filter(game=game, index=2).update(user=robot)
    door.submit(game.pk, 0, play, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.turn_seat == 1
    asked = RobotTurn.objects.get(game=game, seq=game.last_seq)
    assert asked.seat == 2
    assert turns.play(asked.pk) == ("moved" if after == "play_withdrawn" else "wait")
    assert event_types(game)[-1] == after
    game.refresh_from_db()
    assert game.turn_seat == 1  # a challenge off turn leaves Bob to move
    # Once Bob has moved, Ann's play can no longer be challenged: nobody answers off turn.
    door.submit(game.pk, 1, "pass", game.last_seq, Event.Source.WEB)
    assert get("crossword").progress(state_of(game)).answerers == ()
