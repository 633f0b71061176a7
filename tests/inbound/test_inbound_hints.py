"""A reply ``hint``: answered with the best word moves for the sender's rack
when the game has hints on and it is the sender's turn, with a sentence saying
they are off, or for the player to move, otherwise; never a move, and never
another seat's hints."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from inbound_mails import answers, parsed, reply_mime, seat_user

from games.coach.hints import HINTS_OFF, find
from games.kinds.jumbulaya.replies import read_reply
from games.mail_in import inbound
from games.mail_in.hint_answers import NOT_YOUR_TURN
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
    found = find(game, 0)
    assert found
    text, html = answer_to(game, 0, "hint")
    assert f"{found[0].notation}: {found[0].points} points" in text
    assert found[0].notation in html
    assert Event.objects.filter(game=game).count() == 1  # nothing was played
    assert "Nothing was played" in text


def test_a_seat_not_to_move_is_told_hints_are_for_the_player_to_move(
    board_game: Callable[..., Game],
) -> None:
    game = board_game(hints=True)
    mine = {h.notation for h in find(game, 0)}
    assert mine
    text, html = answer_to(game, 1, "hint")
    assert " ".join(NOT_YOUR_TURN.split()) in " ".join(text.split())
    for notation in mine:
        assert notation not in text and notation not in html


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


def test_a_reply_before_the_task_finds_them_once_and_the_page_reads_them(
    board_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No row yet (the task has not run): the reply prepares them through the
    task's own function, once; the page and a second reply read that row."""
    from django.test import Client

    from games.coach import hints
    from games.kinds.jumbulaya.robots import JumbulayaRobots
    from games.models import SeatHints

    game = board_game(hints=True)
    asked: list[int] = []
    real = JumbulayaRobots.hints

    def counted(self: JumbulayaRobots, *args: object, **kwargs: object) -> object:
        asked.append(1)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(JumbulayaRobots, "hints", counted)
    first, _ = answer_to(game, 0, "hint")
    assert SeatHints.objects.filter(game=game, seat=0, seq=game.last_seq).count() == 1
    assert not hints.prepare(game.pk, 0, game.last_seq)  # the task, late: nothing to do
    client = Client()
    client.force_login(seat_user(game, 0))
    page = client.get(f"/games/{game.pk}/").content.decode()
    again = inbound.receive(parsed(reply_mime(game, seat_user(game, 0), "hint please")), via="t")
    assert asked == [1]
    assert "1 S-T-R-A-N-G-E: " in first and again.reason in first
    assert 'data-suggest="1 S-T-R-A-N-G-E"' in page
