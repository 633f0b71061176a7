"""Checks that CI really runs against PostgreSQL and Redis.

Under JUMBULAYA_REQUIRE_SERVICES=1 (set by .ci/run) these tests fail when a service is
missing or unreachable; without it they skip.
"""

import os

import pytest
import redis
from django.conf import settings
from django.db import connection

REQUIRED = os.environ.get("JUMBULAYA_REQUIRE_SERVICES") == "1"

pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(
        not REQUIRED,
        reason="set JUMBULAYA_REQUIRE_SERVICES=1 (as .ci/run does) to check PostgreSQL and Redis",
    ),
]


@pytest.mark.django_db
def test_database_is_postgresql() -> None:
    assert connection.vendor == "postgresql", (
        f"expected PostgreSQL via DATABASE_URL, got {connection.vendor!r}"
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_redis_answers_ping() -> None:
    assert settings.REDIS_URL, "REDIS_URL is not set"
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=5, socket_timeout=5)
    try:
        assert client.ping() is True
    finally:
        client.close()
