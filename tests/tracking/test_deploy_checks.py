"""``manage.py check --deploy`` says when the ESP mail goes through is one
whose bounces and complaints are not processed here (issue 28, point 11)."""

from __future__ import annotations

import pytest
from django.core.checks import registry
from django.test import override_settings

from games.checks import tracking_events_are_read


def sending_through(backend: str) -> override_settings:
    return override_settings(MAILERS={"default": {"BACKEND": backend, "OPTIONS": {}}})


@pytest.mark.parametrize(
    ("backend", "esp"),
    [
        ("anymail.backends.amazon_ses.EmailBackend", "amazon_ses"),
        ("anymail.backends.sendgrid.EmailBackend", "sendgrid"),
    ],
)
def test_an_esp_whose_tracking_events_are_not_processed_is_a_deploy_warning(
    backend: str, esp: str
) -> None:
    with sending_through(backend):
        (warning,) = tracking_events_are_read()
        assert warning.id == "games.W004"
        assert esp in warning.msg and "not processed" in warning.msg
        assert "postmark or mailgun" in str(warning.hint)


@pytest.mark.parametrize(
    "backend",
    [
        "anymail.backends.postmark.EmailBackend",
        "anymail.backends.mailgun.EmailBackend",
        "django.core.mail.backends.smtp.EmailBackend",  # send-time refusals count
        "devmail.backend.EmailBackend",
    ],
)
def test_the_esps_whose_events_are_read_and_smtp_are_not_warned_of(backend: str) -> None:
    with sending_through(backend):
        assert tracking_events_are_read() == []


def test_the_check_runs_with_check_deploy_only() -> None:
    assert tracking_events_are_read in registry.registry.get_checks(include_deployment_checks=True)
    assert tracking_events_are_read not in registry.registry.get_checks()
