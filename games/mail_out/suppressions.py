"""The ESP's own suppression list, and taking an address off it.

An ESP that saw an address bounce hard, or its owner mark our mail as spam or
unsubscribe through the ESP's own link, puts the address on its suppression
list and sends it nothing more: Postmark refuses the send ("inactive
recipient"), Mailgun takes it and drops it.  The confirmation mail that would
start a stopped address's mail again (the banner's button) is no exception, so
before it is sent :func:`lift` asks the ESP the site sends through to take the
address off its list, through its API:

- **Postmark**: ``GET /message-streams/{stream}/suppressions/dump?EmailAddress=``
  says why the address is suppressed, ``POST
  /message-streams/{stream}/suppressions/delete`` lifts it.  Postmark never
  lifts a spam complaint's suppression through the API (it answers ``Failed``):
  only its support can.
- **Mailgun**: ``DELETE /v3/{domain}/bounces/{address}``, and the same on
  ``complaints`` and ``unsubscribes``; ``GET`` on those says whether it is there.

A suppression the recipient's own choice put there (a spam complaint, an
unsubscribe) is lifted only with ``wanted``: the player said, on the page, that
they want our emails again.  A click on "Confirm again" says the address
works; it does not take back "this is spam", and mailing someone who said that
is what the ESPs' terms and the anti-spam laws forbid (and what gets a sending
domain blocked).  Without ``wanted``, only a bounce's suppression is lifted,
and one of the recipient's choice is reported ``KEPT``.

Any other ESP, SMTP and the local mailbox have nothing to lift here
(``NO_API``).  Nothing here raises: the ESP unreachable, slow (each call waits
:data:`TIMEOUT` seconds at most) or answering an error is ``FAILED``, with
what went wrong in ``said`` (never the address).
"""

from __future__ import annotations

import base64
import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parseaddr
from enum import StrEnum
from typing import Any
from urllib.parse import quote, urlencode

from anymail.exceptions import AnymailConfigurationError
from anymail.utils import get_anymail_setting
from django.conf import settings

from games.mail_out.esp import options, sending_esp

#: Seconds one call to an ESP's API may take; the page waits on it.
TIMEOUT = 5.0
#: The most of an answer read.
MAX_ANSWER = 64 * 1024
#: Postmark's name for a bounce's suppression (the others: SpamComplaint,
#: ManualSuppression, the recipient's unsubscribe).
POSTMARK_BOUNCE = "HardBounce"


class Outcome(StrEnum):
    LIFTED = "lifted"  # the ESP took the address off its list
    NOT_LISTED = "not_listed"  # the ESP had it on no list of its own
    KEPT = "kept"  # it stays: the ESP will not lift it, or only the player's "yes" may
    FAILED = "failed"  # the ESP could not be asked, or answered an error
    NO_API = "no_api"  # the site sends through nothing with a list lifted here


@dataclass(frozen=True)
class Lift:
    """What came of asking the ESP: the outcome and, for the operator's log,
    what the ESP said (an HTTP status, its message; never the address)."""

    esp: str
    outcome: Outcome
    said: str = ""

    @property
    def clear(self) -> bool:
        """Whether the ESP holds nothing against the address now."""
        return self.outcome in (Outcome.LIFTED, Outcome.NOT_LISTED)


class _Unanswered(Exception):
    """The ESP could not be asked, or its answer could not be read."""


@dataclass(frozen=True)
class _Answer:
    status: int
    body: Any  # the JSON answer, or None


def lift(address: str, *, wanted: bool) -> Lift:
    """Ask the ESP the site sends through to take ``address`` off its
    suppression list: a bounce's suppression always, one of the recipient's
    choice (a complaint, an unsubscribe) only when ``wanted``."""
    esp = sending_esp()
    ask = LIFTERS.get(esp)
    if ask is None:
        return Lift(esp, Outcome.NO_API)
    try:
        outcome, said = ask(address.strip().lower(), wanted)
    except AnymailConfigurationError as e:
        return Lift(esp, Outcome.FAILED, f"not configured: {type(e).__name__}")
    except _Unanswered as e:
        return Lift(esp, Outcome.FAILED, str(e))
    return Lift(esp, outcome, said)


# --- asking over HTTP ---------------------------------------------------------------


def _call(method: str, url: str, headers: dict[str, str], body: Any = None) -> _Answer:
    """One call to an ESP's API; an HTTP error status is an answer too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, raw = response.status, response.read(MAX_ANSWER)
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read(MAX_ANSWER)
    except (OSError, http.client.HTTPException, ValueError) as e:  # URLError, timeouts too
        raise _Unanswered(f"{method} not answered: {type(e).__name__}") from e
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None  # Mailgun's 401 is plain text ("Forbidden")
    return _Answer(status, parsed)


def _message(answer: _Answer) -> str:
    """The ESP's own words in an answer (Postmark's and Mailgun's ``Message``/``message``)."""
    if isinstance(answer.body, dict):
        said = answer.body.get("Message") or answer.body.get("message") or ""
        return str(said)[:200]
    return ""


