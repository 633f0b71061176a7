"""Personal access tokens: made and revoked on the profile page, shown once,
kept hashed; ``Authorization: Bearer``; each token's rate limit; no CORS; bot
accounts."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts import access_tokens
from accounts.models import AccessToken, User
from games.models import Game
from tests.api.conftest import ApiClient

PROFILE = "/account/profile/"
TOKEN_SHOWN = re.compile(r"<code data-new-token>(jmb_[^<]+)</code>")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_token_is_made_on_the_profile_page_shown_once_and_kept_hashed(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    page = signed_in(ann)
    made = page.post(PROFILE, {"action": "token", "token_name": "my bot"})
    assert made.status_code == 200
    found = TOKEN_SHOWN.search(made.content.decode())
    assert found is not None
    token = found.group(1)
    row = AccessToken.objects.get(user=ann)
    assert row.name == "my bot" and row.last_used_at is None
    prefix, secret = token.removeprefix("jmb_").split("_", 1)
    assert row.prefix == prefix
    assert row.secret_sha256 == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(AccessToken.objects.values()))
    # Listed by name from now on, never shown again.
    listed = page.get(PROFILE).content.decode()
    assert "my bot" in listed and f"jmb_{prefix}_" in listed and secret not in listed
    # It works, and its use is noted.
    answer = ApiClient(token).get("/me")
    assert answer.status == 200
    assert answer.json == {
        "id": ann.pk,
        "name": "Ann",
        "bot": False,
        "robot": False,
        "time_zone": "UTC",
        "token": {"name": "my bot", "requests_per_minute": 120},
    }
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_a_token_needs_a_name(make_user: Callable[[str], User]) -> None:
    page = signed_in(make_user("ann"))
    refused = page.post(PROFILE, {"action": "token", "token_name": "   "})
    assert refused.status_code == 400
    assert "Give the token a name" in refused.content.decode()
    assert not AccessToken.objects.exists()


def test_a_revoked_token_no_longer_works(
    make_user: Callable[[str], User], token_for: Callable[[User], str]
) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    token = token_for(ann)
    row = AccessToken.objects.get(user=ann)
    # Another account cannot revoke it.
    signed_in(bob).post(PROFILE, {"action": "revoke", "token_id": str(row.pk)})
    assert ApiClient(token).get("/me").status == 200
    signed_in(ann).post(PROFILE, {"action": "revoke", "token_id": str(row.pk)})
    answer = ApiClient(token).get("/me")
    assert answer.status == 401 and answer.json["code"] == "unauthorized"


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Basic YW5uOmFubg==",
        "Bearer jmb_000000000000_" + "A" * 43,  # unknown prefix
        "Bearer not-a-token",
    ],
)
def test_no_usable_token_is_a_401_with_the_scheme(
    make_user: Callable[[str], User], authorization: str | None
) -> None:
    make_user("ann")
    headers = {} if authorization is None else {"Authorization": authorization}
    answer = ApiClient(None).get("/me", headers=headers)
    assert answer.status == 401
    assert answer.headers["WWW-Authenticate"] == 'Bearer realm="api"'
    assert set(answer.json) == {"code", "message"}


def test_a_wrong_secret_with_a_real_prefix_is_refused(
    make_user: Callable[[str], User], token_for: Callable[[User], str]
) -> None:
    token = token_for(make_user("ann"))
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    assert ApiClient(forged).get("/me").status == 401
    assert ApiClient(token).get("/me").status == 200


def test_an_inactive_accounts_tokens_stop_working(
    make_user: Callable[[str], User], token_for: Callable[[User], str]
) -> None:
    ann = make_user("ann")
    token = token_for(ann)
    User.objects.filter(pk=ann.pk).update(is_active=False)
    assert ApiClient(token).get("/me").status == 401


def test_past_its_rate_an_account_gets_429_with_retry_after_whichever_token_it_uses(
    make_user: Callable[[str], User], token_for: Callable[[User], str], settings: Any
) -> None:
    settings.JUMBULAYA_API_REQUESTS_PER_MINUTE = 3
    ann = make_user("ann")
    token = token_for(ann)
    other = token_for(ann, "another")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        # Two clients, two tokens of one account: the count is the account's, in the database.
        first, second = ApiClient(token), ApiClient(other)
        assert [c.get("/me").status for c in (first, second, first)] == [200, 200, 200]
        refused = second.get("/me")
        assert refused.status == 429
        assert refused.json["code"] == "rate_limited"
        assert refused.headers["Retry-After"] == "20"  # one request every 20 s
        assert ApiClient(token_for(ann, "a third")).get("/me").status == 429  # a new token too
        assert ApiClient(token_for(make_user("bob"))).get("/me").status == 200  # Bob's own
        clock.shift(timedelta(seconds=19))
        assert first.get("/me").headers["Retry-After"] == "1"
        clock.shift(timedelta(seconds=1))
        assert first.get("/me").status == 200
        assert first.get("/me").status == 429
        clock.shift(timedelta(minutes=1))
        assert [first.get("/me").status for _ in range(4)] == [200, 200, 200, 429]


def test_requests_without_a_usable_token_are_counted_by_their_client_address(
    make_user: Callable[[str], User], token_for: Callable[[User], str], settings: Any
) -> None:
    """Guessing tokens is as slow as using one: past the limit, 429 before the token
    is even looked at; another client, and a real token, are not held up."""
    settings.JUMBULAYA_API_REQUESTS_PER_MINUTE = 3
    good = ApiClient(token_for(make_user("ann")))
    with time_machine.travel(timezone.now(), tick=False) as clock:
        guesses = [ApiClient(f"jmb_{n:012x}_{'x' * 43}").get("/me") for n in range(5)]
        assert [a.status for a in guesses] == [401, 401, 401, 429, 429]
        assert guesses[3].json["code"] == "rate_limited"
        assert guesses[3].headers["Retry-After"] == "20"
        assert ApiClient(None).get("/me").status == 429  # no token at all: the same count
        assert good.get("/me").status == 200
        elsewhere = Client(REMOTE_ADDR="198.51.100.7")
        assert elsewhere.get("/api/v1/me").status_code == 401
        clock.shift(timedelta(seconds=20))
        assert ApiClient(None).get("/me").status == 401


def test_refused_requests_do_not_use_the_allowance(
    make_user: Callable[[str], User], token_for: Callable[[User], str], settings: Any
) -> None:
    """A token hammering past its limit is let through again as soon as its
    allowance refills, not later."""
    settings.JUMBULAYA_API_REQUESTS_PER_MINUTE = 2
    token = token_for(make_user("ann"))
    with time_machine.travel(timezone.now(), tick=False) as clock:
        api = ApiClient(token)
        assert [api.get("/me").status for _ in range(10)] == [200, 200] + [429] * 8
        clock.shift(timedelta(seconds=30))
        assert api.get("/me").status == 200


def test_no_answer_allows_another_origin(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    """CORS is closed: no answer names an allowed origin, so scripts on other
    sites cannot read the API's answers (the token is never a cookie either)."""
    game = started_game()
    api = seat_api(game, game.turn_seat)
    origin = {"Origin": "https://elsewhere.example"}
    answers = [
        api.get("/me", headers=origin),
        api.get(f"/games/{game.pk}/view", headers=origin),
        api.post(f"/games/{game.pk}/preview", {"move": "pass"}, headers=origin),
        ApiClient(None).get("/me", headers=origin),
        api.get("/openapi.json", headers=origin),
    ]
    preflight = Client().options(
        f"/api/v1/games/{game.pk}/moves",
        headers={**origin, "Access-Control-Request-Method": "POST"},
    )
    for answer in answers:
        assert not [h for h in answer.headers if h.lower().startswith("access-control-")]
    assert not [h for h in preflight.headers if h.lower().startswith("access-control-")]


