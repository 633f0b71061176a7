"""Whose fault a mail failure is: the recipient's, or ours.

Only a refusal of that recipient is the recipient's: a 5xx (permanent) or
4xx (temporary) answer to ``RCPT TO`` for that address, or an ESP's verdict
about that recipient (anymail's ``AnymailRecipientsRefused``, a bounce
event).  Everything else is ours, for the operator to fix, and never weighs
on an address (:mod:`.tracking`); it raises the operator's alarm
(:mod:`.mail_alarm`):

- the server unreachable, or dropping the connection; turning us away at its
  greeting (421 busy, 554 our IP blocklisted); refusing our EHLO or STARTTLS;
- our credentials refused (``AUTH``: 535); our sender refused (``MAIL FROM``);
- relaying refused, even as an answer to ``RCPT TO``: a 5.7.x (security or
  policy) status, a 530, or an answer naming relaying; a 421 at any stage;
- a message refused at ``DATA`` (its content), or as too large;
- an ESP's API refusing or failing our request;
- an ESP's events about our reputation, domain or content: Postmark's
  ``Blocked``, ``DMARCPolicy`` and ``VirusNotification`` bounces, Mailgun's
  ``rejected`` (Mailgun refused to send: our account or domain) and its
  permanent failures with a 5.7.x status (DMARC, a blocklist, spam content).

Through a relay (our SMTP server, an ESP) the answers to ``RCPT TO`` are the
relay's: a 5.7.x there is about us, not about the address.
"""

from __future__ import annotations

import re
import smtplib
from dataclasses import dataclass
from typing import Any

from anymail.exceptions import AnymailAPIError, AnymailError, AnymailRecipientsRefused
from anymail.signals import AnymailTrackingEvent

from games.models import MailEvent

Weight = MailEvent.Weight

#: What each of our failures means, for the log line and the admins' email.
REASONS: dict[str, str] = {
    "smtp_unreachable": "the mail server could not be reached, or dropped the connection",
    "smtp_greeting": "the mail server turned us away when we connected (421: busy; 554: "
    "it refuses our IP address, e.g. a blocklist)",
    "smtp_setup": "the mail server refused our EHLO or STARTTLS",
    "smtp_auth": "the mail server refused our credentials (EMAIL_HOST_USER, EMAIL_HOST_PASSWORD)",
    "smtp_sender": "the mail server refused our sender address (DEFAULT_FROM_EMAIL)",
    "smtp_relay": "the mail server refuses to relay our mail (relaying or authentication refused)",
    "smtp_closed": "the mail server closed the connection (421)",
    "smtp_content": "the mail server refused a message's content (at DATA), or its size",
    "esp_api": "the ESP's API refused or failed our request (credentials, account, rate, outage)",
    "esp_message": "the ESP refused a message we built",
    "postmark_blocked": "Postmark says a receiving ISP blocked our mail (our content or "
    "reputation)",
    "postmark_dmarc": "Postmark says our mail failed the receiving domain's DMARC check (our "
    "sending domain's SPF, DKIM or alignment)",
    "postmark_virus": "Postmark says a message of ours was refused as carrying a virus",
    "mailgun_rejected": "Mailgun refused to send our mail (our account or sending domain)",
    "esp_policy": "a receiving server refused our mail by policy (5.7.x: our reputation, "
    "domain or content)",
}

#: Postmark's bounce types that are about us, by the reason they raise.
POSTMARK_OURS = {
    "Blocked": "postmark_blocked",
    "DMARCPolicy": "postmark_dmarc",
    "VirusNotification": "postmark_virus",
}

_ENHANCED = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
_RELAYING = re.compile(
    r"relay(ing)?\s+(access\s+)?(denied|refused|prohibited|not\s+(permitted|allowed))"
    r"|(not|unable\s+to|do\s+not|don't)\s+relay",
    re.IGNORECASE,
)
_ADDRESS = re.compile(r"[^\s<>()\[\]\"',;:]+@[^\s<>()\[\]\"',;:]+")


@dataclass(frozen=True)
class Verdict:
    """What a failure says.  The recipient's: ``weight`` (hard or soft).  Ours:
    ``reason`` (a key of :data:`REASONS`), and ``path``: any message would
    fail alike (the outbox then waits for the path instead of trying each
    row).  ``said``: the server's code and text, without an address."""

    weight: str = ""
    reason: str = ""
    path: bool = False
    said: str = ""

    @property
    def ours(self) -> bool:
        return bool(self.reason)


def without_addresses(text: str) -> str:
    """``text`` with every email address in it replaced (log lines and the
    admins' email name no one)."""
    return _ADDRESS.sub("<address>", text)


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _said(code: int | None, text: Any) -> str:
    answer = f"{code} {_text(text)}" if code is not None else _text(text)
    return without_addresses(" ".join(answer.split()))[:300]


