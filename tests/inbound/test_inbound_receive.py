"""The one path every email reply takes: who may act, what is read, what is
made, and the answer owed in the game's thread."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.core import mail
from django.test import override_settings
from inbound_mails import answers, mover, parsed, reply_mime, seat_user, waiting

from accounts.models import User
from games.core import door, projection
from games.engine.jumbulaya import legal_moves
from games.kinds.jumbulaya.replies import read_reply
from games.mail_in import inbound
from games.mail_out import outbox
from games.mail_out.emails import message_for
from games.models import Event, Game, InboundMail, Notification
from tests.conftest import BOARD_LINES, BOARD_RACKS, CLAIM_THE_BOARD

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def a_word_move(game: Game) -> str:
    state = projection.current_state(game)
    assert state.turn is not None
    moves = [m for m in legal_moves(state, state.turn, projection.game_lexicon(game))]
    words = [m.notation() for m in moves if m.notation()[0].isdigit()]
    assert words, "a fresh deal has a word to play"
    return words[0]


def events(game: Game) -> list[str]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("type", flat=True))


def test_a_reply_with_a_move_makes_it_and_is_answered(two_player: Game) -> None:
    game = two_player
    ann, other = mover(game), waiting(game)
    move = a_word_move(game)
    outcome = inbound.receive(
        parsed(reply_mime(game, ann, f"Hi!\n\n{move.lower()}\n\nAnn")), via="test"
    )
    assert outcome.status == "moved"
    row = InboundMail.objects.get()
    assert (row.status, row.move, row.user, row.game) == ("moved", move, ann, game)
    assert events(game)[-1] == "word_built"
    assert Event.objects.filter(game=game).last().source == "email"  # type: ignore[union-attr]
    done = answers(ann)
    assert [n.kind for n in done] == [Kind.REPLY_DONE]
    assert Notification.objects.filter(user=other, kind=Kind.YOUR_TURN, event_seq=2).exists()

    message = message_for(Notification.objects.select_related("game", "user").get(pk=done[0].pk))
    assert message is not None
    assert message.extra_headers["In-Reply-To"] == row.message_id
    assert row.message_id in message.extra_headers["References"]
    assert message.extra_headers["Auto-Submitted"] == "auto-replied"
    assert re.search(r"Done, your move was made: \w+ played [A-Z]+ on line \d", message.body)
    assert f"“{move}”" not in message.body
    assert message.subject == f"Re: Your turn in game {game.pk}"


def test_a_refused_move_changes_nothing_and_says_why(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    outcome = inbound.receive(parsed(reply_mime(game, ann, "3 ZZZZQX")), via="test")
    assert outcome.status == "refused"
    assert events(game) == ["game_started"]
    (answer,) = answers(ann)
    assert answer.kind == Kind.REPLY_REFUSED
    message = message_for(Notification.objects.select_related("game", "user").get(pk=answer.pk))
    assert message is not None
    assert "was not played, and nothing changed" in message.body
    assert "> 3 ZZZZQX" in message.body  # what was read, quoted
    assert outcome.reason in message.body  # the rule it breaks, in the engine's words


def test_a_reply_without_a_move_is_refused_with_the_accepted_forms(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    outcome = inbound.receive(parsed(reply_mime(game, ann, "Can we play later?")), via="test")
    assert outcome.status == "refused"
    (answer,) = answers(ann)
    message = message_for(Notification.objects.select_related("game", "user").get(pk=answer.pk))
    assert message is not None
    assert "> Can we play later?" in message.body
    assert "pass" in message.body and "3 FACTS" in message.body
    assert events(game) == ["game_started"]


def test_a_reply_to_a_stale_position_is_refused_not_applied(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    outcome = inbound.receive(parsed(reply_mime(game, ann, "pass #1")), via="test")
    assert outcome.status == "moved"
    bob = mover(game)
    door.submit(game.pk, game.seats.get(user=bob).index, "pass", 2, "web")
    # Ann answers the old email again, naming move #1: the game is at #3 now.
    again = inbound.receive(parsed(reply_mime(game, ann, "pass #1")), via="test")
    assert again.status == "refused"
    assert "moved on" in again.reason and "#3" in again.reason
    assert events(game) == ["game_started", "passed", "passed"]
    ahead = inbound.receive(parsed(reply_mime(game, ann, "pass #9")), via="test")
    assert ahead.status == "refused"
    assert "names move #9, but the game is only at move #3" in ahead.reason
    assert events(game) == ["game_started", "passed", "passed"]


def test_an_old_email_still_works_while_the_move_is_legal(two_player: Game) -> None:
    """No ``#N``: the token is long-lived and the move is checked against the game now."""
    game = two_player
    ann = mover(game)
    bob = waiting(game)
    inbound.receive(parsed(reply_mime(game, ann, "pass")), via="test")
    inbound.receive(parsed(reply_mime(game, bob, "pass")), via="test")
    assert inbound.receive(parsed(reply_mime(game, ann, "pass")), via="test").status == "moved"
    assert events(game) == ["game_started", "passed", "passed", "passed"]