def test_a_session_cookie_is_no_token(make_user: Callable[[str], User]) -> None:
    """A signed-in browser's cookie does not open the API."""
    answer = signed_in(make_user("ann")).get("/api/v1/me")
    assert answer.status_code == 401


def test_an_account_marked_a_bot_is_named_so_wherever_its_name_is_shown(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    bob = game.seats.get(index=1).user
    assert bob is not None
    page = signed_in(bob)
    page.post(PROFILE, {"action": "bot", "is_bot": "on"})
    bob.refresh_from_db()
    assert bob.is_bot and bob.public_name == "Bob (bot)"
    ann_page = signed_in(game.seats.get(index=0).user)
    assert "Bob (bot)" in ann_page.get(f"/games/{game.pk}/").content.decode()
    assert "Against Bob (bot)" in ann_page.get("/dashboard/").content.decode()
    players = seat_api(game, 0).get(f"/games/{game.pk}").json["players"]
    assert players[1] == {"seat": 1, "name": "Bob (bot)", "bot": True, "robot": False}
    assert seat_api(game, 1).get("/me").json["bot"] is True
    page.post(PROFILE, {"action": "bot"})
    bob.refresh_from_db()
    assert not bob.is_bot and bob.public_name == "Bob"


def test_tokens_per_account_are_bounded(make_user: Callable[[str], User]) -> None:
    ann = make_user("ann")
    for i in range(access_tokens.MAX_TOKENS):
        access_tokens.make(ann, f"t{i}")
    with pytest.raises(access_tokens.TokenError, match="revoke one"):
        access_tokens.make(ann, "one more")
