"""The API, version 1, under ``/api/v1/``: its routers, its token auth, its
JSON errors, and its docs page (Swagger UI from django-ninja's own static
files, served by this site: nothing is loaded from the internet, and the
page keeps the site's Content-Security-Policy)."""

from __future__ import annotations

from typing import Any

from ninja import NinjaAPI, Swagger
from ninja.openapi.schema import OpenAPISchema

from api import errors, game_routes, me_routes, move_routes, record_routes
from api.auth import TokenAuth
from api.bodies import JsonParser

DESCRIPTION = """\
Play Jumbulaya by mail from a program: a client, a bot, a notebook.

Every request carries a personal access token, made on your profile page:
`Authorization: Bearer jmb_…`. Each token may make a set number of requests a
minute (`GET /me` says how many); past it the answer is 429 with `Retry-After`.
Bodies are JSON, sent as `Content-Type: application/json` (415 else). Errors are
JSON `{"code": ..., "message": ...}`, whatever the path under `/api/`.

A program waits for its turn with `GET /games/{id}/events?after=<seq>&wait=20`,
reads its seat with `GET /games/{id}/view` and moves with
`POST /games/{id}/moves` (`expected_seq`, and an `Idempotency-Key` header so a
resent move is never made twice).
"""


class Api(NinjaAPI):
    """The API, its OpenAPI document built once per process and path: the
    routes are fixed when the process starts, and building the document costs
    some 50 ms, which an anonymous client could ask for again and again (the
    document and the docs page are served without a token).  Served from here,
    it costs what answering a page does, and needs no limit of its own."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._documents: dict[tuple[str | None, tuple[tuple[str, Any], ...]], OpenAPISchema] = {}

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None
    ) -> OpenAPISchema:
        key = (path_prefix, tuple(sorted((path_params or {}).items())))
        if key not in self._documents:
            self._documents[key] = super().get_openapi_schema(
                path_prefix=path_prefix, path_params=path_params
            )
        return self._documents[key]


api = Api(
    title="Jumbulaya by mail",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    auth=TokenAuth(),
    parser=JsonParser(),
    # The page is served from django-ninja's static files ("ninja" is an installed
    # app); Swagger UI's default validator badge would load an image from the
    # internet: it is turned off.
    docs=Swagger(settings={"validatorUrl": None, "persistAuthorization": False}),
    docs_url="/docs",
    openapi_url="/openapi.json",
)
errors.install(api)
for router in (
    me_routes.router,
    game_routes.router,
    move_routes.router,
    record_routes.router,
):
    api.add_router("", router)
