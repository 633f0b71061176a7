"""A reply ``hint``: answered with the best word moves for the sender's rack
when the game has hints on, with a sentence saying they are off otherwise;
never a move, and never another seat's hints."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from inbound_mails import answers, parsed, reply_mime, seat_user

from games.coach.hints import HINTS_OFF, hints_for
from games.kinds.jumbulaya.reply_reading import read_reply
from games.mail_in import inbound
from games.mail_out.emails import message_for
from games.models import Event, Game, InboundMail, Notification

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def answer_to(game: Game, seat: int, text: str) -> tuple[str, str]:
    user = seat_user(game, seat)
    outcome = inbound.receive(parsed(reply_mime(game, user, text)), via="test")
    assert outcome.status == InboundMail.Status.ANSWERED
    (answer,) = answers(user)
    assert answer.kind == Kind.REPLY_HINTS
    message = message_for(Notification.objects.select_related("game", "user").get(pk=answer.pk))
    assert message is not None
    html = message.alternatives[0][0]  # type: ignore[index]
    return message.body, str(html)


def test_hint_is_read_as_a_question() -> None:
    for text in ("hint", "Hint please", "*hints*", "hint #4"):
        assert read_reply(text).move == "hint", text


def test_with_hints_on_the_answer_lists_the_moves_and_moves_nothing(
    board_game: Callable[..., Game],
) -> None:
    game = board_game(hints=True)
    found = hints_for(game, 0)
    assert found
    text, html = answer_to(game, 0, "hint")
    assert f"{found[0].notation}: {found[0].points} points" in text
    assert found[0].notation in html
    assert Event.objects.filter(game=game).count() == 1  # nothing was played
    assert "Nothing was played" in text


def test_another_seat_gets_its_own_rack_s_hints_only(board_game: Callable[..., Game]) -> None:
    game = board_game(hints=True)
    mine = {h.notation for h in hints_for(game, 0) or []}
    theirs = {h.notation for h in hints_for(game, 1) or []}
    text, _ = answer_to(game, 1, "hint")
    for notation in mine - theirs:
        assert f"{notation}:" not in text


def test_with_hints_off_the_answer_says_so_and_lists_nothing(
    board_game: Callable[..., Game],
) -> None:
    game = board_game()
    text, html = answer_to(game, 0, "hint")
    assert " ".join(HINTS_OFF.split()) in " ".join(text.split())
    assert "The best word moves" not in text and "The best word moves" not in html
    assert Event.objects.filter(game=game).count() == 1


def test_the_jumbulaya_answer_keeps_its_own_words(board_game: Callable[..., Game]) -> None:
    game = board_game(hints=True)
    text, _ = answer_to(game, 0, "hint")
    assert f"The best word moves for your rack now (at move #{game.last_seq}):" in text
