"""A game's emails over several moves: subjects that say the game and what
happened, one thread per player (the game-started email is its root, every
other email answers it), replies to any of them still matched to the player,
and a renamed player's new name in every email after the change.

The deal is tests/conftest.py's ``board_game``: nine moves claim the board and
the ninth (Ann's "9 CUT") makes a JUMBULAYA callable; SPRINTS runs down it.
"""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
from anymail.inbound import AnymailInboundMessage
from django.conf import settings

from accounts.models import User
from games.core import door, projection
from games.kinds.jumbulaya.replies import read_reply
from games.mail_in import inbound
from games.mail_out import outbox
from games.mail_out.emails import thread_id
from games.mail_out.reply_addresses import ReplyToken, find_token
from games.models import Event, Game, Notification
from tests.conftest import CLAIM_THE_BOARD

ANN, BOB = 0, 1


def user_at(game: Game, seat: int) -> User:
    user = game.seats.get(index=seat).user
    assert user is not None
    return user


def play(game: Game, moves: list[str]) -> None:
    """Each move by the seat whose turn it is, its emails sent after it."""
    for move in moves:
        game.refresh_from_db()
        assert game.turn_seat is not None
        door.submit(game.pk, game.turn_seat, move, game.last_seq, Event.Source.WEB)
        outbox.sweep()


def mail_of(mailoutbox: list[Any], user: User) -> list[Any]:
    return [m for m in mailoutbox if m.to == [user.email]]


@pytest.mark.slow
def test_subjects_say_the_game_and_what_happened(
    board_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = board_game(claim_window=False)
    outbox.sweep()
    play(game, [*CLAIM_THE_BOARD, "jumbulaya sprints"])
    ann, bob = user_at(game, ANN), user_at(game, BOB)
    scores = projection.current_state(Game.objects.get(pk=game.pk)).scores()
    g = game.pk
    over = f"Game {g} is over: Bob won (Ann {scores[ANN]}, Bob {scores[BOB]})"

    def subjects(user: User) -> list[str]:
        # The fixture rigs the deal after it was owed to whoever the random
        # deal chose to move first: that first turn email is left out.
        return [m.subject for m in mail_of(mailoutbox, user) if "move first" not in m.subject]

    assert subjects(ann) == [
        f"Game {g} has started: you against Bob",
        f"Game {g}: your turn — Bob played APE",
        f"Game {g}: your turn — Bob played DIM",
        f"Game {g}: your turn — Bob played OAT",
        f"Game {g}: your turn — Bob played STOW",  # "8 [ST]OW" in the notation
        over,
    ]
    assert subjects(bob) == [
        f"Game {g} has started: you against Ann",
        f"Game {g}: your turn — Ann played STRANGE",
        f"Game {g}: your turn — Ann played ORB",
        f"Game {g}: your turn — Ann played TEN",
        f"Game {g}: your turn — Ann played BUS",
        f"Game {g}: your turn — Ann played CUT",
        over,
    ]
    for message in mailoutbox:  # a reply that leaves the subject as it is makes no move
        assert read_reply("", f"Re: {message.subject}").move is None
    last = mail_of(mailoutbox, ann)[-2]
    assert last.body.count("Bob played STOW on line 8") == 2  # the news, and the last moves


def test_each_players_emails_thread_under_their_game_started_email(
    board_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = board_game(claim_window=False)
    outbox.sweep()
    play(game, CLAIM_THE_BOARD[:4])
    for seat in (ANN, BOB):
        user = user_at(game, seat)
        mine = mail_of(mailoutbox, user)
        assert len(mine) >= 3
        root = thread_id(game.pk, user.pk)
        assert "has started" in mine[0].subject
        assert mine[0].extra_headers["Message-ID"] == root
        assert "In-Reply-To" not in mine[0].extra_headers
        for message in mine[1:]:
            assert message.extra_headers["In-Reply-To"] == root
            assert message.extra_headers["References"] == root
        ids = [m.extra_headers["Message-ID"] for m in mine]
        assert len(set(ids)) == len(ids)
        for message_id in ids:  # a reply to any of them names the player and game
            assert find_token([], [message_id]) == ReplyToken(game.pk, user.pk)
    roots = {thread_id(game.pk, user_at(game, s).pk) for s in (ANN, BOB)}
    assert len(roots) == 2


def test_a_reply_to_the_thread_root_from_any_client_makes_the_move(
    started_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    """A client that answers the From address, not the Reply-To, to the
    game-started email: the root's Message-ID carries the token."""
    game = started_game()
    outbox.sweep()
    assert game.turn_seat is not None
    player = user_at(game, game.turn_seat)
    (root_mail,) = [m for m in mail_of(mailoutbox, player) if "has started" in m.subject]
    root = root_mail.extra_headers["Message-ID"]
    reply = EmailMessage()
    reply["From"] = player.email
    reply["To"] = settings.DEFAULT_FROM_EMAIL
    reply["Subject"] = f"Re: {root_mail.subject}"
    reply["Message-ID"] = make_msgid(domain="client.example")
    reply["In-Reply-To"] = root
    reply["References"] = root
    reply.set_content("pass\n")
    received = AnymailInboundMessage.parse_raw_mime_bytes(reply.as_bytes())
    assert inbound.receive(received, via="test").status == "moved"
    outbox.sweep()
    (answer,) = [m for m in mail_of(mailoutbox, player) if "Done" in m.body]
    assert answer.extra_headers["In-Reply-To"] == reply["Message-ID"]
    assert answer.extra_headers["References"] == f"{root} {reply['Message-ID']}"


def test_a_renamed_player_shows_the_new_name_in_new_emails(
    board_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = board_game(claim_window=False)
    outbox.sweep()
    play(game, CLAIM_THE_BOARD[:2])
    User.objects.filter(pk=user_at(game, ANN).pk).update(display_name="Annabel")
    mailoutbox.clear()
    play(game, CLAIM_THE_BOARD[2:3])
    (turn,) = mail_of(mailoutbox, user_at(game, BOB))
    assert turn.subject == f"Game {game.pk}: your turn — Annabel played ORB"
    html = next(str(c) for c, mime in turn.alternatives if mime == "text/html")
    for text in (turn.body, html):
        assert "Annabel played STRANGE on line 1" in text  # an older move of the log
        assert "Ann played" not in text and "Ann 1" not in text
    assert Notification.objects.filter(sent_at__isnull=True).count() == 0
