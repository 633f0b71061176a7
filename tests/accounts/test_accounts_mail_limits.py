"""Limits on account mails (sign-in links, address confirmations): per
mailbox, per client and for the whole site, counted in the database so that
they hold in every process, with or without Redis."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.mail import EmailMessage
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from accounts import limits, services
from accounts.models import MailAllowance, User

pytestmark = pytest.mark.django_db

SIGN_IN = reverse("accounts:sign_in")
T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def defaults(settings: Any, time_machine: Any) -> None:
    """The default limits whatever the environment says, and a clock that
    stands still unless a test moves it."""
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_ADDRESS = 5
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_CLIENT = 20
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_HOUR = 200
    time_machine.move_to(T0, tick=False)


def ask(email: str, ip: str = "192.0.2.1") -> Any:
    """A sign-in link asked for by a browser at ``ip``."""
    return Client().post(SIGN_IN, {"email": email}, REMOTE_ADDR=ip)


def refusal(response: Any) -> str:
    assert response.status_code == 429, response.status_code
    errors = response.context["form"].non_field_errors()
    assert len(errors) == 1
    return str(errors[0])


@pytest.mark.parametrize(
    ("email", "box"),
    [
        ("Ann@Example.com", "ann@example.com"),
        ("ann+games@example.com", "ann@example.com"),
        ("a.n.n+x.y@example.com", "ann@example.com"),
        ("ann@googlemail.com", "ann@gmail.com"),
        ("+ann@example.com", "+ann@example.com"),
    ],
)
def test_mailbox(email: str, box: str) -> None:
    assert limits.mailbox(email) == box


def test_spellings_of_one_mailbox_share_its_limit(mailoutbox: list[EmailMessage]) -> None:
    spellings = [
        "victim@gmail.com",
        "Victim+1@gmail.com",
        "v.i.c.t.i.m@gmail.com",
        "victim+x.y@googlemail.com",
        "VICTIM+2@GMAIL.COM",
    ]
    for n, email in enumerate(spellings):
        assert ask(email, ip=f"192.0.2.{n + 1}").status_code == 302
    text = refusal(ask("victim+3@gmail.com", ip="198.51.100.7"))
    assert "already sent several emails to that address" in text
    assert "in 12 minutes" in text  # one more every 60 / 5 minutes
    assert len(mailoutbox) == 5
    assert ask("other@gmail.com").status_code == 302


def test_one_client_cannot_mail_many_addresses(mailoutbox: list[EmailMessage]) -> None:
    for n in range(20):
        assert ask(f"person{n}@example.com", ip="203.0.113.9").status_code == 302
    text = refusal(ask("person20@example.com", ip="203.0.113.9"))
    assert "asked for from your network" in text
    assert "in 3 minutes" in text
    assert ask("person20@example.com", ip="203.0.113.10").status_code == 302
    assert len(mailoutbox) == 21


def test_behind_a_proxy_the_client_is_the_address_the_proxy_appended(
    settings: Any, mailoutbox: list[EmailMessage]
) -> None:
    """Every request comes from the proxy (127.0.0.1); the client is the last
    X-Forwarded-For address, whatever the client put before it."""
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_CLIENT = 1
    settings.JUMBULAYA_PROXY_FORWARDED_FOR = True

    def via_proxy(email: str, forwarded: str) -> Any:
        return Client().post(
            SIGN_IN, {"email": email}, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded
        )

    assert via_proxy("a@example.com", "203.0.113.9").status_code == 302
    assert via_proxy("b@example.com", "198.51.100.4").status_code == 302  # another client
    # The same client, claiming to be someone else first: still that client.
    assert "from your network" in refusal(via_proxy("c@example.com", "192.0.2.1, 203.0.113.9"))
    # Off, the header is not believed: every request is the proxy's.
    settings.JUMBULAYA_PROXY_FORWARDED_FOR = False
    assert via_proxy("d@example.com", "192.0.2.200").status_code == 302
    assert "from your network" in refusal(via_proxy("e@example.com", "192.0.2.201"))


def test_an_ipv6_client_is_its_64(settings: Any, mailoutbox: list[EmailMessage]) -> None:
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_CLIENT = 2
    assert ask("a@example.com", ip="2001:db8:1:2::1").status_code == 302
    assert ask("b@example.com", ip="2001:db8:1:2:ffff::9").status_code == 302
    assert "from your network" in refusal(ask("c@example.com", ip="2001:db8:1:2::abcd"))
    assert ask("c@example.com", ip="2001:db8:1:3::1").status_code == 302
    # An IPv4 client seen through an IPv6 socket is that IPv4 client.
    assert ask("d@example.com", ip="192.0.2.77").status_code == 302
    assert ask("e@example.com", ip="192.0.2.77").status_code == 302
    assert "from your network" in refusal(ask("f@example.com", ip="::ffff:192.0.2.77"))


def test_the_whole_site_is_limited(
    settings: Any, time_machine: Any, mailoutbox: list[EmailMessage]
) -> None:
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_HOUR = 3
    for n in range(3):
        assert ask(f"p{n}@example.com", ip=f"192.0.2.{n + 1}").status_code == 302
    text = refusal(ask("p3@example.com", ip="192.0.2.99"))
    assert "This is not about you or your address" in text
    assert "in 20 minutes" in text
    time_machine.shift(timedelta(minutes=20))
    assert ask("p3@example.com", ip="192.0.2.99").status_code == 302
    assert len(mailoutbox) == 4


def test_the_wait_is_told_and_the_allowance_refills(
    time_machine: Any, mailoutbox: list[EmailMessage]
) -> None:
    for _ in range(5):
        assert ask("ann@example.com").status_code == 302
    assert "in 12 minutes" in refusal(ask("ann@example.com"))
    time_machine.shift(timedelta(minutes=11, seconds=30))
    assert "in 1 minute." in refusal(ask("ann@example.com"))
    time_machine.shift(timedelta(seconds=30))
    assert ask("ann@example.com").status_code == 302  # one share back after 12 minutes
    assert "in 12 minutes" in refusal(ask("ann@example.com"))
    time_machine.shift(timedelta(hours=1))
    for _ in range(5):
        assert ask("ann@example.com").status_code == 302  # whole again
    refusal(ask("ann@example.com"))
    assert len(mailoutbox) == 11


@pytest.fixture
def cache_of_its_own() -> Iterator[None]:
    """Each process with a cache of its own: this one is told of no send made
    by another (here, it keeps nothing at all)."""
    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    ):
        yield


@pytest.mark.parametrize("cache", ["redis_away", "cache_of_its_own"])
def test_limits_hold_without_a_shared_cache(
    cache: str, request: pytest.FixtureRequest, mailoutbox: list[EmailMessage]
) -> None:
    request.getfixturevalue(cache)
    for _ in range(5):
        assert ask("ann@example.com").status_code == 302
    refusal(ask("ann@example.com"))
    assert len(mailoutbox) == 5


def test_a_refused_request_uses_up_no_other_allowance(
    settings: Any, mailoutbox: list[EmailMessage]
) -> None:
    """A client past its limit cannot use up the allowance of the addresses
    it names: the share taken from them is given back."""
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_ADDRESS = 1
    settings.JUMBULAYA_ACCOUNT_MAILS_PER_CLIENT = 2
    assert ask("ann@example.com", ip="203.0.113.5").status_code == 302
    assert ask("bob@example.com", ip="203.0.113.5").status_code == 302
    assert "from your network" in refusal(ask("cy@example.com", ip="203.0.113.5"))
    assert ask("cy@example.com", ip="198.51.100.1").status_code == 302
    assert [m.to for m in mailoutbox] == [
        ["ann@example.com"],
        ["bob@example.com"],
        ["cy@example.com"],
    ]


def test_the_refusal_does_not_tell_who_has_an_account(
    account: Callable[..., User], mailoutbox: list[EmailMessage]
) -> None:
    account("ann")
    texts = []
    for email in ("ann@example.com", "zed@example.com"):
        for _ in range(5):
            ask(email)
        texts.append(refusal(ask(email)))
    assert texts[0] == texts[1]


def test_a_failed_send_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever makes a send fail must not let anyone make the site try without end."""

    def broken(*args: object, **kwargs: object) -> None:
        raise ConnectionRefusedError

    monkeypatch.setattr(services.EmailMultiAlternatives, "send", broken)
    for _ in range(5):
        assert ask("ann@example.com").status_code == 503
    refusal(ask("ann@example.com"))


