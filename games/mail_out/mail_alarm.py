"""Our own mail failing: the operator's alarm (:mod:`ops.alarms`), never a
player's fault (:mod:`.whose_fault` says which is which).

- ``mail_send``: a send failed by our doing.  When any message would fail
  alike (the server unreachable or turning us away, our credentials or
  sender refused, relaying refused: ``Verdict.path``), the outbox stops
  trying row after row: every row waits, its attempt not counted, for the
  next try (:func:`closed_until`), one minute after the first failure, then
  twice as long each time up to :data:`PROBE_MAX`; the next row due is the
  probe.  A message refused for its content waits with the outbox's usual
  back-off.  The first email that goes clears the alarm (:func:`sent`).
- ``mail_esp``: an ESP said our mail is blocked, fails DMARC or carries a
  virus (a verdict on us, not on the address): raised for
  :data:`ESP_LAPSE` after the latest such event.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.mail_out.whose_fault import REASONS, Verdict
from ops import alarms
from ops.models import Alarm

#: The alarms' names.
SEND = "mail_send"
ESP = "mail_esp"
#: The first wait after a send failed by our path, and the longest.
PROBE_FIRST = timedelta(minutes=1)
PROBE_MAX = timedelta(minutes=5)
#: An ESP's verdict on our mail keeps its alarm raised this long after the latest.
ESP_LAPSE = timedelta(hours=24)


def probe_delay(failures: int) -> timedelta:
    """How long the outbox waits after the ``failures``-th failure in a row of
    our mail path before trying it again."""
    doubled: timedelta = PROBE_FIRST * 2 ** min(failures - 1, 16)
    return min(PROBE_MAX, doubled)


def send_alarm() -> Alarm | None:
    """The send alarm, if it is raised."""
    return alarms.get(SEND)


def closed_until(alarm: Alarm | None, now: datetime | None = None) -> datetime | None:
    """When the outbox may try our mail path again, if not yet (``alarm``:
    :func:`send_alarm`'s answer)."""
    if alarm is None or alarm.retry_at is None:
        return None
    return alarm.retry_at if alarm.retry_at > (now or timezone.now()) else None


def send_failed(verdict: Verdict) -> datetime | None:
    """A send failed by our doing: raise the send alarm (said once).  Returns
    when the path is to be tried again if every message would fail alike,
    else None (the row backs off as usual)."""
    explained = (
        f"Mail cannot be sent: {REASONS[verdict.reason]}. No player's address is blamed; "
        + (
            "every email waits and goes once the path works again."
            if verdict.path
            else "the message is tried again later."
        )
    )
    alarm = alarms.sound(
        SEND,
        verdict.reason,
        verdict.said,
        explained=explained,
        retry_after=probe_delay if verdict.path else None,
    )
    return alarm.retry_at


def sent(alarm: Alarm | None) -> None:
    """An email went: the send alarm (``alarm``, raised before the send)
    falls."""
    if alarm is not None:
        alarms.clear(SEND)


def esp_said(verdict: Verdict) -> None:
    """An ESP's event about our reputation, domain or content."""
    alarms.sound(
        ESP,
        verdict.reason,
        verdict.said,
        explained=f"{REASONS[verdict.reason]}. The recipient's address is not blamed; "
        "check the sending domain (SPF, DKIM, DMARC), its reputation and the content.",
        lapse_after=ESP_LAPSE,
    )
