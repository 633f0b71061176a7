"""Limits counted in the database: the account mails (sign-in links, address
confirmations) anyone can make the site send, per mailbox, per client and for
the whole site; the API's requests, per account and, for requests without
a usable token, per client; and the records an account uploads to replay.

Each limit is a bucket of ``allowance`` sends that refills evenly over its
``period`` (the generic cell rate algorithm; an hour for the mails, a minute for
the API, a day for uploads): a quiet key may send ``allowance`` at once, then one every
``period / allowance``.  A key's state is one
:class:`~accounts.models.MailAllowance` row, ``full_at``: when its bucket is
whole again.  A send is allowed when, after moving ``full_at`` on by one share
(``interval``), the bucket holds at most a period's worth, i.e. when
``full_at <= now + period - interval`` before the move.  The check and the move
are one conditional UPDATE, so concurrent requests in any number of processes
never let more through than the limit, on SQLite and PostgreSQL alike.

A request takes one send from each of its limits, all or none: when a later
limit refuses, the sends taken from the earlier ones are given back, so
refused requests use up nobody's allowance (a flood from one client that is
refused does not lock the addresses it names out of their own links).  Every
statement commits on its own (call :func:`take` outside a transaction): no
transaction holds the rows of several limits at once, so takers and the
pruning never wait on each other in a cycle, and the site-wide row is locked
for one statement at a time.

Rows whose ``full_at`` is over an hour past are deleted whenever a new row is
made: the table holds about the keys active in the last two hours.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import MailAllowance

log = logging.getLogger(__name__)

HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)
DAY = timedelta(days=1)
KEY_SALT = "accounts.limits"
#: Domains whose mailboxes are one under another name.
SAME_DOMAIN = {"googlemail.com": "gmail.com"}


@dataclass(frozen=True)
class Limit:
    #: ``address``, ``client`` or ``site`` (mails); ``api-account`` or ``api-client``;
    #: ``record-upload``.
    kind: str
    #: The row's key: the kind and a keyed hash of what is limited.
    key: str
    #: How many a quiet key may send at once, and in each ``period``.
    allowance: int
    period: timedelta = HOUR

    @property
    def interval(self) -> timedelta:
        return self.period / self.allowance


@dataclass(frozen=True)
class Refusal:
    #: The kind of limit that refused.
    kind: str
    #: How long until it lets one more through.
    wait: timedelta


def mailbox(email: str) -> str:
    """The mailbox an address delivers to, as far as a limit can tell: lower
    case, without a ``+tag``, and without dots in the local part.

    Gmail ignores those dots (``a.n.n@gmail.com`` is ``ann@gmail.com``), and
    so does every Google Workspace domain, which cannot be told from its name;
    so dots are dropped for every domain.  Two people whose addresses differ
    only by dots would share one allowance, which costs them little; keeping
    the dots would let anyone mail one Gmail user a link per spelling."""
    local, _, domain = email.strip().lower().rpartition("@")
    local = local.partition("+")[0].replace(".", "") or local
    domain = SAME_DOMAIN.get(domain, domain)
    return f"{local}@{domain}"


def client_address(request: HttpRequest) -> str:
    """The address of the client that sent ``request``: the peer of the
    connection (``REMOTE_ADDR``), or, behind a proxy and with
    ``JUMBULAYA_PROXY_FORWARDED_FOR`` on, the last address in
    ``X-Forwarded-For``, the one the proxy itself appended (those before it are
    whatever the client claimed).  Without that, behind a proxy every request
    comes from the proxy, and the per-client limit acts as a site-wide one."""
    if settings.JUMBULAYA_PROXY_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded.strip():
            return str(forwarded.split(",")[-1].strip())
    return str(request.META.get("REMOTE_ADDR", ""))


def client_network(remote_addr: str) -> str | None:
    """What a client is known by: its IPv4 address, or the /64 of its IPv6
    address (one subscriber's usual share, all of which it can use); ``None``
    when there is no usable address (a Unix socket, a test without one).

    ``remote_addr`` is what :func:`client_address` found."""
    try:
        ip = ipaddress.ip_address(remote_addr.strip())
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _key(kind: str, value: str) -> str:
    return f"{kind}:{salted_hmac(KEY_SALT, f'{kind}:{value}', algorithm='sha256').hexdigest()}"


def account_mail_limits(email: str, client: str) -> list[Limit]:
    """The limits a mail to ``email`` asked for by ``client`` (its
    ``REMOTE_ADDR``, or ``""`` when no client asked) counts against."""
    found = [
        Limit(
            "address", _key("address", mailbox(email)), settings.JUMBULAYA_ACCOUNT_MAILS_PER_ADDRESS
        )
    ]
    network = client_network(client)
    if network is not None:
        found.append(
            Limit("client", _key("client", network), settings.JUMBULAYA_ACCOUNT_MAILS_PER_CLIENT)
        )
    found.append(Limit("site", "site", settings.JUMBULAYA_ACCOUNT_MAILS_PER_HOUR))
    return found


def api_account_limit(user_id: int) -> Limit:
    """The API requests one account may make, whichever of its tokens it sends."""
    per_minute = int(settings.JUMBULAYA_API_REQUESTS_PER_MINUTE)
    return Limit("api-account", _key("api-account", str(user_id)), per_minute, MINUTE)


def api_client_limit(client: str) -> Limit | None:
    """The API requests a client may make without a usable token (``None`` when
    the request has no usable address)."""
    network = client_network(client)
    if network is None:
        return None
    per_minute = int(settings.JUMBULAYA_API_REQUESTS_PER_MINUTE)
    return Limit("api-client", _key("api-client", network), per_minute, MINUTE)


def record_upload_limit(user_id: int) -> Limit | None:
    """The records one account may upload to replay in a day, stored or refused
    (each is read and replayed); ``None`` when there is no limit."""
    per_day = int(settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY)
    if per_day <= 0:
        return None
    return Limit("record-upload", _key("record-upload", str(user_id)), per_day, DAY)


def take(limits: Sequence[Limit]) -> Refusal | None:
    """Take one send from each limit, or none if any refuses: ``None`` when
    all allowed it, else the first refusal."""
    now = timezone.now()
    taken: list[Limit] = []
    for limit in limits:
        if not _take(limit, now):
            for earlier in taken:
                _give_back(earlier)
            log.info("a request was refused by the %s limit", limit.kind)
            return Refusal(limit.kind, _wait(limit, now))
        taken.append(limit)
    return None


def _take(limit: Limit, now: datetime) -> bool:
    if _move_on(limit, now):
        return True
    try:
        with transaction.atomic():
            MailAllowance.objects.create(key=limit.key, full_at=now + limit.interval)
    except IntegrityError:
        # The row is there: it refused, or another request made it meanwhile.
        return _move_on(limit, now)
    MailAllowance.objects.filter(full_at__lt=now - HOUR).delete()
    return True


def _move_on(limit: Limit, now: datetime) -> bool:
    """Take one send from the key's row if it has one to give: one
    conditional UPDATE, so concurrent takers are counted one by one."""
    moved = MailAllowance.objects.filter(
        key=limit.key, full_at__lte=now + limit.period - limit.interval
    ).update(
        full_at=Case(
            When(full_at__lt=now, then=Value(now + limit.interval)),
            default=F("full_at") + limit.interval,
        )
    )
    return bool(moved)


def _give_back(limit: Limit) -> None:
    MailAllowance.objects.filter(key=limit.key).update(full_at=F("full_at") - limit.interval)


def _wait(limit: Limit, now: datetime) -> timedelta:
    full_at = MailAllowance.objects.filter(key=limit.key).values_list("full_at", flat=True).first()
    if full_at is None:
        return timedelta(0)
    return max(timedelta(0), full_at - (now + limit.period - limit.interval))