def test_resign_and_out_of_turn_moves(two_player: Game) -> None:
    game = two_player
    bob = waiting(game)
    out_of_turn = inbound.receive(parsed(reply_mime(game, bob, "pass")), via="test")
    assert out_of_turn.status == "refused"
    said = inbound.receive(parsed(reply_mime(game, bob, "I resign.")), via="test")
    assert said.status == "refused" and said.reason == inbound.UNCONFIRMED_RESIGN
    assert events(game) == ["game_started"]
    resigned = inbound.receive(parsed(reply_mime(game, bob, "Resign.")), via="test")
    assert resigned.status == "moved"
    assert events(game)[-1] == "resigned"


def test_the_same_message_delivered_46_times_makes_one_move(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    mime = reply_mime(game, ann, "pass")
    outcomes = [inbound.receive(parsed(mime), via="test").status for _ in range(46)]
    assert outcomes == ["moved"] + ["duplicate"] * 45
    assert events(game) == ["game_started", "passed"]
    assert InboundMail.objects.count() == 1
    assert len(answers(ann)) == 1


def test_a_message_without_message_id_is_deduplicated_by_its_content(two_player: Game) -> None:
    """Delivered again by another route: the relays' headers differ, the
    message is the same."""
    game = two_player
    ann = mover(game)
    mime = reply_mime(game, ann, "pass")
    del mime["Message-ID"]
    mime["Received"] = "from mx1.example.com by in.example.net; Tue, 3 Jun 2025 14:05:00 +0000"
    assert inbound.receive(parsed(mime), via="test").status == "moved"
    assert inbound.receive(parsed(mime), via="test").status == "duplicate"
    mime.replace_header(
        "Received", "from mx2.example.com by in.example.net; Tue, 3 Jun 2025 14:09:00 +0000"
    )
    mime["X-Esp-Delivery"] = "second attempt"
    assert inbound.receive(parsed(mime), via="test").status == "duplicate"
    assert InboundMail.objects.get().message_id.startswith("sha256:")
    assert events(game) == ["game_started", "passed"]


@pytest.mark.parametrize(
    ("body", "move"),
    [
        ("Let me think about it.\n\n-- \nAnn\nresign", None),
        ("Thinking.\n\nBest regards,\nAnn\npass", None),
        ("Will move later\n\nSent from my iPhone\npass", None),
        ("pass\n\n-- \nAnn\nresign", "pass"),
    ],
)
def test_nothing_in_a_signature_is_read(two_player: Game, body: str, move: str | None) -> None:
    game = two_player
    ann = mover(game)
    outcome = inbound.receive(parsed(reply_mime(game, ann, body)), via="test")
    assert outcome.status == ("moved" if move else "refused")
    assert InboundMail.objects.get().move == (move or "")
    assert "resigned" not in events(game)


def test_history_quoted_without_markers_is_not_read(two_player: Game) -> None:
    """Outlook quotes the email it answers under a header block, with no ">"
    and (when it was the HTML part) without our marker: none of it is read."""
    game = two_player
    ann = mover(game)
    body = (
        "I need to think.\n\n________________________________\nFrom: Jumbulaya\n"
        "Sent: Tuesday, June 3, 2025 2:00 PM\nTo: Ann\nSubject: Your turn\n\nresign\n"
    )
    mime = reply_mime(game, ann, "")
    mime.set_content(body)
    outcome = inbound.receive(parsed(mime), via="test")
    assert outcome.status == "refused"
    assert "resign" not in InboundMail.objects.get().read
    assert events(game) == ["game_started"]


@pytest.mark.parametrize("charset", ["unknown-8bit", "x-no-such-charset"])
def test_a_charset_nobody_knows_is_read_as_utf8_or_latin1(two_player: Game, charset: str) -> None:
    game = two_player
    ann = mover(game)
    mime = reply_mime(game, ann, "Très bien :\npass")
    mime.replace_header("Content-Type", f"text/plain; charset={charset}")
    outcome = inbound.receive(parsed(mime), via="test")
    assert outcome.status == "moved", outcome
    assert InboundMail.objects.get().read == "pass"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"sender": "mallory@example.net"}, "not the player"),
        ({"sender": "Ann <ann@example.com.evil.example>"}, "not the player"),
        ({"to": "play+g1u1kaaaaaaaaaaaaaaaa@reply.localhost"}, "no valid reply token"),
        ({"to": "someone@reply.localhost"}, "no valid reply token"),
    ],
)
def test_forged_or_unsigned_mail_is_dropped_without_an_answer(
    two_player: Game, change: dict[str, str], why: str
) -> None:
    game = two_player
    ann = mover(game)
    if "sender" in change and "ann" not in change["sender"]:
        pass
    outcome = inbound.receive(parsed(reply_mime(game, ann, "pass", **change)), via="test")
    assert outcome.status == "dropped"
    assert why in outcome.reason
    assert events(game) == ["game_started"]
    assert not Notification.objects.filter(kind__in=[Kind.REPLY_DONE, Kind.REPLY_REFUSED]).exists()


