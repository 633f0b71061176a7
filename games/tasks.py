"""Celery tasks: thin glue around the outbox, the deadline sweep, the claim
windows and the digests.  Beat runs the sweeps every minute (settings).  The
outbox nudges :func:`send_notifications` by its name (``outbox.SEND_TASK``)."""

from __future__ import annotations

from celery import shared_task

from games.core import services
from games.mail_out import digests, outbox


@shared_task
def send_notifications(ids: list[int]) -> int:
    return outbox.send_in_order(ids)


@shared_task
def sweep_outbox() -> int:
    return outbox.sweep()


@shared_task
def sweep_deadlines() -> int:
    return services.sweep_deadlines()


@shared_task
def sweep_claim_windows() -> int:
    return services.close_claim_windows()


@shared_task
def send_digests() -> int:
    return digests.send_due()
