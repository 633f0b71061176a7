"""Blockers through the service's real paths: the create page (3 to 5 seats),
the game page (previews, refusals, questions), "your turn" emails and a reply
by email, a deadline's auto-pass, spectators, the record and its replay, the
dashboard's winner.  Replies as Postmark and Mailgun post them, turn links and
the players' messages are every kind's: tests/contract/."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.core import door, timeouts
from games.engine import blockers as engine
from games.engine.blockers.board import SQUARE_INDEX, fits
from games.kinds.blockers.seat_view import tile_words
from games.mail_in import inbound
from games.mail_out import outbox
from games.models import Event, Game, InboundMail, Notification
from tests.contract.play import move_form, replayed, seat_user, signed_in, state_as, text
from tests.inbound.inbound_mails import parsed, reply_mime

from .conftest import pile

CREATE = "/games/new/"


def state_of(game: Game) -> engine.BlockersState:
    return state_as(game, engine.BlockersState)


def to_move(game: Game) -> tuple[engine.BlockersState, int]:
    state = state_of(game)
    assert state.turn is not None
    return state, state.turn


def empty_square_move(state: engine.BlockersState, seat: int) -> engine.Move:
    return next(m for m in engine.legal_moves(state, seat) if m.captured is None)


# --- the create page ---------------------------------------------------------------


def blockers_form(**changes: str) -> dict[str, str]:
    data = {
        "kind": "blockers",
        "seat_count": "3",
        "preset": "standard",
        "options_from": "standard",
        "move_hours": "72",
        "invite_emails": "bob@example.com\ncy@example.com",
    }
    return {k: v for k, v in (data | changes).items() if v}


def test_the_create_page_offers_blockers_for_3_to_5_players(
    make_user: Callable[[str], User],
) -> None:
    html = text(signed_in(make_user("ann")).get(CREATE))
    assert 'type="radio" name="kind" value="blockers"' in html
    assert "<strong>Blockers</strong>: the tile-placing game of the fewest groups (3 to 5" in html
    assert '<option value="5">5 players</option>' in html


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_a_game_of_blockers_is_created_for_3_to_5_players(
    make_user: Callable[[str], User], seats: int
) -> None:
    invited = "\n".join(f"p{i}@example.com" for i in range(seats - 1))
    response = signed_in(make_user("ann")).post(
        CREATE, blockers_form(seat_count=str(seats), invite_emails=invited)
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.kind == "blockers" and game.seat_count == seats
    assert game.rules == {"preset": "standard", "colours": []}
    assert game.lexicon_name == ""


def test_blockers_refuses_two_players(make_user: Callable[[str], User]) -> None:
    response = signed_in(make_user("ann")).post(
        CREATE, blockers_form(seat_count="2", invite_emails="bob@example.com")
    )
    assert response.status_code == 400
    assert not Game.objects.exists()
    html = text(response)
    assert "A game of Blockers has 3 to 5 players." in html


# --- playing on the page --------------------------------------------------------------


def test_the_page_shows_the_board_the_own_rack_previews_and_refusals(
    blockers_game: Callable[..., Game],
) -> None:
    game = blockers_game()
    state, mover = to_move(game)
    client = signed_in(seat_user(game, mover))
    base = f"/games/{game.pk}/"
    page = text(client.get(base))
    # The board is a table with its coordinates, each square named with its sector.
    assert '<th scope="row">A</th>' in page and '<th scope="col">9</th>' in page
    assert 'aria-label="E5, sector S5, empty"' in page
    assert page.count("data-pick-square=") == 81
    # The own rack only, its tiles marked for the leak scan.
    assert f'data-rack="{mover}"' in page
    assert page.count("data-tile=") == len(state.racks[mover])
    assert "It is your turn." in page and "The fewest points win" in page

    move = empty_square_move(state, mover)
    preview = text(client.post(f"{base}preview/", {"notation": move.notation().lower()}))
    square = engine.SQUARE_NAMES[move.square]
    assert f"on the empty square {square}." in preview
    assert "Your groups: 0 → 1; your score: 0 → 1 (the fewest points win)." in preview

    # Refusals: a tile not in the rack, a tile off its column, a pass with moves left.
    missing = next(t for t in engine.TILE_SET if t not in state.racks[mover] and t.isdigit())
    refused = client.post(f"{base}move/", move_form(game, f"{missing} at A{missing}", "norack01"))
    assert refused.status_code == 422
    assert f"there is no {missing} in it." in text(refused)
    tile = next(t for t in state.racks[mover] if t != engine.WILD)
    off_square = next(n for n in engine.SQUARE_NAMES if not fits(tile, SQUARE_INDEX[n]))
    off = client.post(f"{base}move/", move_form(game, f"{tile} at {off_square}", "wrongsq1"))
    assert off.status_code == 422 and f"{tile} goes in " in text(off)
    passing = client.post(f"{base}move/", move_form(game, "pass", "passmove") | {"confirmed": "1"})
    assert "You cannot pass: you have a legal move" in text(passing)
    other = signed_in(seat_user(game, (mover + 1) % 3))
    late = other.post(f"{base}move/", move_form(game, move.notation(), "latemove"))
    assert late.status_code == 422 and "not yours" in text(late)
    assert game.events.count() == 1

    asked = text(client.post(f"{base}move/", move_form(game, "resign", "resignq1")))
    assert "Resign from this game?" in asked and game.events.count() == 1
    made = client.post(f"{base}move/", move_form(game, move.notation(), "placemov"))
    assert made.status_code == 302
    assert [e.type for e in game.events.order_by("seq")] == ["game_started", "tile_placed"]
    name = seat_user(game, mover).public_name
    said = f"{name} ({engine.COLOURS[mover]}) placed {tile_words(move.tile)} at {square}."
    assert said in text(client.get(base))


def test_a_capture_is_previewed_with_the_groups_and_scores_after(
    rigged_blockers: Callable[..., Game],
) -> None:
    game = rigged_blockers([pile("1", "2", "3", "4", "5"), pile("A", "B", "C", "D", "E"),
                            pile("6", "7", "8", "9", "F")])  # fmt: skip
    door.submit(game.pk, 0, "1 at A1", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    bob = signed_in(seat_user(game, 1))
    preview = text(bob.post(f"/games/{game.pk}/preview/", {"notation": "a a1"}))
    # Ann's 1 at A1 is a lone tile: Bob's A (row A) may take it.
    assert "Place the letter A at A1, capturing Ann's yellow 1." in preview
    assert "The letter A goes in row A." in preview
    assert "You will have taken 1 tile of yellow; your most-taken colour counts 1" in preview
    assert "Ann goes from 1 group to 0." in preview
    assert "Your groups: 0 → 1; your score: 0 → 2 (the fewest points win)." in preview
    assert "Scores after this move: Ann 0, Bob 2, Cy 0." in preview
    assert game.events.count() == 2  # a preview changes nothing


# --- emails, replies, links -------------------------------------------------------------


def test_your_turn_email_shows_the_board_both_ways_and_a_reply_moves(
    blockers_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = blockers_game()
    outbox.sweep()
    state, seat = to_move(game)
    mover = seat_user(game, seat)
    mail = next(m for m in mailoutbox if m.to == [mover.email] and "started" in m.subject)
    rack = " ".join(engine.board.sort_tiles(state.racks[seat]))
    assert f"Your rack ({engine.COLOURS[seat]}): {rack}" in mail.body
    assert "    1   2   3   4   5   6   7   8   9" in mail.body  # the text grid's columns
    assert " E  .   .   ." in mail.body and "y = yellow" in mail.body
    html = mail.alternatives[0][0]
    assert '<th scope="row" style="padding:2px 4px;">E</th>' in html
    assert f'data-rack="{seat}"' in html
    for other in range(3):
        if other != seat:
            assert " ".join(engine.board.sort_tiles(state.racks[other])) not in mail.body

    move = empty_square_move(state, seat)
    square = engine.SQUARE_NAMES[move.square]
    refused = inbound.receive(parsed(reply_mime(game, mover, "what a nice game")), via="test")
    assert refused.status == InboundMail.Status.REFUSED
    # Square first, lower case, no "at": read as the tile on the square.
    reply = f"{square.lower()} {move.tile.lower()} #{game.last_seq}"
    outcome = inbound.receive(parsed(reply_mime(game, mover, reply)), via="test")
    assert outcome.status == InboundMail.Status.MOVED
    after = state_of(game)
    assert after.faces[move.square] == move.tile and after.owners[move.square] == seat
    outbox.sweep()
    done = next(m for m in mailoutbox if "Done, your move was made" in m.body)
    assert f"Done, your move was made: {mover.public_name} (" in done.body
    assert f" {move.tile} at {square}." in done.body


def test_a_missed_deadline_plays_the_first_legal_move_and_says_so(
    blockers_game: Callable[..., Game],
) -> None:
    game = blockers_game()
    state, seat = to_move(game)
    expected = engine.first_move(state, seat)
    assert expected is not None and expected.captured is None  # an empty board
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert timeouts.time_out_due() == 1
    last = game.events.order_by("-seq").first()
    assert last is not None and last.type == "timed_out" and last.seat == seat
    assert Notification.objects.filter(game=game, kind=Notification.Kind.TIMED_OUT).exists()
    after = state_of(game)
    assert after.owners[expected.square] == seat and after.turn == (seat + 1) % 3
    page = text(signed_in(seat_user(game, seat)).get(f"/games/{game.pk}/"))
    square = engine.SQUARE_NAMES[expected.square]
    assert "ran out of time, so the service played the first legal move for them" in page
    assert f"at {square}." in page


def test_a_spectator_sees_the_board_but_no_rack(
    blockers_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = blockers_game(is_public=True)
    page = text(signed_in(make_user("eve")).get(f"/games/{game.pk}/"))
    assert "You are watching this game." in page and "data-rack" not in page
    assert "data-tile" not in page and 'id="move-form"' not in page
    assert "data-pick-square" not in page and 'aria-label="Rows' not in page
    assert '<th scope="row">I</th>' in page


# --- records, the end, the dashboard --------------------------------------------------------


def test_a_turn_draws_with_the_system_generator_from_the_whole_pile_when_made(
    blockers_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is drawn in advance (issue 27): the service's placement picks
    its tile with ``secrets.SystemRandom``, then, from all 23 in the pile."""
    from games.engine.blockers import commands

    picked: list[int] = []

    class Watched(secrets.SystemRandom):
        def choice(self, seq: Any) -> Any:
            picked.append(len(seq))
            return super().choice(seq)

    assert type(commands._RANDOM) is secrets.SystemRandom
    monkeypatch.setattr(commands, "_RANDOM", Watched())
    game = blockers_game()
    state, seat = to_move(game)
    move = empty_square_move(state, seat)
    door.submit(game.pk, seat, move.notation(), game.last_seq, Event.Source.WEB)
    assert picked == [23]


