"""Celery tasks: thin glue around the outbox, the deadline sweep, the claim
windows and the digests.  Beat runs the sweeps every minute (settings)."""

from __future__ import annotations

from celery import shared_task


@shared_task
def send_notifications(ids: list[int]) -> int:
    from games import outbox

    return outbox.send_in_order(ids)


@shared_task
def sweep_outbox() -> int:
    from games import outbox

    return outbox.sweep()


@shared_task
def sweep_deadlines() -> int:
    from games import deadlines

    return deadlines.sweep()


@shared_task
def sweep_claim_windows() -> int:
    from games import claims

    return claims.sweep()


@shared_task
def send_digests() -> int:
    from games import digests

    return digests.send_due()
