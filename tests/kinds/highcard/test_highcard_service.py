"""The service runs high card, a second kind, through its real paths: the
create page, the game page (previews, refusals, questions), emails and replies
by email, deadlines, spectators, records and their replay, the dashboard (the
turn link is every kind's: tests/contract/).  Nothing here is special-cased
for the kind: where the core broke for it, the core was fixed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.core import door, timeouts
from games.kinds.base import GameKind
from games.mail_in import inbound
from games.mail_out import outbox
from games.models import Event, Game, InboundMail, Notification
from tests.contract.play import move_form, replayed, seat_user, signed_in, state_as, text
from tests.inbound.inbound_mails import parsed, reply_mime

from .engine import State

CREATE = "/games/new/"


def state_of(game: Game) -> State:
    return state_as(game, State)


# --- the create page ---------------------------------------------------------------


def high_card_form(**changes: str) -> dict[str, str]:
    data = {
        "kind": "highcard",
        "seat_count": "3",
        "preset": "standard",
        "options_from": "standard",
        "hand_size": "5",
        "top_card": "40",
        "move_hours": "72",
        "invite_emails": "bob@example.com\ncy@example.com",
    }
    return {k: v for k, v in (data | changes).items() if v}


def test_the_create_page_offers_each_kind_with_its_own_options(
    highcard: GameKind, make_user: Callable[[str], User]
) -> None:
    html = text(signed_in(make_user("ann")).get(CREATE))
    # A choice of game, as radio buttons (keyboard-usable), each said in a line.
    assert 'type="radio" name="kind" value="jumbulaya"' in html
    assert 'type="radio" name="kind" value="highcard"' in html
    assert "<strong>High card</strong>: the card game of the highest card (2 to 4 players)" in html
    # JUMBULAYA's options shown and sent; high card's hidden and disabled, generated
    # from its option fields and groups, with ids of their own.
    assert re.search(r'data-kind-options="jumbulaya">\s*<fieldset aria-describedby', html)
    hidden = html[html.index('data-kind-options="highcard"') :]
    assert hidden.startswith('data-kind-options="highcard" hidden>')
    assert '<fieldset aria-describedby="group-highcard-cards" disabled>' in hidden
    assert "<legend>Deck</legend>" in hidden and "Cards in each hand" in hidden
    assert 'id="id_highcard-hand_size"' in hidden and 'value="5"' in hidden
    assert '"highcard": {"standard": {"hand_size": 5, "top_card": 40}' in html
    # 2 to 6 across the kinds (Tumble-Words seats up to six)
    assert '<option value="6">6 players</option>' in html
    assert '<option value="7">7 players</option>' not in html


def test_a_game_of_the_chosen_kind_is_created_with_its_options(
    highcard: GameKind, make_user: Callable[[str], User]
) -> None:
    response = signed_in(make_user("ann")).post(CREATE, high_card_form(hand_size="3"))
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.kind == "highcard" and game.seat_count == 3
    assert game.rules == {"preset": "standard", "hand_size": 3}
    assert game.lexicon_name == "" and not game.hints


def test_the_chosen_kind_s_options_are_checked(
    highcard: GameKind, make_user: Callable[[str], User]
) -> None:
    client = signed_in(make_user("ann"))
    response = client.post(CREATE, high_card_form(hand_size="9", top_card="10"))
    assert response.status_code == 400
    html = text(response)
    assert "Ensure this value is less than or equal to 8." in html
    assert "Ensure this value is greater than or equal to 32." in html
    # The refused form shows high card's options, JUMBULAYA's hidden now.
    assert 'data-kind-options="highcard">' in html
    assert 'data-kind-options="jumbulaya" hidden>' in html
    assert not Game.objects.exists()


def test_without_the_script_a_button_shows_the_chosen_kind_s_options(
    highcard: GameKind, make_user: Callable[[str], User]
) -> None:
    client = signed_in(make_user("ann"))
    shown = {"kind": "highcard", "seat_count": "2", "move_hours": "24", "show_kind": "yes"}
    html = text(client.post(CREATE, shown | {"rack_limit": "3"}))
    assert not Game.objects.exists()
    assert 'data-kind-options="highcard">' in html and "The game was not created" not in html
    assert 'name="hand_size" value="5"' in html  # the first preset's
    assert 'name="move_hours" value="24"' in html  # what was written stays


# --- playing on the page --------------------------------------------------------------


def test_the_game_page_shows_the_own_hand_previews_and_refuses_with_reasons(
    card_game: Callable[..., Game],
) -> None:
    game = card_game()
    state = state_of(game)
    mover = state.turn
    assert mover is not None
    other = 1 - mover
    client = signed_in(seat_user(game, mover))
    base = f"/games/{game.pk}/"
    page = text(client.get(base))
    assert f'data-hand="{mover}"' in page and f'data-hand="{other}"' not in page
    for card in state.hands[mover]:
        assert f'data-card="{card}"' in page
    for card in state.hands[other]:
        assert f'data-card="{card}"' not in page
    assert "5 cards in hand" in page and "It is your turn." in page
    card = state.hands[mover][0]
    preview = text(client.post(f"{base}preview/", {"notation": f"play {card}"}))
    assert f"Play the {card}." in preview
    missing = next(c for c in range(1, 41) if c not in state.hands[mover])
    refused = client.post(f"{base}move/", move_form(game, f"play {missing}", "refusedmove1"))
    assert refused.status_code == 422
    assert f"You hold no card {missing}: play a card of your hand." in text(refused)
    other_client = signed_in(seat_user(game, other))
    late = other_client.post(
        f"{base}move/", move_form(game, f"play {state.hands[other][0]}", "latemove1234")
    )
    assert late.status_code == 422 and "not yours" in text(late)
    asked = text(client.post(f"{base}move/", move_form(game, "pass", "passmove1234")))
    assert "Pass your turn?" in asked and game.events.count() == 1
    made = client.post(f"{base}move/", move_form(game, f"play {card}", "playmove1234"))
    assert made.status_code == 302
    assert [e.type for e in game.events.order_by("seq")] == ["dealt", "played"]
    assert f"played the {card}" in text(client.get(base))


def test_a_round_won_and_the_game_over_through_the_service(
    card_game: Callable[..., Game],
) -> None:
    game = card_game(preset="quick")
    analysis = signed_in(seat_user(game, 0)).get(f"/games/{game.pk}/analysis/")
    assert analysis.status_code == 404  # a kind without analyses has no such page
    while not (state := state_of(game)).over:
        assert state.turn is not None
        card = state.hands[state.turn][-1]
        door.submit(game.pk, state.turn, f"play {card}", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "cards"
    assert sum(state.scores) == 3  # three rounds, a point each
    page = text(signed_in(seat_user(game, 0)).get(f"/games/{game.pk}/"))
    assert "The game is over</strong>: every hand was played out." in page
    assert "Download the record" in page and "Analysis</a>" not in page
    dashboard = text(signed_in(seat_user(game, 0)).get("/dashboard/"))
    assert "High card" in dashboard
    for score in state.scores:
        assert f"{score}" in dashboard


# --- emails, replies, links -------------------------------------------------------------


def test_your_turn_emails_and_a_reply_by_email_make_the_move(
    card_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = card_game()
    outbox.sweep()
    state = state_of(game)
    assert state.turn is not None
    mover = seat_user(game, state.turn)
    turn_mail = next(m for m in mailoutbox if m.to == [mover.email] and "your turn" in m.subject)
    hand = " ".join(str(c) for c in state.hands[state.turn])
    assert f"Your hand: {hand}" in turn_mail.body
    assert f"“play 7 #{game.last_seq}”" in turn_mail.body
    other = state.hands[1 - state.turn]
    assert " ".join(str(c) for c in other) not in turn_mail.body

    card = state.hands[state.turn][1]
    outcome = inbound.receive(
        parsed(reply_mime(game, mover, f"Play {card}, please? no: {card}")), via="test"
    )
    assert outcome.status == InboundMail.Status.REFUSED  # not a move line
    outcome = inbound.receive(
        parsed(reply_mime(game, mover, f"{card} #{game.last_seq}")), via="test"
    )
    assert outcome.status == InboundMail.Status.MOVED
    assert state_of(game).table == ((state.turn, card),)
    outbox.sweep()
    done = next(m for m in mailoutbox if "Done, your move was made" in m.body)
    assert "Done, your move was made: " in done.body and f"play {card}" not in done.body
    assert f"played the {card}." in done.body


def test_a_missed_deadline_passes_the_turn(card_game: Callable[..., Game]) -> None:
    game = card_game()
    seat = state_of(game).turn
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert timeouts.time_out_due() == 1
    last = game.events.order_by("-seq").first()
    assert last is not None and last.type == "timed_out" and last.seat == seat
    assert Notification.objects.filter(game=game, kind=Notification.Kind.TIMED_OUT).exists()
    assert state_of(game).turn == 1 - seat  # type: ignore[operator]


def test_a_spectator_sees_the_table_but_no_hand(
    card_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = card_game(is_public=True)
    page = text(signed_in(make_user("eve")).get(f"/games/{game.pk}/"))
    assert "You are watching this game." in page and "data-hand" not in page
    assert "data-card" not in page and 'id="move-form"' not in page


# --- records ------------------------------------------------------------------------------


def test_the_record_downloads_once_over_and_replays_with_manage_py(
    card_game: Callable[..., Game], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = card_game(preset="quick")
    client = signed_in(seat_user(game, 0))
    early = client.get(f"/games/{game.pk}/record.json")
    assert early.status_code == 409
    assert "A record holds every hand, so it can be downloaded once" in text(early)
    door.submit(game.pk, 1, "resign", game.last_seq, Event.Source.WEB)
    response = client.get(f"/games/{game.pk}/record.json")
    assert response["Content-Disposition"] == f'attachment; filename="highcard-game-{game.pk}.json"'
    record = json.loads(response.content)
    assert record["format"] == "highcard-record/1" and record["turns"][-1] == {
        "seat": 1,
        "move": "resign",
    }
    replay = text(client.get(f"/games/{game.pk}/replay/?step=1"))
    assert "Step 1 of 1" in replay and "Hands after step 1" in replay
    out = replayed(response.content, tmp_path, capsys)
    assert out["status"] == "over" and out["end"] == "resigned" and out["winners"] == [0]