def test_another_players_token_does_not_let_them_move(two_player: Game) -> None:
    """Bob sends from his own address to Ann's reply address: dropped."""
    game = two_player
    ann, bob = mover(game), waiting(game)
    from games.mail_out.reply_addresses import reply_address

    mime = reply_mime(game, bob, "pass", to=reply_address(ann.pk, game.pk))
    assert inbound.receive(parsed(mime), via="test").status == "dropped"
    assert events(game) == ["game_started"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Auto-Submitted": "auto-generated"},
        {"X-Autoreply": "yes"},
        {"X-Autorespond": "Out of office"},
        {"Precedence": "bulk"},
        {"Precedence": "junk"},
        {"Precedence": "list"},
        {"Precedence": "auto_reply"},
        {"Precedence": "bulk (a list server)"},
        {"Auto-Submitted": "auto-replied (vacation)"},
        {"Auto-Submitted": ""},
        {"X-Autoreply": ""},
    ],
)
def test_automatic_mail_is_never_acted_on_nor_answered(
    two_player: Game, headers: dict[str, str]
) -> None:
    game = two_player
    ann = mover(game)
    outcome = inbound.receive(parsed(reply_mime(game, ann, "pass", headers=headers)), via="test")
    assert outcome.status == "dropped"
    assert events(game) == ["game_started"]
    assert answers(ann) == []


