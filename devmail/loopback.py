"""The local mailbox answers this machine only.

It shows every email the site sends, sign-in links included, so anyone who
could open it could sign in as anyone.  Two guards, neither of which trusts
the other to be in place:

- each of its pages is a 404 to a request that does not come from a loopback
  address, or that a proxy relayed (an ``X-Forwarded-For``, ``Forwarded`` or
  ``X-Real-IP`` header: a proxy on this machine would make every client look
  local) (:func:`from_this_machine`);
- a run told to listen on an address others can reach (``RUN_HOST``, which
  ``make run`` gives every process it starts, ``Procfile.dev``) refuses to
  start while the mailbox is on (:func:`refuse_public_bind`).

``JUMBULAYA_DEV_MAILBOX_PUBLIC=1`` lifts both, for a mailbox a team shares on
a private network.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

#: Headers by which a proxy says whom it relays a request for.
RELAYED = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address, ``[::1]`` in brackets, or a name) is this
    machine's alone: a loopback address, ``localhost`` or a name under
    ``.localhost`` (RFC 6761).  ``0.0.0.0`` and ``::`` are every address."""
    host = host.strip().removeprefix("[").removesuffix("]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def from_this_machine(request: HttpRequest) -> bool:
    """Whether the request came from a loopback address, not relayed."""
    if any(request.META.get(header) for header in RELAYED):
        return False
    return is_loopback(request.META.get("REMOTE_ADDR", ""))


def mailbox_open_to(request: HttpRequest) -> bool:
    """Whether the mailbox may answer ``request``."""
    return settings.JUMBULAYA_DEV_MAILBOX_PUBLIC or from_this_machine(request)


def refuse_public_bind(host: str) -> None:
    """``ImproperlyConfigured`` when the mailbox is on and the server is to
    listen on ``host`` (``RUN_HOST``; empty: not said) that others can reach,
    without ``JUMBULAYA_DEV_MAILBOX_PUBLIC=1``."""
    if (
        not host
        or not settings.JUMBULAYA_MAILBOX
        or settings.JUMBULAYA_DEV_MAILBOX_PUBLIC
        or is_loopback(host)
    ):
        return
    raise ImproperlyConfigured(
        f"RUN_HOST={host!r}: the local mailbox (/dev/mailbox) is on, and it shows every "
        "email the site sends, sign-in links too, to whoever can open it. Listen on this "
        "machine only (make run HOST=127.0.0.1, the default), or turn the mailbox off "
        "(JUMBULAYA_MAILBOX=0, with an EMAIL_BACKEND that sends mail), or set "
        "JUMBULAYA_DEV_MAILBOX_PUBLIC=1 to show it to everyone who can reach "
        f"{host}."
    )
