"""Every answer under ``/api/`` that is not a success is JSON ``{"code",
"message"}``: a path that matches no route, whatever the method and with or
without a signed-in browser's cookies (no CSRF page), a method a route does
not take (405 with ``Allow``), a Host the site does not serve, and whatever
else Django answers outside the API's own handlers."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.http import HttpResponse
from django.test import AsyncClient, Client, RequestFactory

from accounts.models import User
from api.middleware import as_json
from games.models import Game
from tests.api.conftest import API, ApiClient

METHODS = ["get", "post", "put", "patch", "delete", "options"]


def is_json(response: Any, status: int, code: str) -> dict[str, str]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    assert body["code"] == code and body["message"], body
    assert set(body) == {"code", "message"}
    return dict(body)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/nothing/at/all", "/api/v1/games/1/x"])
def test_a_path_that_matches_no_route_is_a_json_404_even_to_a_signed_in_browser(
    make_user: Callable[[str], User], method: str, path: str
) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_user("ann"))  # its session cookie is sent, no CSRF token
    response = browser.generic(method.upper(), path, "{}", content_type="application/json")
    is_json(response, 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("put", "/games", {"GET", "POST"}),
        ("delete", "/games/{id}", {"GET"}),
        ("get", "/games/{id}/moves", {"POST"}),
        ("patch", "/games/{id}/resign", {"POST"}),
        ("post", "/me", {"GET"}),
    ],
)
def test_a_method_a_route_does_not_take_is_a_json_405_with_allow(
    started_game: Callable[..., Game],
    seat_api: Callable[..., ApiClient],
    method: str,
    path: str,
    allowed: set[str],
) -> None:
    game = started_game()
    api = seat_api(game, 0)
    browser = Client(enforce_csrf_checks=True)
    response = browser.generic(
        method.upper(),
        f"{API}{path.format(id=game.pk)}",
        "{}",
        content_type="application/json",
        headers=api._headers(None),
    )
    said = is_json(response, 405, "method_not_allowed")
    assert {m.strip() for m in response["Allow"].split(",")} == allowed
    assert method.upper() in said["message"]
    assert Game.objects.get().status == Game.Status.PLAYING


def test_served_through_asgi_the_answers_are_json_too() -> None:
    client = AsyncClient()
    is_json(async_to_sync(client.put)(f"{API}/games"), 405, "method_not_allowed")
    is_json(async_to_sync(client.post)(f"{API}/nothing"), 404, "not_found")


def test_a_host_the_site_does_not_serve_is_a_json_400() -> None:
    response = Client().get(f"{API}/me", headers={"Host": "elsewhere.example"})
    is_json(response, 400, "bad_request")


def test_an_answer_made_outside_the_api_is_rewritten_with_its_headers_and_marks() -> None:
    request = RequestFactory().get("/api/v1/games")
    away = HttpResponse("<p>back soon</p>", status=503, content_type="text/html")
    away["Retry-After"] = "30"
    away._has_been_logged = True  # type: ignore[attr-defined]
    answer = as_json(request, away)
    assert is_json(answer, 503, "unavailable")
    assert answer["Retry-After"] == "30" and answer._has_been_logged  # type: ignore[attr-defined]
    crash = as_json(request, HttpResponse("<h1>Server Error (500)</h1>", status=500))
    assert is_json(crash, 500, "server_error")
    teapot = as_json(request, HttpResponse("short and stout", status=418))
    assert is_json(teapot, 418, "error")["message"] == "I'm a Teapot."


def test_pages_and_successes_are_left_as_they_are() -> None:
    page = HttpResponse("<h1>Not Found</h1>", status=404)
    assert as_json(RequestFactory().get("/games/9/"), page) is page
    docs = HttpResponse("<html>Swagger</html>")
    assert as_json(RequestFactory().get("/api/v1/docs"), docs) is docs