def _refuses_relaying(code: int, text: str) -> bool:
    """An answer refusing to relay for us: a 530 (authentication required),
    or one that says relaying is denied (not "relay recipient table", Postfix's
    unknown user)."""
    return code == 530 or _RELAYING.search(text) is not None


def _about_us(code: int, text: str) -> bool:
    """An answer to ``RCPT TO`` (or an ESP's relayed one) about our right to
    send, not about the address: relaying refused, or a 5.7.x status."""
    status = _ENHANCED.search(text)
    policy = code >= 500 and status is not None and status.group(1, 2) == ("5", "7")
    return policy or _refuses_relaying(code, text)


def _ours(reason: str, said: str, *, path: bool) -> Verdict:
    return Verdict(reason=reason, path=path, said=said)


def _recipients_refused(refused: dict[str, tuple[int, Any]]) -> Verdict:
    answers = [(code, _text(text)) for code, text in refused.values()]
    said = "; ".join(_said(code, text) for code, text in answers)[:300]
    if any(code == 421 for code, _ in answers):
        return _ours("smtp_closed", said, path=True)
    if any(_about_us(code, text) for code, text in answers):
        return _ours("smtp_relay", said, path=True)
    if answers and all(code >= 500 for code, _ in answers):
        return Verdict(weight=Weight.HARD, said=said)
    return Verdict(weight=Weight.SOFT, said=said)


def judge_send(failure: BaseException) -> Verdict | None:
    """Whose fault a failed send is; None for a failure that is not the mail
    path's (a fault in building the message: a bug, logged with its
    traceback)."""
    if isinstance(failure, AnymailRecipientsRefused):
        return Verdict(weight=Weight.HARD, said=without_addresses(str(failure))[:300])
    if isinstance(failure, AnymailAPIError):
        said = f"{type(failure).__name__} {failure.status_code or ''}".strip()
        # 400 and 422: this request refused (a message we built); else the API itself
        # (401 our key, 429 our rate, 5xx or no answer: the ESP down).
        message = failure.status_code in (400, 422)
        return _ours("esp_message" if message else "esp_api", said, path=not message)
    if isinstance(failure, AnymailError):
        return _ours("esp_message", type(failure).__name__, path=False)
    if isinstance(failure, smtplib.SMTPRecipientsRefused):
        return _recipients_refused(failure.recipients)
    if isinstance(failure, smtplib.SMTPResponseException):
        code, text = failure.smtp_code, _text(failure.smtp_error)
        said = _said(code, text)
        if isinstance(failure, smtplib.SMTPConnectError):
            return _ours("smtp_greeting", said, path=True)
        if isinstance(failure, smtplib.SMTPAuthenticationError):
            return _ours("smtp_auth", said, path=True)
        if code == 421:
            return _ours("smtp_closed", said, path=True)
        if isinstance(failure, smtplib.SMTPSenderRefused):
            if code == 552 or "5.3.4" in text:  # the message is too large
                return _ours("smtp_content", said, path=False)
            return _ours("smtp_sender", said, path=True)
        if isinstance(failure, smtplib.SMTPDataError):
            if _refuses_relaying(code, text):
                return _ours("smtp_relay", said, path=True)
            return _ours("smtp_content", said, path=False)
        return _ours("smtp_setup", said, path=True)  # EHLO, STARTTLS
    if isinstance(failure, smtplib.SMTPException | OSError):
        # The server away or gone mid-way (SMTPServerDisconnected), a refused
        # connection, a timeout, a TLS failure, a name that does not resolve.
        return _ours("smtp_unreachable", _said(None, type(failure).__name__), path=True)
    return None


def judge_event(event: AnymailTrackingEvent) -> Verdict | None:
    """An ESP's event that is about our reputation, domain or content (the
    operator's alarm), else None (the event is about its address)."""
    esp = event.esp_event if isinstance(event.esp_event, dict) else {}
    said = _said(None, " — ".join(str(p) for p in (event.description, event.mta_response) if p))
    if esp.get("RecordType") == "Bounce" and esp.get("Type") in POSTMARK_OURS:
        return _ours(POSTMARK_OURS[str(esp["Type"])], said, path=False)
    data = esp.get("event-data")
    if not isinstance(data, dict):
        return None
    if data.get("event") == "rejected":
        reject = data.get("reject")
        why = reject.get("reason") if isinstance(reject, dict) else None
        return _ours("mailgun_rejected", _said(None, why) if why else said, path=False)
    status = data.get("delivery-status")
    permanent = data.get("event") == "failed" and data.get("severity") == "permanent"
    if permanent and isinstance(status, dict) and isinstance(status.get("code"), int):
        message = f"{status.get('message') or ''} {status.get('description') or ''}"
        if _about_us(status["code"], message):
            return _ours("esp_policy", _said(status["code"], message), path=False)
    return None
