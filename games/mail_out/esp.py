"""Which ESP the site sends its mail through: the anymail backend of the
default mailer (``EMAIL_BACKEND``), by anymail's name for it."""

from __future__ import annotations

from typing import Any

from django.conf import settings

ANYMAIL_BACKENDS = "anymail.backends."


def _default_mailer() -> dict[str, Any]:
    mailers = getattr(settings, "MAILERS", None) or {}
    return dict(mailers.get("default") or {})


def backend() -> str:
    """The dotted path of the default mailer's backend."""
    return str(_default_mailer().get("BACKEND") or settings.EMAIL_BACKEND)


def options() -> dict[str, Any]:
    """A copy of the default mailer's ``OPTIONS``, where anymail reads an ESP's
    settings first (``server_token``, ``api_key``...), before ``ANYMAIL``."""
    return dict(_default_mailer().get("OPTIONS") or {})


def sending_esp() -> str:
    """The ESP mail goes out through, as anymail's module names it
    (``postmark``, ``mailgun``, ``amazon_ses``, ``sendgrid``...), or ``""`` for
    a backend that is not anymail's (SMTP, the local mailbox, the tests')."""
    path = backend()
    if not path.startswith(ANYMAIL_BACKENDS):
        return ""
    return path.removeprefix(ANYMAIL_BACKENDS).partition(".")[0]
