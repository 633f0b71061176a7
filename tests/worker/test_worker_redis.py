"""The short notification path (a move, then the email) through the real Redis
broker and a real worker.  CI runs it (JUMBULAYA_REQUIRE_SERVICES=1 and REDIS_URL):
there a Redis that is missing or down fails the test.  Elsewhere it runs when
REDIS_URL is set and skips when it is not."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core import mail

from bench.stack import topology
from games.core import door
from games.models import Event, Game, Notification
from jumbulaya_site.celery import RECONNECT_MAX_S, PromptConsumer
from jumbulaya_site.celery import app as celery_app

REQUIRED = os.environ.get("JUMBULAYA_REQUIRE_SERVICES") == "1"
REDIS_URL = os.environ.get("REDIS_URL", "")
#: As the settings configure a Redis broker: a move never waits long on it.
REDIS_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5}

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def redis_url_or_skip() -> str:
    if REDIS_URL:
        return REDIS_URL
    if REQUIRED:
        pytest.fail("JUMBULAYA_REQUIRE_SERVICES=1 but REDIS_URL is not set: CI must test Redis")
    pytest.skip(
        "REDIS_URL is not set: set it (CI does, with JUMBULAYA_REQUIRE_SERVICES=1) to run "
        "the worker through the real Redis broker"
    )


@pytest.mark.slow
def test_a_move_is_emailed_through_redis_and_a_real_worker(
    started_game: Callable[..., Game], kit: Any
) -> None:
    url = redis_url_or_skip()
    # Reachable, or this fails (never skips) here with why.
    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    try:
        assert client.ping() is True
    finally:
        client.close()
    # A queue of the test's own: a worker of a development setup on the same
    # Redis never takes these messages, and this worker never takes its.
    queue = kit.unique_queue()
    with kit.use_broker(
        url,
        broker_transport_options=REDIS_OPTIONS,
        task_default_queue=queue,
        worker_enable_remote_control=False,
    ) as app:
        try:
            with kit.running_worker() as worker:
                assert worker.consumer.connection.transport.driver_type == "redis"
                game = started_game()
                seat = game.turn_seat
                assert seat is not None
                kit.wait_for(
                    lambda: not Notification.objects.filter(sent_at__isnull=True).exists(),
                    "the worker to send the emails of the game's start through Redis",
                )
                mail.outbox.clear()
                door.submit(game.pk, seat, "pass", game.last_seq, Event.Source.WEB)
                other = game.seats.get(index=1 - seat).user
                assert other is not None
                sent = kit.wait_for(
                    lambda: kit.mail_to(other.email, f"Game {game.pk}: your turn"),
                    "the your-turn email to go through Redis and the worker",
                )
                assert len(sent) == 1
        finally:
            with app.connection_for_write() as conn:
                conn.default_channel.queue_delete(queue)
    kit.assert_each_row_sent_once()


@pytest.mark.slow
def test_emails_owed_while_the_broker_was_away_go_when_it_returns(
    started_game: Callable[..., Game], kit: Any, tmp_path: Path
) -> None:
    """No beat runs here: only the worker's sweep on reconnecting can send the
    email owed while Redis was stopped (its nudge found no broker)."""
    redis_url_or_skip()  # CI runs it; elsewhere only with the Redis services in use
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: the broker's outage cannot be staged")
    broker = topology.Redis(tmp_path)
    broker.start()
    try:
        with (
            kit.use_broker(
                broker.url,
                broker_transport_options=REDIS_OPTIONS,
                task_default_queue=kit.unique_queue(),  # nobody else's worker takes its tasks
                worker_enable_remote_control=False,
            ),
            kit.running_worker() as worker,
        ):
            assert isinstance(worker.consumer, PromptConsumer)  # the settings' consumer
            game = started_game()
            kit.wait_for(
                lambda: not Notification.objects.filter(sent_at__isnull=True).exists(),
                "the worker to send the emails of the game's start",
            )
            mail.outbox.clear()
            broker.stop()
            seat = game.turn_seat
            assert seat is not None
            door.submit(game.pk, seat, "pass", game.last_seq, Event.Source.WEB)
            owed = Notification.objects.filter(sent_at__isnull=True)
            assert owed.exists()
            time.sleep(1.0)  # the worker is cut off: nothing goes
            assert owed.exists() and mail.outbox == []
            broker.start()
            other = game.seats.get(index=1 - seat).user
            assert other is not None
            sent = kit.wait_for(
                lambda: kit.mail_to(other.email, f"Game {game.pk}: your turn"),
                "the worker to reconnect and sweep the email owed during the outage",
                timeout=60.0,
            )
            assert len(sent) == 1
            assert not owed.exists()
    finally:
        broker.stop()


def test_the_worker_tries_a_lost_broker_again_within_seconds() -> None:
    """kombu's own waits between tries grow to 30 s; the worker's stop at a few."""
    asked: dict[str, Any] = {}

    class Connection:
        def ensure_connection(self, *args: Any, **kwargs: Any) -> Connection:
            asked.update(kwargs)
            return self

        def as_uri(self) -> str:
            return "redis://127.0.0.1:1/0"

    consumer = PromptConsumer.__new__(PromptConsumer)  # only its reconnection is tried
    consumer.app = celery_app
    consumer.first_connection_attempt = False
    consumer.broker_connection_retry_attempt = 0
    consumer.ensure_connected(Connection())
    assert asked["interval_max"] == RECONNECT_MAX_S <= 5
    assert asked["interval_start"] <= asked["interval_max"]
