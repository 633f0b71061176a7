"""The site as deploy/ serves it (gunicorn with one uvicorn worker, through ASGI) keeps
answering while long polls wait: a wait holds no worker.  Under gunicorn's sync workers
(before), one worker held by a wait answered nothing else until the wait ended."""

from __future__ import annotations

import http.client
import json
import os
import select
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from accounts import access_tokens
from bench.stack.topology import free_port, gunicorn, wait_port
from games.core.door import submit
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

WAITS = 6


def database_url() -> str:
    """The test database, for the server's process."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    who = s.get("USER") or "postgres"
    secret = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{who}{secret}@{host}:{port}/{s['NAME']}"


def server_env(tmp_path: Path) -> dict[str, str]:
    return os.environ | {
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "served-waits-test-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "JUMBULAYA_VAR_DIR": str(tmp_path / "var"),
        "CELERY_BROKER_URL": "filesystem://localhost/",
        "JUMBULAYA_HEALTH_EXPECT_WORKERS": "0",
        "JUMBULAYA_API_REQUESTS_PER_MINUTE": "100000",
        # Fewer pooled connections than waits: a wait that kept its connection
        # would leave the other requests none.
        "JUMBULAYA_DB_POOL_SIZE": "2",
    }


def send(port: int, path: str, token: str) -> socket.socket:
    """A GET sent on a connection of its own; the answer is read later."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        "Connection: close\r\n\r\n".encode()
    )
    return sock


def answer(sock: socket.socket) -> tuple[int, Any]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if b"chunked" in head.lower():
        size, _, rest = body.partition(b"\r\n")
        body = rest[: int(size, 16)]
    return status, json.loads(body)


def test_a_normal_request_is_answered_while_long_polls_wait(
    started_game: Callable[..., Game], tmp_path: Path
) -> None:
    game = started_game()
    waiter = game.seats.get(index=1 - game.turn_seat).user
    assert waiter is not None
    token = access_tokens.make(waiter, "waits").token
    port = free_port()
    web = gunicorn(server_env(tmp_path), port, 1, tmp_path)  # one worker
    web.start()
    try:
        assert wait_port(port, 60), web.log_tail()
        waits = [send(port, f"/api/v1/games/{game.pk}/events?after=1&wait=20", token)]
        waits += [
            send(port, f"/api/v1/games/{game.pk}/events?after=1&wait=20", token)
            for _ in range(WAITS - 1)
        ]
        # While they wait, the one worker answers another request at once.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/v1/me", headers={"Authorization": f"Bearer {token}"})
        me = conn.getresponse()
        assert me.status == 200 and json.loads(me.read())["name"] == waiter.display_name
        readable, _, _ = select.select(waits, [], [], 0)
        assert readable == [], "a wait answered before the game moved"
        # The game moves: every wait answers with the move.
        submit(game.pk, game.turn_seat, "pass", 1, "web", "served-pass")
        for sock in waits:
            status, log = answer(sock)
            assert status == 200 and log["seq"] == 2, log
            assert [e["type"] for e in log["events"]] == ["passed"]
    finally:
        web.stop()
        server_gone()


def server_gone() -> None:
    """Until the server's database sessions have ended (PostgreSQL ends a session a
    moment after its process is gone), so that the test database can be dropped."""
    if connection.vendor != "postgresql":
        return
    for _ in range(100):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.1)
