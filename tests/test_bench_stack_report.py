"""The stack run's count of emails delivered twice: only a row whose first copy
went out just before its sender was SIGKILLed, sent again with the same
Message-ID, is excused (docs/email.md: the guarantee as it is)."""

from __future__ import annotations

from bench.stack.faults import Window
from bench.stack.report import resent_after_a_kill
from bench.stack.sink import Mail


def mail(arrived: float, message_id: str = "<row-7@site>") -> Mail:
    return Mail("ann@x.test", message_id, "s", "", "", "", arrived, 1, 2, "your_turn", 7)


KILL = Window("celery worker SIGKILL while sending", start=1000.0, end=1002.0)


def test_a_copy_sent_again_after_its_sender_was_killed_mid_send_is_excused() -> None:
    assert resent_after_a_kill([mail(999.2), mail(1090.0)], [KILL])


def test_copies_with_different_message_ids_are_not() -> None:
    assert not resent_after_a_kill([mail(999.2), mail(1090.0, "<other@site>")], [KILL])


def test_copies_far_from_any_kill_are_not() -> None:
    assert not resent_after_a_kill([mail(900.0), mail(960.0)], [KILL])
    assert not resent_after_a_kill([mail(999.2), mail(1090.0)], [])