def test_a_header_given_twice_counts_whatever_it_says_first(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    for name, values in [
        ("Precedence", ["bulk", "bulk"]),
        ("Auto-Submitted", ["no", "auto-generated"]),
    ]:
        mime = reply_mime(game, ann, "pass")
        for value in values:
            mime[name] = value
        assert inbound.receive(parsed(mime), via="test").status == "dropped", name
    assert events(game) == ["game_started"]


@pytest.mark.parametrize("value", ["no", "No (sent by a person)", "no; note=typed"])
def test_auto_submitted_no_is_a_person(two_player: Game, value: str) -> None:
    game = two_player
    ann = mover(game)
    mime = reply_mime(game, ann, "pass", headers={"Auto-Submitted": value})
    assert inbound.receive(parsed(mime), via="test").status == "moved"


@pytest.mark.parametrize(
    ("sender", "why"),
    [
        ("MAILER-DAEMON@mx.example.com", "a bounce"),
        ("postmaster@example.com", "a bounce"),
        ("jumbulaya@localhost", "sent by this service"),
        ("anything@reply.localhost", "sent by this service"),
    ],
)
def test_bounces_and_our_own_mail_are_dropped(two_player: Game, sender: str, why: str) -> None:
    """Even from the address of the player the token names (a player's account
    could hold any address): the sender alone makes it automatic."""
    game = two_player
    ann = mover(game)
    User.objects.filter(pk=ann.pk).update(email=sender)
    ann.refresh_from_db()
    outcome = inbound.receive(parsed(reply_mime(game, ann, "pass")), via="test")
    assert outcome.status == "dropped"
    assert why in outcome.reason
    assert events(game) == ["game_started"]
    assert answers(ann) == []


@override_settings(JUMBULAYA_INBOUND_PER_HOUR=3)
def test_a_sender_over_the_hourly_limit_is_dropped(two_player: Game) -> None:
    game = two_player
    bob = waiting(game)
    statuses = [
        inbound.receive(parsed(reply_mime(game, bob, "pass")), via="test").status for _ in range(5)
    ]
    assert statuses == ["refused", "refused", "refused", "dropped", "dropped"]
    assert len(answers(bob)) == 3


def test_the_token_in_references_is_enough(two_player: Game) -> None:
    """A client that answers the From address: the Message-ID it answers names the token."""
    game = two_player
    ann = mover(game)
    outbox.owe(game, Kind.YOUR_TURN, users=[ann.pk], seq=game.last_seq)
    note = (
        Notification.objects.filter(user=ann, kind=Kind.YOUR_TURN)
        .select_related("game", "user")
        .last()
    )
    assert note is not None
    sent = message_for(note)
    assert sent is not None
    mime = reply_mime(
        game,
        ann,
        "pass",
        to="Jumbulaya <jumbulaya@localhost>",
        headers={"In-Reply-To": sent.extra_headers["Message-ID"]},
    )
    assert inbound.receive(parsed(mime), via="test").status == "moved"


def test_game_emails_carry_the_reply_address(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    note = (
        Notification.objects.filter(user=ann, kind=Kind.YOUR_TURN)
        .select_related("game", "user")
        .first()
    )
    if note is None:
        note = outbox.owe(game, Kind.YOUR_TURN, users=[ann.pk], seq=game.last_seq)[0]
    message = message_for(Notification.objects.select_related("game", "user").get(pk=note.pk))
    assert message is not None
    from games.mail_out.reply_addresses import verify

    assert verify(message.extra_headers["Reply-To"]) is not None
    assert f"#{game.last_seq}" in message.body  # the hint names this position


def test_a_sent_answer_goes_to_the_player_only(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    outbox.sweep()  # the game's first emails
    mail.outbox.clear()
    inbound.receive(parsed(reply_mime(game, ann, "pass")), via="test")
    outbox.sweep()
    to = sorted(m.to[0] for m in mail.outbox)
    bob = seat_user(game, 1 - game.seats.get(user=ann).index)
    assert to == sorted([ann.email, bob.email])  # Ann's answer, Bob's turn
    answer = next(m for m in mail.outbox if m.to == [ann.email])
    assert answer.subject.startswith("Re: ")


def test_the_game_over_is_refused_cleanly(started_game: Callable[..., Game]) -> None:
    game = started_game(players=2)
    ann, bob = mover(game), waiting(game)
    inbound.receive(parsed(reply_mime(game, bob, "resign")), via="test")
    outcome = inbound.receive(parsed(reply_mime(game, ann, "pass")), via="test")
    assert outcome.status == "refused"
    assert events(game) == ["game_started", "resigned"]


def test_the_answer_does_not_repeat_a_command_subject(two_player: Game) -> None:
    """A move read from the subject: the answer's subject must not carry it back."""
    game = two_player
    ann = mover(game)
    mime = reply_mime(game, ann, "", subject=f"pass - Re: Your turn in game {game.pk}")
    assert inbound.receive(parsed(mime), via="test").status == "moved"
    (answer,) = answers(ann)
    message = message_for(Notification.objects.select_related("game", "user").get(pk=answer.pk))
    assert message is not None
    assert message.subject == f"Game {game.pk}: your move was made — {ann.public_name} passed"
    assert read_reply("", f"Re: {message.subject}").move is None


def test_an_ambiguous_word_is_answered_with_the_spellings_accepted(
    rigged_game: Callable[..., Game], board_words: str
) -> None:
    """STOW on line 8 ([ST] O W) with S and T in the rack: the line as it is, or
    S-T-O-W trading the [ST] tile to the rack."""
    racks = [["S", "T", "A", "B", "D"], BOARD_RACKS[1]]
    game = rigged_game(BOARD_LINES, racks, lexicon_name=board_words)
    ann = seat_user(game, 0)
    outcome = inbound.receive(parsed(reply_mime(game, ann, "8 stow")), via="test")
    assert outcome.status == "refused"
    assert "write 8 S-T-O-W or 8 [ST]OW to say which" in outcome.reason
    (answer,) = answers(ann)
    message = message_for(Notification.objects.select_related("game", "user").get(pk=answer.pk))
    assert message is not None and "write 8 S-T-O-W or 8 [ST]OW" in message.body
    assert events(game) == ["game_started"]


def a_claimable_game(board_game: Callable[..., Game], claim_window: bool) -> Game:
    """The board claimed (Bob to move) and a JUMBULAYA callable."""
    game = board_game(claim_window=claim_window)
    for seq, move in enumerate(CLAIM_THE_BOARD, start=1):
        door.submit(game.pk, (seq - 1) % 2, move, seq, "web")
    game.refresh_from_db()
    return game


def test_a_jumbulaya_call_by_email_works_out_of_turn(board_game: Callable[..., Game]) -> None:
    game = a_claimable_game(board_game, claim_window=False)
    ann = waiting(game)  # Bob is to move
    outcome = inbound.receive(parsed(reply_mime(game, ann, "JUMBULAYA sprints")), via="test")
    assert outcome.status == "moved"
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    assert events(game)[-1] == "jumbulaya_verified"
    assert [n.kind for n in answers(ann)] == [Kind.REPLY_DONE]


def test_a_jumbulaya_call_by_email_in_a_claim_window_is_sealed(
    board_game: Callable[..., Game],
) -> None:
    game = a_claimable_game(board_game, claim_window=True)
    assert game.window_closes_at is not None
    ann, bob = waiting(game), mover(game)
    seq = game.last_seq
    outcome = inbound.receive(parsed(reply_mime(game, ann, "jumbulaya SPRINTS")), via="test")
    assert outcome.status == "moved" and "sealed" in outcome.reason
    assert Event.objects.filter(game=game).count() == seq  # nothing appended yet
    (answer,) = answers(ann)
    message = message_for(Notification.objects.select_related("game", "user").get(pk=answer.pk))
    assert message is not None and "is sealed" in message.body and "SPRINTS" in message.body
    assert message.to == [ann.email]
    assert answers(bob) == []
    assert not Notification.objects.filter(game=game, user=bob, event_seq__gt=seq).exists()


def test_an_unclosed_quote_in_one_html_reply_does_not_quote_the_next(two_player: Game) -> None:
    """Each HTML body is read by a converter of its own: an earlier message's
    unclosed ``<blockquote>`` once made the next reply's move a quoted line."""
    game = two_player
    ann = mover(game)
    first = reply_mime(game, ann)
    first.set_content("<blockquote><div>an old thread", subtype="html")
    inbound.receive(parsed(first), via="test")
    second = reply_mime(game, ann)
    second.set_content("<div>Hi Bob,</div><div>pass</div>", subtype="html")
    assert inbound.receive(parsed(second), via="test").status == "moved"
