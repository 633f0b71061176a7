"""The API's OpenAPI document (django-ninja writes it from the endpoints'
types) and its docs page, which loads nothing from the internet."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from ninja import NinjaAPI
from openapi_spec_validator import validate

from accounts.models import User
from api.site import api
from tests.api.conftest import ApiClient
from tests.test_csp import SITE_POLICY, inline_code, policy

#: Every endpoint, as docs/api.md lists them.
ENDPOINTS = {
    ("get", "/api/v1/me"),
    ("get", "/api/v1/games"),
    ("post", "/api/v1/games"),
    ("get", "/api/v1/games/{game_id}"),
    ("get", "/api/v1/games/{game_id}/view"),
    ("get", "/api/v1/games/{game_id}/events"),
    ("post", "/api/v1/games/{game_id}/join"),
    ("post", "/api/v1/games/{game_id}/invite"),
    ("post", "/api/v1/games/{game_id}/moves"),
    ("post", "/api/v1/games/{game_id}/preview"),
    ("post", "/api/v1/games/{game_id}/resign"),
    ("get", "/api/v1/games/{game_id}/record"),
    ("post", "/api/v1/records"),
    ("get", "/api/v1/records"),
    ("delete", "/api/v1/records/{record_id}"),
}


@pytest.fixture
def document(client: Client) -> dict[str, Any]:
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    found: dict[str, Any] = json.loads(answer.content)
    return found


def test_the_document_is_valid_openapi(document: dict[str, Any]) -> None:
    validate(document)  # openapi-spec-validator: raises on any error
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "Jumbulaya by mail"


def test_the_document_names_every_endpoint_with_its_token_and_errors(
    document: dict[str, Any],
) -> None:
    named = {(m, path) for path, ops in document["paths"].items() for m in ops}
    assert named == ENDPOINTS
    schemes = document["components"]["securitySchemes"]
    assert schemes == {"TokenAuth": {"type": "http", "scheme": "bearer"}}
    for method, path in ENDPOINTS:
        operation = document["paths"][path][method]
        assert operation["security"] == [{"TokenAuth": []}], (method, path)
        assert {"401", "429"} <= set(operation["responses"]), (method, path)
    moves = document["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    assert {"400", "403", "404", "409", "422"} <= set(moves["responses"])
    assert [p["name"] for p in moves["parameters"] if p["in"] == "header"] == ["Idempotency-Key"]
    body = moves["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert set(document["components"]["schemas"][body.rpartition("/")[2]]["required"]) == {
        "move",
        "expected_seq",
    }


def test_every_route_of_the_api_is_in_the_document(document: dict[str, Any]) -> None:
    """The document is the API's own: no operation of the routers is left out."""
    routes = {
        (method.lower(), "/api/v1" + re.sub(r"\{\w+:(\w+)\}", r"{\1}", path.rstrip("/")))
        for router_path, router in api._routers
        for path, operations in router.path_operations.items()
        for operation in operations.operations
        for method in operation.methods
    }
    assert routes == ENDPOINTS


def test_the_document_is_built_once_and_served_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked for without a token, the document is built once per process and
    path, not once per request: a client asking again and again costs no
    rebuild (docs/api.md: why it has no limit of its own)."""
    api._documents.clear()
    built: list[str] = []
    real = NinjaAPI.get_openapi_schema

    def counted(self: NinjaAPI, **kw: Any) -> Any:
        built.append(str(kw.get("path_prefix")))
        return real(self, **kw)

    monkeypatch.setattr(NinjaAPI, "get_openapi_schema", counted)
    first = client.get("/api/v1/openapi.json").content
    for _ in range(3):
        assert client.get("/api/v1/openapi.json").content == first
    assert len(built) == 1
    assert json.loads(first)["paths"]


def test_the_docs_page_is_served_from_this_site_under_its_policy(
    client: Client, make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    page = client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert policy(page) == SITE_POLICY
    assert inline_code(html) == []
    loaded = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert loaded and all(url.startswith("/static/ninja/") for url in loaded), loaded
    for url in loaded:
        assert finders.find(url.removeprefix("/static/")), url
    settings = json.loads(re.search(r'id="swagger-settings">(.*?)</script>', html, re.S)[1])  # type: ignore[index]
    assert settings["url"] == "/api/v1/openapi.json"
    assert settings["validatorUrl"] is None  # Swagger UI's badge would load from the internet


def test_any_other_api_path_is_a_json_404(
    api_for: Callable[[User], ApiClient], make_user: Callable[[str], User]
) -> None:
    answer = api_for(make_user("ann")).get("/no/such/thing")
    assert answer.status == 404 and answer.json["code"] == "not_found"
    assert Client().get("/api/v2/games").json()["code"] == "not_found"


def test_a_failure_is_a_json_500_without_a_traceback(
    started_game: Callable[..., Any],
    seat_api: Callable[..., ApiClient],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from api import reading

    def broken(user: Any) -> Any:
        raise RuntimeError("secret detail of a bug")

    monkeypatch.setattr(reading, "my_games", broken)
    game = started_game()
    answer = seat_api(game, 0).get("/games")
    assert answer.status == 500 and answer.json["code"] == "server_error"
    assert "secret detail" not in answer.text and "Traceback" not in answer.text
    assert "secret detail of a bug" in caplog.text  # logged, with its traceback
