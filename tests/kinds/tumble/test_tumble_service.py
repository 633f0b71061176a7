"""Tumble-Words through the service's real paths: the create page, the game
page (the roll, previews, each refusal and its message), the sealed round
(both hand in → reveal and score; a replaced crossword; a deadline with one
crossword in → the other scores every cube unused), a turn link still good
after the other player handed in, replies by email as Postmark and Mailgun
post them, the API's movers, a spectator, three players by turns, the record
and its replay, the dashboard's winner."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from games.core import door, rebuild, timeouts
from games.engine import tumble as engine
from games.mail_in import inbound
from games.mail_out import outbox
from games.mail_out.turnlinks import turn_url
from games.models import Event, Game, InboundMail, Notification
from tests.contract.play import move_form, replayed, seat_user, signed_in, state_as, text
from tests.inbound import esp_payloads
from tests.inbound.inbound_mails import parsed, reply_mime

from .conftest import ANN_CROSSWORD, ANN_POINTS, BOB_CROSSWORD, BOB_POINTS, rows

CREATE = "/games/new/"


def state_of(game: Game) -> engine.TumbleState:
    return state_as(game, engine.TumbleState)


# --- the create page ---------------------------------------------------------------


def test_the_create_page_offers_tumble_words_and_makes_a_game(
    make_user: Callable[[str], User],
) -> None:
    ann = signed_in(make_user("ann"))
    html = text(ann.get(CREATE))
    assert 'type="radio" name="kind" value="tumble"' in html
    assert "<strong>Tumble-Words</strong>: the crossword game of 13 rolled letter cubes" in html
    assert "The younger child&#x27;s variant" in html or "The younger child's variant" in html
    form = {
        "kind": "tumble",
        "seat_count": "2",
        "preset": "short",
        "options_from": "short",
        "target": "50",
        "lexicon_name": "default",
        "move_hours": "72",
        "invite_emails": "bob@example.com",
    }
    assert ann.post(CREATE, form).status_code == 302
    game = Game.objects.get()
    assert game.kind == "tumble" and game.rules == {
        "target": 50,
        "younger": False,
        "play_out": False,
    }
    assert game.lexicon_name == "default"


# --- the page: roll, preview, refusals ------------------------------------------------


def test_the_page_shows_the_roll_with_its_colours_named_and_previews_the_score(
    tumble_game: Callable[..., Game],
) -> None:
    game = tumble_game()
    ann = signed_in(seat_user(game, 0))
    page = text(ann.get(f"/games/{game.pk}/"))
    assert "It is your turn." in page and "Your roll" in page
    # Every cube's face with its colour in words: not by colour alone.
    assert '<span class="tw-face">C</span><span class="tw-colour">red</span>' in page
    assert '<span class="tw-face">B</span><span class="tw-colour">black</span>' in page
    assert '<span class="tw-face">X</span><span class="tw-colour">green</span>' in page
    assert page.count('data-cube="') == 26  # both rolls: rolled on the table, public
    assert '<textarea id="notation" name="notation"' in page

    preview = text(ann.post(f"/games/{game.pk}/preview/", {"notation": rows(ANN_CROSSWORD)}))
    assert f"This crossword scores {ANN_POINTS} points." in preview
    assert "CAPED (across, one colour): 10 points" in preview
    assert "CAT (down, one colour): 6 points" in preview
    assert "Unused: black O, black B, black R, green X, green E, green H (-6)." in preview
    assert "It stays sealed until the round closes" in preview
    assert game.events.count() == 1  # a preview changes nothing


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("CAP3D", "Could not read the crossword: row 1 of the crossword has '3'"),
        ("CAME", "M at row 1, column 3 is not showing on any of your cubes"),
        ("PAPA", "Your crossword uses P 2 times, but only 1 of your cubes shows it"),
        ("CAPED\nT....", "CT (down, from row 1, column 1) is not in the word list"),
        ("CAPED\n.....\n..T..", "T at row 3, column 3 is in no word"),
        ("CAT\n...\nHERB", "The crossword is in 2 separate pieces"),
        ("cat", "c at row 1, column 1 is in lower case, a blank, but no blank shows"),
        ("CAT colours: GGG", "The colour grid lays 1 green C, but 0 of your green cubes show C"),
        ("pass", "There is no passing in Tumble-Words"),
    ],
)
def test_each_bad_crossword_is_refused_with_its_reason_and_changes_nothing(
    tumble_game: Callable[..., Game], typed: str, said: str
) -> None:
    game = tumble_game()
    ann = signed_in(seat_user(game, 0))
    refused = ann.post(f"/games/{game.pk}/move/", move_form(game, typed, "bad"))
    assert refused.status_code == 422
    assert said in text(refused)
    preview = text(ann.post(f"/games/{game.pk}/preview/", {"notation": typed}))
    assert "This crossword cannot be handed in:" in preview and said in preview
    assert game.events.count() == 1
    assert state_of(game).waiting() == (0, 1)


# --- the sealed round -----------------------------------------------------------------


def test_a_sealed_round_replaced_then_revealed_when_both_are_in(
    tumble_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = tumble_game()
    outbox.sweep()
    started = [m for m in mailoutbox if "started" in m.subject or "your turn" in m.subject]
    assert {m.to[0] for m in started} == {"ann@example.com", "bob@example.com"}
    ann, bob = signed_in(seat_user(game, 0)), signed_in(seat_user(game, 1))
    base = f"/games/{game.pk}/"
    # Ann hands in CAT first (all red: 6, ten unused: -4), then replaces it.
    assert ann.post(f"{base}move/", move_form(game, "CAT", "first")).status_code == 302
    game.refresh_from_db()
    assert game.turn_seat == 1 and not game.may_move(0) and game.may_move(1)
    mine = text(ann.get(base))
    assert "You have handed in a crossword scoring -4" in mine and "waiting for Bob" in mine
    assert 'data-hand="0"' in mine and "Replace my crossword" in mine
    theirs = text(bob.get(base))
    assert "Ann has handed in a crossword (sealed)." in theirs and "It is your turn." in theirs
    assert 'data-hand="0"' not in theirs and "CAT (across" not in theirs
    assert "scoring -4" not in theirs
    replaced = ann.post(f"{base}move/", move_form(game, rows(ANN_CROSSWORD), "again"))
    assert replaced.status_code == 302
    assert state_of(game).submission_of(0) == engine.state.Submission(
        "CAPED/A..../T.... colours: RRRRR/R..../R....", ANN_POINTS
    )
    assert "Ann replaced the crossword handed in for round 1 (sealed)." in text(bob.get(base))
    # Bob hands in at the position he loaded (before Ann's two submissions): the same round.
    late = {"notation": rows(BOB_CROSSWORD), "expected_seq": "1", "idempotency_key": "bob" * 6}
    assert bob.post(f"{base}move/", late).status_code == 302
    state = state_of(game)
    assert state.totals == (ANN_POINTS, BOB_POINTS) and state.round == 2
    assert state.history[0].crosswords[1] == "HERB colours: GGKK"
    assert game.may_move(0) and game.may_move(1)
    revealed = text(bob.get(base))
    assert "Round 1 revealed: Ann scored 10 with CAPED and CAT; Bob scored -5 with HERB." in (
        revealed
    )
    assert "Round 2" in revealed and "Rounds revealed" in revealed
    # Both leave the site: the new round's turn is mailed (while they were on the
    # page it would have waited: games/live/presence.py).
    User.objects.filter(email__in=["ann@example.com", "bob@example.com"]).update(present_until=None)
    mailoutbox.clear()
    outbox.sweep()
    turn = {m.to[0]: m for m in mailoutbox if "your turn" in m.subject}
    assert set(turn) == {"ann@example.com", "bob@example.com"}
    body = turn["ann@example.com"].body
    assert "Round 1, revealed:" in body and "CAPED (across, one colour): 10" in body
    assert "Your roll for round 2:" in body and f"Add #{game.last_seq} on a line" in body
    html = turn["bob@example.com"].alternatives[0][0]
    assert "Round 1, revealed" in html and "Your roll for round 2" in html


def test_a_submission_resent_with_its_key_is_not_made_twice(
    tumble_game: Callable[..., Game],
) -> None:
    """In a sealed round a move made at an earlier position may still go (the same
    round): a resent request is known by its key first, and changes nothing."""
    game = tumble_game()
    door.submit(game.pk, 0, "CAT", 1, Event.Source.WEB, "ann-cat-0123456789")
    door.submit(game.pk, 0, rows(ANN_CROSSWORD), 2, Event.Source.WEB, "ann-caped-012345")
    before = state_of(game).submission_of(0)
    with pytest.raises(door.DuplicateMove):
        door.submit(game.pk, 0, "CAT", 1, Event.Source.WEB, "ann-cat-0123456789")
    assert state_of(game).submission_of(0) == before and game.last_seq == 3


def test_a_rebuilt_projection_counts_a_new_round_s_deadline_again(
    tumble_game: Callable[..., Game],
) -> None:
    """Rounds go on with the same seat first: the turn alone cannot tell a
    stored deadline of an earlier round from the round's own."""
    game = tumble_game()
    round_one = Game.objects.get(pk=game.pk)
    door.submit(game.pk, 0, "CAT", 1, Event.Source.WEB)
    door.submit(game.pk, 1, rows(BOB_CROSSWORD), 2, Event.Source.WEB)
    game.refresh_from_db()
    assert state_of(game).round == 2 and game.turn_seat == round_one.turn_seat
    deadline = game.deadline_at
    assert deadline is not None and round_one.deadline_at is not None
    # The projection as it stood in round 1, with a deadline five hours earlier.
    stale = round_one.deadline_at - timedelta(hours=5)
    Game.objects.filter(pk=game.pk).update(
        state=round_one.state, last_seq=round_one.last_seq, deadline_at=stale
    )
    assert rebuild.rebuild_projection(game)
    game.refresh_from_db()
    assert state_of(game).round == 2 and game.deadline_at is not None
    assert abs(game.deadline_at - deadline) < timedelta(seconds=5)


