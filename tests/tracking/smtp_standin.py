"""A real SMTP server on a loopback port (aiosmtpd, in its thread) that
answers what a test chooses at each stage of a session: its greeting, AUTH,
MAIL FROM, RCPT TO (for each address on its own) and DATA.  Whatever is not
chosen is answered as a working relay would (250, 235); every message it
takes is kept in :attr:`SmtpStandIn.received`.  :meth:`SmtpStandIn.mailer`
is the MAILERS entry that points Django's SMTP backend at it."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from email import message_from_bytes
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult

USER, PASSWORD = "jumbulaya", "correct-password"


@dataclass
class Answers:
    """What the server answers instead of accepting, by stage (None: accept)."""

    greeting: str | None = None
    auth: str | None = None
    mail: str | None = None
    #: By recipient address (lower case): that recipient refused, the others taken.
    rcpt: dict[str, str] = field(default_factory=dict)
    #: Every recipient refused with this answer.
    rcpt_all: str | None = None
    data: str | None = None


class _Handler:
    def __init__(self, standin: SmtpStandIn) -> None:
        self.standin = standin

    async def handle_MAIL(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.standin.answers.mail:
            return self.standin.answers.mail
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 2.1.0 OK"

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        answers = self.standin.answers
        refusal = answers.rcpt_all or answers.rcpt.get(address.lower())
        if refusal:
            return refusal
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.standin.answers.data:
            return self.standin.answers.data
        self.standin.received.append(
            (list(envelope.rcpt_tos), message_from_bytes(envelope.original_content))
        )
        return "250 2.0.0 OK: queued"


class _Session(SMTP):
    """aiosmtpd's session, with a greeting of the test's choosing: the server
    says it and hangs up, as one that turns the client away does."""

    standin: SmtpStandIn

    async def _handle_client(self) -> None:
        greeting = self.standin.answers.greeting
        if greeting is None:
            await super()._handle_client()
            return
        await self.push(greeting)
        assert self.transport is not None
        self.transport.close()


class _Controller(Controller):
    def __init__(self, standin: SmtpStandIn, **kwargs: Any) -> None:
        self.standin = standin
        super().__init__(_Handler(standin), **kwargs)

    def factory(self) -> SMTP:
        session = _Session(self.handler, **self.SMTP_kwargs)
        session.standin = self.standin
        return session


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SmtpStandIn:
    """The server: :attr:`answers` may change between sends."""

    def __init__(self) -> None:
        self.answers = Answers()
        self.received: list[tuple[list[str], Any]] = []
        self.port = _free_port()
        self._controller = _Controller(
            self,
            hostname="127.0.0.1",
            port=self.port,
            auth_require_tls=False,
            authenticator=self._authenticate,
        )

    def _authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any
    ) -> AuthResult:
        refusal = self.answers.auth
        if refusal is not None:
            return AuthResult(success=False, handled=False, message=refusal)
        right = (auth_data.login, auth_data.password) == (USER.encode(), PASSWORD.encode())
        return AuthResult(success=right, handled=False)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()

    def mailer(self) -> dict[str, Any]:
        """The MAILERS entry for Django's SMTP backend, as production's settings
        build it (a user and password: the backend logs in)."""
        return {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": "127.0.0.1",
                "port": self.port,
                "username": USER,
                "password": PASSWORD,
                "use_tls": False,
                "use_ssl": False,
                "timeout": 5,
            },
        }

    def recipients(self) -> list[str]:
        """Every recipient of every message taken, in order."""
        return [to for tos, _ in self.received for to in tos]