def _error(answer: _Answer) -> _Unanswered:
    said = _message(answer)
    return _Unanswered(f"HTTP {answer.status}" + (f": {said}" if said else ""))


def _setting(esp: str, name: str, **kwargs: Any) -> Any:
    """An anymail setting of ``esp`` as its backend reads it: the mailer's
    ``OPTIONS``, else ``ANYMAIL_<ESP>_<NAME>``."""
    return get_anymail_setting(name, esp_name=esp, kwargs=options(), **kwargs)


# --- Postmark -----------------------------------------------------------------------


def _postmark(address: str, wanted: bool) -> tuple[Outcome, str]:
    api = str(_setting("postmark", "api_url", default="https://api.postmarkapp.com/"))
    stream = _setting("postmark", "message_stream", default=None) or "outbound"
    base = f"{api.rstrip('/')}/message-streams/{quote(str(stream), safe='')}/suppressions"
    headers = {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "X-Postmark-Server-Token": str(_setting("postmark", "server_token", allow_bare=True)),
    }
    if not wanted:
        found = _call("GET", f"{base}/dump?{urlencode({'EmailAddress': address})}", headers)
        if found.status != 200 or not isinstance(found.body, dict):
            raise _error(found)
        reasons = {
            str(s.get("SuppressionReason", ""))
            for s in found.body.get("Suppressions") or []
            if isinstance(s, dict) and str(s.get("EmailAddress", "")).lower() == address
        }
        if not reasons:
            return Outcome.NOT_LISTED, ""
        if reasons != {POSTMARK_BOUNCE}:
            return Outcome.KEPT, "suppressed for " + ", ".join(sorted(reasons))
    done = _call("POST", f"{base}/delete", headers, {"Suppressions": [{"EmailAddress": address}]})
    if done.status != 200 or not isinstance(done.body, dict):
        raise _error(done)
    for one in done.body.get("Suppressions") or []:
        if isinstance(one, dict) and str(one.get("EmailAddress", "")).lower() == address:
            if one.get("Status") == "Deleted":
                return Outcome.LIFTED, ""
            return Outcome.KEPT, f"{one.get('Status')}: {one.get('Message') or ''}"[:200]
    raise _Unanswered("HTTP 200 without the address in its Suppressions")


# --- Mailgun ------------------------------------------------------------------------

#: Mailgun's suppression lists: a bounce's, then those of the recipient's choice.
MAILGUN_BOUNCES = "bounces"
MAILGUN_CHOSEN = ("complaints", "unsubscribes")


def _mailgun(address: str, wanted: bool) -> tuple[Outcome, str]:
    api = str(_setting("mailgun", "api_url", default="https://api.mailgun.net/v3"))
    domain = _setting("mailgun", "sender_domain", allow_bare=True, default=None)
    domain = domain or parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2]
    key = str(_setting("mailgun", "api_key", allow_bare=True))
    headers = {
        "Accept": "application/json",
        "Authorization": "Basic " + base64.b64encode(f"api:{key}".encode()).decode(),
    }
    base = f"{api.rstrip('/')}/{quote(str(domain), safe='')}"
    who = quote(address, safe="@")
    if not wanted:
        for table in MAILGUN_CHOSEN:
            found = _mailgun_answer(_call("GET", f"{base}/{table}/{who}", headers))
            if found:
                return Outcome.KEPT, f"on the {table} list"
    lifted = False
    for table in (MAILGUN_BOUNCES, *MAILGUN_CHOSEN) if wanted else (MAILGUN_BOUNCES,):
        lifted = _mailgun_answer(_call("DELETE", f"{base}/{table}/{who}", headers)) or lifted
    return (Outcome.LIFTED if lifted else Outcome.NOT_LISTED), ""


def _mailgun_answer(answer: _Answer) -> bool:
    """Whether Mailgun found the address on the list asked about: 200 yes,
    404 no (unless it is the domain that was not found)."""
    if answer.status == 200:
        return True
    if answer.status == 404 and "domain" not in _message(answer).lower():
        return False
    raise _error(answer)


#: The ESPs whose suppression lists are lifted here, by anymail's name.
LIFTERS: dict[str, Callable[[str, bool], tuple[Outcome, str]]] = {
    "postmark": _postmark,
    "mailgun": _mailgun,
}