def test_the_deadline_closes_the_round_and_who_handed_in_nothing_scores_minus_13(
    tumble_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = tumble_game()
    door.submit(game.pk, 0, "submit " + "/".join(ANN_CROSSWORD), 1, Event.Source.WEB)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert timeouts.time_out_due() == 1
    types = [e.type for e in game.events.order_by("seq")]
    assert types == ["game_started", "submitted", "timed_out", "round_closed", "rolled"]
    state = state_of(game)
    assert state.totals == (ANN_POINTS, engine.NOTHING_SUBMITTED) and state.round == 2
    late = Notification.objects.filter(game=game, kind=Notification.Kind.TIMED_OUT)
    assert list(late.values_list("user__username", flat=True)) == ["bob"]
    assert game.seats.get(index=1).timeouts_in_a_row == 1
    assert game.seats.get(index=0).timeouts_in_a_row == 0
    page = text(signed_in(seat_user(game, 0)).get(f"/games/{game.pk}/"))
    assert "Bob ran out of time for round 1: nothing handed in." in page
    assert "Bob handed in nothing (-13: every cube unused)" in page


def test_a_deadline_with_nothing_handed_in_times_out_and_warns_both(
    tumble_game: Callable[..., Game],
) -> None:
    from games.timing import deadlines

    game = tumble_game()
    Game.objects.filter(pk=game.pk).update(warn_at=timezone.now() - timedelta(minutes=1))
    assert deadlines.warn_due() == 1
    warned = Notification.objects.filter(game=game, kind=Notification.Kind.DEADLINE_WARNING)
    assert sorted(warned.values_list("user__username", flat=True)) == ["ann", "bob"]
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert timeouts.time_out_due() == 1
    assert state_of(game).totals == (-13, -13)
    late = Notification.objects.filter(game=game, kind=Notification.Kind.TIMED_OUT)
    assert sorted(late.values_list("user__username", flat=True)) == ["ann", "bob"]
    assert [s.timeouts_in_a_row for s in game.seats.order_by("index")] == [1, 1]


# --- turn links, replies, the API --------------------------------------------------------


def test_a_turn_link_still_sends_after_the_other_player_handed_in(
    tumble_game: Callable[..., Game],
) -> None:
    game = tumble_game()
    link = turn_url(seat_user(game, 1).pk, game.pk, game.last_seq).split("8000", 1)[-1]
    door.submit(game.pk, 0, "submit CAT", 1, Event.Source.WEB)
    page = text(Client().get(link))
    assert "Opened from the link in your email" in page and 'id="move-form"' in page
    assert "no longer sends moves" not in page
    game.refresh_from_db()
    form = {"notation": rows(BOB_CROSSWORD), "expected_seq": "1", "idempotency_key": "l" * 20}
    assert Client().post(link, form).status_code == 302
    state = state_of(game)
    assert state.round == 2 and state.totals == (-4, BOB_POINTS)
    # Once the round has closed, the link of round 1 sends nothing more.
    stale = Client().post(link, form | {"idempotency_key": "m" * 20})
    assert stale.status_code == 409 and state_of(game).round == 2


def test_a_reply_by_email_is_read_as_rows_and_answered_with_its_score(
    tumble_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = tumble_game()
    outbox.sweep()
    ann = seat_user(game, 0)
    refused = inbound.receive(parsed(reply_mime(game, ann, "CAPED\nT....")), via="test")
    assert refused.status == InboundMail.Status.REFUSED
    assert "CT (down, from row 1, column 1) is not in the word list" in refused.reason
    prose = inbound.receive(parsed(reply_mime(game, ann, "looks hard, one moment")), via="t")
    assert prose.status == InboundMail.Status.REFUSED and "is not a row" in prose.reason
    assert game.events.count() == 1
    reply = f"{rows(ANN_CROSSWORD)}\n#{game.last_seq}\n\nGood luck!\n-- \nAnn"
    outcome = inbound.receive(parsed(reply_mime(game, ann, reply)), via="test")
    assert outcome.status == InboundMail.Status.MOVED
    assert state_of(game).submission_of(0) is not None
    mailoutbox.clear()
    outbox.sweep()
    done = next(m for m in mailoutbox if m.to == [ann.email] and "was made" in m.body)
    assert "Ann handed in a crossword for round 1 (sealed)." in done.body
    assert f"scoring {ANN_POINTS}:" in done.body and "CAPED (across, one colour): 10" in done.body
    assert 'data-hand="0"' in done.alternatives[0][0]


@pytest.fixture
def esp_webhooks() -> Iterator[None]:
    with override_settings(
        ANYMAIL={
            "WEBHOOK_SECRET": esp_payloads.BASIC_AUTH,
            "MAILGUN_WEBHOOK_SIGNING_KEY": esp_payloads.SIGNING_KEY,
        },
        JUMBULAYA_INBOUND_ESPS=["postmark", "mailgun"],
    ):
        yield


@pytest.mark.usefixtures("esp_webhooks")
def test_replies_by_postmark_and_mailgun_hand_in_crosswords(
    tumble_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = tumble_game()
    outbox.sweep()
    esp = Client(enforce_csrf_checks=True)
    ann, bob = seat_user(game, 0), seat_user(game, 1)
    postmark = esp_payloads.reply_to_turn(game, ann, rows(ANN_CROSSWORD))
    assert esp_payloads.post_json(esp, esp_payloads.postmark_payload(postmark)) == 200
    assert state_of(game).submission_of(0) is not None
    mailgun = esp_payloads.mailgun_parsed_form(esp_payloads.reply_to_turn(game, bob, "submit HERB"))
    assert esp_payloads.post_form(esp, esp_payloads.MAILGUN_INBOUND, mailgun) == 200
    assert state_of(game).totals == (ANN_POINTS, BOB_POINTS)


def test_the_api_names_both_movers_and_takes_a_crossword(
    tumble_game: Callable[..., Game],
) -> None:
    from accounts import access_tokens
    from tests.api.conftest import ApiClient

    game = tumble_game()
    ann = ApiClient(access_tokens.make(seat_user(game, 0), "test").token)
    bob = ApiClient(access_tokens.make(seat_user(game, 1), "test").token)
    seen = ann.get(f"/games/{game.pk}")
    assert seen.json["movers"] == [0, 1] and seen.json["your_turn"] is True
    assert bob.get(f"/games/{game.pk}").json["your_turn"] is True
    view = bob.get(f"/games/{game.pk}/view").json
    assert view["format"] == "tumble-view/1" and view["waiting"] == [0, 1]
    bad = ann.post(f"/games/{game.pk}/moves", {"move": "submit ZZZ", "expected_seq": 1})
    assert bad.status == 422 and bad.json["code"] == "face_not_rolled"
    made = ann.post(f"/games/{game.pk}/moves", {"move": "submit CAT", "expected_seq": 1})
    assert made.status == 200 and made.json["movers"] == [1]
    assert ann.get(f"/games/{game.pk}").json["your_turn"] is False
    assert bob.get(f"/games/{game.pk}/view").json["own"] is None
    assert ann.get(f"/games/{game.pk}/view").json["own"]["points"] == -4
    # Rows typed with spaces before them keep them, the first row too.
    shifted = "\n".join("  " + row.rstrip(".") for row in ANN_CROSSWORD)
    again = ann.post(f"/games/{game.pk}/moves", {"move": shifted, "expected_seq": 1})
    assert again.status == 200, again.text
    assert state_of(game).submission_of(0) == engine.state.Submission(
        "CAPED/A..../T.... colours: RRRRR/R..../R....", ANN_POINTS
    )


def test_a_spectator_sees_the_rolls_but_no_sealed_crossword(
    tumble_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = tumble_game(is_public=True)
    door.submit(game.pk, 0, "submit " + "/".join(ANN_CROSSWORD), 1, Event.Source.WEB)
    page = text(signed_in(make_user("eve")).get(f"/games/{game.pk}/"))
    assert "You are watching this game." in page and 'id="move-form"' not in page
    assert page.count('data-cube="') == 26
    assert "Ann has handed in a crossword (sealed)." in page
    assert "data-hand" not in page and "CAPED" not in page


# --- three players, by turns ------------------------------------------------------------


def test_three_players_play_the_one_set_in_turns(tumble_game: Callable[..., Game]) -> None:
    game = tumble_game(players=3, first=1)
    state = state_of(game)
    assert state.waiting() == (1,) and state.seats_in_round == (1,)
    cy = signed_in(seat_user(game, 2))
    off_turn = cy.post(f"/games/{game.pk}/move/", move_form(game, "CAT", "cyfirst"))
    assert off_turn.status_code == 422
    assert "It is Bob's turn, not yours" in text(off_turn)
    bob = signed_in(seat_user(game, 1))
    assert bob.post(f"/games/{game.pk}/move/", move_form(game, "CAT", "bobturn")).status_code == 302
    state = state_of(game)
    assert state.totals == (0, -4, 0) and state.waiting() == (2,)
    assert game.turn_seat == 2 and not game.may_move(1)
    page = text(cy.get(f"/games/{game.pk}/"))
    assert "It is your turn." in page and "Round 1 scored: Bob scored -4 with CAT." in page
    assert "Your roll" in page


# --- the record, the end, the dashboard ------------------------------------------------


def test_the_record_downloads_once_over_and_replays_with_manage_py(
    tumble_game: Callable[..., Game], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tumble_game()
    door.submit(game.pk, 0, "submit " + "/".join(ANN_CROSSWORD), 1, Event.Source.WEB)
    game.refresh_from_db()
    door.submit(game.pk, 1, "submit HERB", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    client = signed_in(seat_user(game, 0))
    early = client.get(f"/games/{game.pk}/record.json")
    assert early.status_code == 409
    assert "each player's sealed crossword of the round still open" in text(early)
    door.submit(game.pk, 1, "resign", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    response = client.get(f"/games/{game.pk}/record.json")
    record = json.loads(response.content)
    assert record["format"] == "tumble-record/1" and record["rolls"] == [
        "AECDAPTOBRXEH",
        "AECDAPTOBRXEH",
    ]
    assert record["turns"][0] == {
        "seat": 0,
        "move": "submit CAPED/A..../T.... colours: RRRRR/R..../R....",
    }
    assert record["turns"][-1] == {"seat": 1, "move": "resign"}
    replay = text(client.get(f"/games/{game.pk}/replay/?step=2"))
    assert "Totals after step 2" in replay and "handed in (sealed in play)" in replay
    out = replayed(response.content, tmp_path, capsys)
    assert out["status"] == "over" and out["winners"] == [0]
    assert out["totals"] == [ANN_POINTS, BOB_POINTS]
    dashboard = text(client.get("/dashboard/"))
    assert "You won" in dashboard and "Tumble-Words" in dashboard
