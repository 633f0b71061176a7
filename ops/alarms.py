"""The operator's alarms: something of ours that fails (the mail server
refusing our password, an ESP saying our mail fails DMARC), never a player's
doing.  One :class:`ops.models.Alarm` row per name.

Raising one (:func:`sound`) says so once, not once per failure: one log line
at ERROR when it is raised, or when its reason changes, and an email to
``ADMINS`` at most once an hour per alarm.  That email goes through the
site's own mailer, which may be the very path that fails: it is tried once
when the alarm is raised, never retried, and the log line says what came of
it (the log line and ``/healthz`` are the alarms that need no mail).  Django's
``mail_admins`` is not wired to the log (no ``AdminEmailHandler``), so a
failing mailer cannot feed back into itself.  ``/healthz`` reports every
alarm raised as ``degraded`` (:mod:`ops.health`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import mail_admins
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ops.models import Alarm

log = logging.getLogger(__name__)

#: An alarm's email to ADMINS is tried at most this often.
ADMINS_EVERY = timedelta(hours=1)


def _raised(alarm: Alarm, now: datetime) -> bool:
    return alarm.raised_at is not None and (alarm.lapses_at is None or alarm.lapses_at > now)


def current(now: datetime | None = None) -> list[Alarm]:
    """The alarms raised now, by name."""
    now = now or timezone.now()
    return list(
        Alarm.objects.filter(raised_at__isnull=False)
        .filter(Q(lapses_at__isnull=True) | Q(lapses_at__gt=now))
        .order_by("name")
    )


def get(name: str) -> Alarm | None:
    """Alarm ``name`` if it is raised now."""
    alarm = Alarm.objects.filter(name=name, raised_at__isnull=False).first()
    return alarm if alarm is not None and _raised(alarm, timezone.now()) else None


def sound(
    name: str,
    reason: str,
    detail: str,
    *,
    explained: str,
    retry_after: Callable[[int], timedelta] | None = None,
    lapse_after: timedelta | None = None,
) -> Alarm:
    """Record a failure for alarm ``name`` (``reason``: a short code;
    ``detail``: what was said, without an address; ``explained``: a sentence
    for people) and raise the alarm if it is not raised for that reason yet.
    ``retry_after(failures)``: how long until what failed is tried again
    (the row's ``retry_at``); ``lapse_after``: the alarm falls by itself that
    long after its latest failure."""
    now = timezone.now()
    with transaction.atomic():
        alarm, _ = Alarm.objects.select_for_update().get_or_create(
            name=name, defaults={"reason": reason, "last_at": now}
        )
        fresh = not _raised(alarm, now) or alarm.reason != reason
        if fresh:
            alarm.raised_at, alarm.failures = now, 0
        alarm.reason, alarm.detail, alarm.last_at = reason, detail[:300], now
        alarm.failures += 1
        alarm.retry_at = now + retry_after(alarm.failures) if retry_after is not None else None
        alarm.lapses_at = now + lapse_after if lapse_after is not None else None
        tell = fresh and (
            alarm.admins_told_at is None or now - alarm.admins_told_at >= ADMINS_EVERY
        )
        if tell:
            alarm.admins_told_at = now
        alarm.save()
    if fresh:
        told = (
            _tell_admins(alarm, explained)
            if tell
            else "the admins were told by email less than an hour ago"
        )
        log.error("alarm %s (%s): %s [%s]; %s", name, reason, explained, alarm.detail, told)
    return alarm


def clear(name: str) -> bool:
    """Alarm ``name`` falls: what failed works again.  Returns whether it was
    raised (then one log line says for how long and how many failures)."""
    now = timezone.now()
    with transaction.atomic():
        alarm = Alarm.objects.select_for_update().filter(name=name).first()
        if alarm is None or not _raised(alarm, now):
            return False
        assert alarm.raised_at is not None
        lasted = now - alarm.raised_at
        Alarm.objects.filter(pk=alarm.pk).update(raised_at=None, retry_at=None, lapses_at=None)
    log.warning(
        "alarm %s (%s) is over: it lasted %d s, %d failures",
        name, alarm.reason, lasted.total_seconds(), alarm.failures,
    )  # fmt: skip
    return True


def _tell_admins(alarm: Alarm, explained: str) -> str:
    """Try once to email ``ADMINS``; say what came of it (for the log line)."""
    if not settings.ADMINS:
        return "no ADMINS are set to be told by email"
    body = (
        f"{explained}\n\nWhat was said: {alarm.detail or '(nothing)'}\n"
        f"Raised at {alarm.raised_at:%Y-%m-%d %H:%M:%S %Z}; /healthz says degraded "
        f"({alarm.name}: {alarm.reason}) until it is over, and the log says when it is.\n"
        "This email is sent at most once an hour for this alarm."
    )
    try:
        mail_admins(f"Alarm: {alarm.name} ({alarm.reason})", body)
    except Exception as e:  # the mailer may be what fails: said in the one log line
        return f"the admins could not be told by email either ({type(e).__name__})"
    return "the admins were told by email"
