"""The game's last play in an ``async`` game, through the service: a play
that would end the game leaves it waiting on the next seat, whose page offers
"Challenge" and "Accept the end" (and whose email reply may say either); a
missed deadline accepts the end; the game is over, and its record with every
rack published, only once the end is accepted or a challenge fails.

Translating the Word (Psalms & Proverbs, two players: a target of 70) ends on
a play from a full bag: 8E KINGDOM scores (5 + 1 + 1 + 2 + 2 + 1 + 3) × 2 on
the star, + 50 for 7 tiles, + 15 for the bonus word = 95; 8E QATEEEE, no
word, scores (10 + 1 + 1 + 4) × 2 + 50 = 82."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from games.core import door, timeouts
from games.core.projection import current_state, game_lexicon, load_events
from games.engine.crossword.state import GameState
from games.kinds import get
from games.kinds.crossword.robots import CROSSWORD_ROBOTS
from games.mail_out import outbox
from games.models import Event, Game
from tests import leaks
from tests.contract.play import state_as
from tests.inbound.esp_payloads import BASIC_AUTH, post_json, postmark_payload, reply_to_turn

KINGDOM, PHONY, BOB, CY = "KINGDOM", "QATEEEE", "DOGCATE", "RAINBOW"
WEBHOOKS = override_settings(
    ANYMAIL={"WEBHOOK_SECRET": BASIC_AUTH}, JUMBULAYA_INBOUND_ESPS=["postmark"]
)


def target_game(xw_game: Callable[..., Game], ann: str, players: int = 2) -> Game:
    rules = get("crossword").options_from_json(
        {"preset": "translating", "levels": ["psalms_proverbs"], "challenge": "async"}
    )
    return xw_game([ann, BOB, CY][:players], rules=rules, is_public=True)


def seat_user(game: Game, seat: int) -> User:
    user = game.seats.get(index=seat).user
    assert user is not None
    return user


def signed_in(game: Game, seat: int) -> Client:
    client = Client()
    client.force_login(seat_user(game, seat))
    return client


def state_of(game: Game) -> GameState:
    return state_as(game, GameState)


def text(response: Any) -> str:
    html = str(response.content.decode())
    return html.replace("&#x27;", "'").replace("&quot;", '"').replace("\u2019", "'")


def play(game: Game, seat: int, move: str) -> None:
    game.refresh_from_db()
    door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)


def form(game: Game, notation: str, key: str) -> dict[str, str]:
    game.refresh_from_db()
    return {"notation": notation, "expected_seq": str(game.last_seq), "idempotency_key": key * 4}


WAITING = "Ann reached their target; Bob may challenge the play or accept the end"


def test_the_page_offers_challenge_and_accept_the_end_and_the_record_waits(
    xw_game: Callable[..., Game],
) -> None:
    game = target_game(xw_game, KINGDOM, players=3)
    preview = text(
        signed_in(game, 0).post(f"/games/{game.pk}/preview/", {"notation": "8E KINGDOM"})
    )
    assert "Play 8E KINGDOM: 95 points." in preview
    assert "This play ends the game unless it is challenged" in preview
    play(game, 0, "8E KINGDOM")
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.turn_seat == 1
    assert state_of(game).points == (95, 0, 0)
    ann, bob, cy = (signed_in(game, s) for s in range(3))
    url = f"/games/{game.pk}/"
    bob_page = text(bob.get(url))
    assert WAITING in bob_page
    assert "Challenge Ann's play (KINGDOM)" in bob_page
    assert 'data-move="pass">Accept the end' in bob_page and ">Pass" not in bob_page
    assert 'id="move-form"' not in bob_page
    cy_page = text(cy.get(url))
    assert WAITING in cy_page and "Challenge Ann's play (KINGDOM)" in cy_page
    assert "Accept the end" not in cy_page
    ann_page = text(ann.get(url))
    assert WAITING in ann_page
    assert "Challenge Ann's play" not in ann_page and "Accept the end" not in ann_page
    # The record, with every rack, is not given while the play may be withdrawn.
    assert ann.get(f"{url}record.json").status_code == 409
    # A word play is refused in words; "Accept the end" (a pass) asks first, then ends the game.
    refused = text(bob.post(f"{url}move/", form(game, "H4 DOG", "bob-word")))
    assert "Ann reached their target: the game ends with that play unless it is challenged" in (
        refused
    )
    asked = text(bob.post(f"{url}move/", form(game, "pass", "bob-accept")))
    assert "Accept the end?" in asked and "Yes, accept the end" in asked
    assert state_of(game).pending_end == "target"
    sent = bob.post(f"{url}move/", form(game, "pass", "bob-accept") | {"confirmed": "yes"})
    assert sent.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    state = state_of(game)
    assert (state.end, state.winners()) == ("target", [0])
    assert "Bob accepted the end that Ann's play made. The game is over" in text(ann.get(url))
    record = ann.get(f"{url}record.json")
    assert record.status_code == 200
    assert record.json()["turns"][-1] == {"seat": 1, "move": "pass"}


def test_a_challenge_by_email_withdraws_the_last_play_and_the_game_goes_on(
    xw_game: Callable[..., Game], client: Client, mailoutbox: list[Any]
) -> None:
    game = target_game(xw_game, PHONY)
    play(game, 0, "8E QATEEEE")
    outbox.sweep()
    bob = seat_user(game, 1)
    mail = next(m for m in mailoutbox if m.to == [bob.email] and "your turn" in m.subject)
    assert f"{WAITING}: reply “challenge”" in mail.body and "“accept”" in mail.body
    with WEBHOOKS:
        assert post_json(client, postmark_payload(reply_to_turn(game, bob, "Challenge"))) == 200
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.turn_seat == 1
    state = state_of(game)
    assert state.points == (0, 0) and state.racks[0] == PHONY and state.pending_end is None
    assert signed_in(game, 0).get(f"/games/{game.pk}/record.json").status_code == 409
    page = text(signed_in(game, 1).get(f"/games/{game.pk}/"))
    assert "QATEEEE is not in the word list, so the play was taken back" in page
    assert "The game goes on." in page


def test_accept_by_email_ends_the_game(
    xw_game: Callable[..., Game], client: Client, mailoutbox: list[Any]
) -> None:
    game = target_game(xw_game, KINGDOM)
    play(game, 0, "8E KINGDOM")
    outbox.sweep()
    with WEBHOOKS:
        reply = reply_to_turn(game, seat_user(game, 1), "accept, thanks")
        assert post_json(client, postmark_payload(reply)) == 200
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and state_of(game).end == "target"


def test_a_missed_deadline_accepts_the_end(xw_game: Callable[..., Game]) -> None:
    game = target_game(xw_game, KINGDOM)
    play(game, 0, "8E KINGDOM")
    game.refresh_from_db()
    assert game.deadline_at is not None and game.status == Game.Status.PLAYING
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert timeouts.time_out_due() == 1
    game.refresh_from_db()
    last = game.events.order_by("-seq").first()
    assert last is not None and (last.type, last.seat) == ("timed_out", 1)
    assert game.status == Game.Status.OVER
    state = state_of(game)
    assert (state.end, state.finisher, state.scores()) == ("target", 0, [95, 0])
    page = text(signed_in(game, 0).get(f"/games/{game.pk}/"))
    assert "Bob ran out of time, which accepts the end that Ann's play made." in page
    assert signed_in(game, 0).get(f"/games/{game.pk}/record.json").status_code == 200


def test_a_wrong_challenge_of_the_last_play_ends_the_game(xw_game: Callable[..., Game]) -> None:
    game = target_game(xw_game, KINGDOM, players=3)
    play(game, 0, "8E KINGDOM")
    play(game, 2, "challenge")  # Cy, out of turn
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    state = state_of(game)
    assert state.end == "target" and state.skips == (0, 0, 0)


@pytest.mark.parametrize(
    ("ann", "answers"),
    [(KINGDOM, ["wait", "accept", "wait"]), (PHONY, ["wait", "challenge", "challenge"])],
)
def test_robots_challenge_a_phony_last_play_and_accept_a_good_one(
    xw_game: Callable[..., Game], ann: str, answers: list[str]
) -> None:
    """The seat answering (Bob) accepts unless a word is not in its list; another
    seat (Cy) challenges a phony out of turn and otherwise waits."""
    game = target_game(xw_game, ann, players=3)
    play(game, 0, f"8E {ann}")
    game.refresh_from_db()
    log, state, words = load_events(game), current_state(game), game_lexicon(game)
    assert [
        CROSSWORD_ROBOTS.play(log, state, seat, words, "strong", random.Random(1))
        for seat in range(3)
    ] == answers


def test_no_page_or_email_shows_another_seat_s_rack_while_the_end_is_pending(
    xw_game: Callable[..., Game], make_user: Callable[[str], User], mailoutbox: list[Any]
) -> None:
    game = target_game(xw_game, KINGDOM, players=3)
    play(game, 0, "8E KINGDOM")
    game.refresh_from_db()
    outbox.sweep()
    viewers: dict[int | None, Any] = {s.index: s.user for s in game.seats.select_related("user")}
    viewers[None] = make_user("eve")
    assert leaks.scan(game, viewers, moves=("accept", "challenge", "H4 DOG")) > 0
