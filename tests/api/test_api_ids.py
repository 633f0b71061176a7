"""An id that names no row is a JSON 404 ``not_found`` on every route that
takes one, however large (ids of 2^63 and more overflowed SQLite's integers
in some queries: a 500), or small, or not a number at all."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from accounts.models import User
from api.site import api
from games.models import Game
from tests.api.conftest import ApiClient

#: A body each route takes, so that only the id can be wrong.
BODIES: dict[str, Any] = {
    "moves": {"move": "pass", "expected_seq": 1},
    "preview": {"move": "pass"},
    "invite": {"emails": ["zed@example.com"]},
    "resign": {},
}


def routes_with_ids() -> Iterator[tuple[str, str]]:
    """``(method, path)`` of every route in the OpenAPI document with an id in
    its path, the path relative to ``/api/v1``."""
    for path, methods in api.get_openapi_schema(path_prefix="")["paths"].items():
        if re.search(r"\{\w+_id\}", path):
            for method in methods:
                yield method, path


ROUTES = [pytest.param(m, p, id=f"{m} {p}") for m, p in routes_with_ids()]
BAD_IDS = [2**63, 2**63 - 1, 2**64, 10**30, 10**18, 0, "000000000000000000001", -1, "x", "1.5"]


def test_the_routes_with_ids_are_all_found() -> None:
    found = {(m, p) for m, p in routes_with_ids()}
    game = "/games/{game_id}"
    assert {("get", game), *(("get", f"{game}/{r}") for r in ("view", "events", "record"))} <= found
    posts = ("moves", "preview", "resign", "invite", "join")
    assert {("post", f"{game}/{r}") for r in posts} <= found


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_an_id_that_names_no_row_is_a_json_404_on_every_route(
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
    started_game: Callable[..., Game],
    method: str,
    path: str,
) -> None:
    started_game()  # rows there are, so that nothing is found for want of any
    client = api_for(make_user("eve"))
    body = BODIES.get(path.rsplit("/", 1)[-1], {})
    for bad in BAD_IDS:
        url = re.sub(r"\{\w+_id\}", str(bad), path)
        if method == "get":
            answer = client.get(url)
        elif method == "post":
            answer = client.post(url, body)
        elif method == "delete":
            answer = client.delete(url)
        else:
            pytest.fail(f"a {method} route: teach this test to send one")
        assert (answer.status, answer.json["code"]) == (404, "not_found"), (bad, answer.text)
    assert not Game.objects.filter(status=Game.Status.OVER).exists()