def test_keys_are_keyed_hashes() -> None:
    ask("Ann.Smith+x@Example.com", ip="192.0.2.55")
    keys = list(MailAllowance.objects.values_list("key", flat=True))
    assert len(keys) == 3
    for key in keys:
        for leak in ("ann", "smith", "example", "192.0.2.55", "192"):
            assert leak not in key.lower(), key


def test_rows_that_hold_nothing_are_deleted_on_write(time_machine: Any) -> None:
    for n in range(10):
        ask(f"p{n}@example.com", ip=f"192.0.2.{n + 1}")
    assert MailAllowance.objects.count() == 10 + 10 + 1
    time_machine.shift(timedelta(hours=1, minutes=30))
    ask("q@example.com", ip="198.51.100.1")
    # An hour and a half on, p's rows (whole again an hour ago or more) are gone.
    assert MailAllowance.objects.count() == 3
    assert not MailAllowance.objects.filter(full_at__lte=T0 + timedelta(hours=1)).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("existing", [True, False])
def test_concurrent_takers_get_exactly_the_limit(existing: bool) -> None:
    """Eight requests at once on real connections (run it on PostgreSQL too),
    for a key with a row and for one without."""
    limit = limits.Limit("site", "site", 3)
    if existing:
        MailAllowance.objects.create(key="site", full_at=T0 - timedelta(days=1))
    barrier = threading.Barrier(8)
    results: list[object] = []

    def take() -> None:
        try:
            barrier.wait()
            results.append(limits.take([limit]))
        except Exception as e:  # the outcome is what the test looks at
            results.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 8
    assert results.count(None) == 3, results
    assert all(isinstance(r, limits.Refusal) for r in results if r is not None), results
