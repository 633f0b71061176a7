"""The API, version 1, under ``/api/v1/``: its routers, its token auth, its
JSON errors, and its docs page (Swagger UI from django-ninja's own static
files, served by this site: nothing is loaded from the internet, and the
page keeps the site's Content-Security-Policy)."""

from __future__ import annotations

from ninja import NinjaAPI, Swagger

from api import errors, game_routes, me_routes, move_routes, record_routes
from api.auth import TokenAuth

DESCRIPTION = """\
Play Jumbulaya by mail from a program: a client, a bot, a notebook.

Every request carries a personal access token, made on your profile page:
`Authorization: Bearer jmb_…`. Each token may make a set number of requests a
minute (`GET /me` says how many); past it the answer is 429 with `Retry-After`.
Errors are JSON `{"code": ..., "message": ...}`.

A program waits for its turn with `GET /games/{id}/events?after=<seq>&wait=20`,
reads its seat with `GET /games/{id}/view` and moves with
`POST /games/{id}/moves` (`expected_seq`, and an `Idempotency-Key` header so a
resent move is never made twice).
"""

api = NinjaAPI(
    title="Jumbulaya by mail",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    auth=TokenAuth(),
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