def test_the_record_downloads_once_over_and_replays_with_manage_py(
    blockers_game: Callable[..., Game], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = blockers_game()
    state, seat = to_move(game)
    move = empty_square_move(state, seat)
    door.submit(game.pk, seat, move.notation(), game.last_seq, Event.Source.WEB)
    client = signed_in(seat_user(game, 0))
    early = client.get(f"/games/{game.pk}/record.json")
    assert early.status_code == 409
    assert "every player's rack and pile" in text(early)
    for quitter in [s for s in range(3) if s != seat][:2]:
        game.refresh_from_db()
        door.submit(game.pk, quitter, "resign", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    response = client.get(f"/games/{game.pk}/record.json")
    assert response["Content-Disposition"] == f'attachment; filename="blockers-game-{game.pk}.json"'
    record = json.loads(response.content)
    assert record["format"] == "blockers-record/1"
    drawn = next(t for t in state_of(game).racks[seat] if t not in state.racks[seat])
    assert record["turns"][0] == {"seat": seat, "move": move.notation(), "draw": drawn}
    assert [len(p) for p in record["piles"]] == [28, 28, 28]
    replay = text(client.get(f"/games/{game.pk}/replay/?step=1"))
    assert "Step 1 of 3" in replay and "Racks after step 1" in replay
    assert 'class="col-' in replay and " changed" in replay
    out = replayed(response.content, tmp_path, capsys)
    assert out["status"] == "over" and out["end"] == "resigned" and out["winners"] == [seat]
    dashboard = text(signed_in(seat_user(game, seat)).get("/dashboard/"))
    assert "You won" in dashboard and "Blockers" in dashboard
