"""Nudges: one broker message per transaction, or one per batch inside
``one_nudge`` (the deadline sweep), and never for rows rolled back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from games.mail_out import outbox
from games.models import Game, Notification


def test_one_nudge_rings_once_per_batch_for_committed_rows_only(
    started_game: Callable[..., Game],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = started_game()
    rung: list[list[int]] = []
    monkeypatch.setattr(outbox, "_ring", lambda ids: rung.append(list(ids)))
    monkeypatch.setattr(outbox, "NUDGE_BATCH", 3)
    user = game.seats.get(index=0).user_id
    kept: list[int] = []
    with django_capture_on_commit_callbacks(execute=True):
        with outbox.one_nudge():
            for _ in range(4):
                with transaction.atomic():
                    owed = outbox.owe(game, Notification.Kind.YOUR_TURN, users=[user])
                    kept += [n.pk for n in owed]
            with pytest.raises(RuntimeError), transaction.atomic():
                outbox.owe(game, Notification.Kind.YOUR_TURN, users=[user])
                raise RuntimeError("rolled back")
        assert rung == []  # nothing rings before the commit
    assert rung == [kept[:3], kept[3:]]


def test_outside_one_nudge_each_commit_rings(
    started_game: Callable[..., Game],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = started_game()
    rung: list[list[int]] = []
    monkeypatch.setattr(outbox, "_ring", lambda ids: rung.append(list(ids)))
    user = game.seats.get(index=0).user_id
    with django_capture_on_commit_callbacks(execute=True):
        first = outbox.owe(game, Notification.Kind.YOUR_TURN, users=[user])
        second = outbox.owe(game, Notification.Kind.YOUR_TURN, users=[user])
    assert rung == [[first[0].pk], [second[0].pk]]


def test_a_nudge_asks_for_the_send_task_by_its_registered_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The outbox names its task rather than importing it (the tasks import the
    outbox): the name must be the one the worker knows."""
    from celery import current_app

    from games.tasks import send_notifications

    asked: list[tuple[str, Any]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, **options: asked.append((name, args))
    )
    outbox._ring([7, 8])
    assert asked == [(send_notifications.name, ([7, 8],))]
