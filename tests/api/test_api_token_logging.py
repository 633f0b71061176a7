"""No log line ever holds a token's secret: not with the wrong scheme (which
django-ninja's own header reading logs in DEBUG), a malformed token or a good
one, at any level, in DEBUG or not."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from accounts.models import User
from tests.api.conftest import ApiClient


@pytest.fixture
def every_record(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every log record at DEBUG and up, the ``django`` logger's too (the
    site's logging keeps those from reaching the root logger)."""
    django_logger = logging.getLogger("django")
    django_logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.DEBUG), caplog.at_level(logging.DEBUG, logger="django"):
            yield caplog
    finally:
        django_logger.removeHandler(caplog.handler)


def logged(records: list[logging.LogRecord]) -> str:
    """All the log says, messages, arguments and tracebacks."""
    handler = logging.Handler()
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    return "\n".join(f"{handler.format(r)} {r.args!r}" for r in records)


@pytest.mark.parametrize("debug", [True, False])
def test_no_log_record_holds_a_tokens_secret_whatever_the_header(
    make_user: Callable[[str], User],
    token_for: Callable[[User], str],
    every_record: pytest.LogCaptureFixture,
    settings: Any,
    debug: bool,
) -> None:
    settings.DEBUG = debug
    token = token_for(make_user("ann"))
    secret = token.rsplit("_", 1)[1]
    malformed = f"{token[:-1]}!"
    answers = {
        header: ApiClient(None).get("/me", headers={"Authorization": header}).status
        for header in (
            f"Token {token}",
            f"Basic {token}",
            token,
            f"Bearer {malformed}",
            f"Bearer {token}",
        )
    }
    assert answers.pop(f"Bearer {token}") == 200
    assert set(answers.values()) == {401}
    assert every_record.records, "the capture saw nothing: the test would prove nothing"
    said = logged(every_record.records)
    for part in (secret, secret[:16], secret[-16:]):
        assert part not in said
