import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from accounts.models import User


@pytest.mark.django_db
def test_home_page(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Jumbulaya" in response.content.decode()


@pytest.mark.django_db  # the home page names the robots of its one-click games
def test_the_site_has_an_icon(client: Client) -> None:
    """Every page names its icons, and /favicon.ico (asked for where no page names
    one) leads to the same file; the browser tests load them."""
    from django.contrib.staticfiles import finders

    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/favicon.ico"' in page
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.ico"
    assert finders.find("favicon.svg")
    icon_path = finders.find("favicon.ico")
    assert isinstance(icon_path, str)
    with open(icon_path, "rb") as icon:
        assert icon.read(4) == b"\x00\x00\x01\x00"  # an ICO file


@pytest.mark.django_db
def test_healthz(client: Client, settings: Any) -> None:
    """The embedded default: no beat or worker is expected (tests/test_ops.py has the rest)."""
    settings.JUMBULAYA_HEALTH_EXPECT_WORKERS = False
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


def test_healthz_refuses_post(client: Client) -> None:
    response = client.post("/healthz")
    assert response.status_code == 405


@pytest.mark.django_db
@pytest.mark.parametrize("digits", [19, 40])
def test_an_id_too_long_for_the_database_is_not_found(
    digits: int, make_user: Callable[[str], User], settings: Any
) -> None:
    """Every route with an id in its path: a number no 64-bit id can be is a 404,
    for GET and POST alike, never an overflow in the database driver."""
    settings.JUMBULAYA_MAILBOX = True
    client = Client(raise_request_exception=False)
    client.force_login(make_user("ann"))
    big = "9" * digits
    form = {"notation": "pass", "expected_seq": "1", "idempotency_key": "k" * 20}
    for path in ("games/{}/", "games/{}/record.json", "games/{}/replay/", "records/{}/",
                 "dev/mailbox/{}/", "dev/mailbox/{}/html/"):  # fmt: skip
        assert client.get("/" + path.format(big)).status_code == 404, path
    for path in ("games/{}/move/", "games/{}/preview/", "games/{}/join/",
                 "dev/mailbox/{}/reply/"):  # fmt: skip
        assert client.post("/" + path.format(big), form).status_code == 404, path


def test_every_setting_read_from_the_environment_is_in_env_example() -> None:
    root = Path(__file__).resolve().parent.parent
    source = (root / "jumbulaya_site" / "settings.py").read_text()
    read = set(re.findall(r'env(?:bool|str|list|int)\(\s*"([A-Z_]+)"', source))
    documented = set(re.findall(r"^#? ?([A-Z][A-Z_]+)=", (root / ".env.example").read_text(), re.M))
    assert len(read) > 20
    assert read - documented == set()


@pytest.mark.django_db
def test_error_pages_are_the_sites_own(client: Client, make_user: Any) -> None:
    """Django's bare error pages have no landmarks, no stylesheet and no way back."""
    from django.test import RequestFactory
    from django.views.defaults import bad_request, permission_denied, server_error

    client.force_login(make_user("ann"))
    missing = client.get("/games/987654/")
    assert missing.status_code == 404
    html = missing.content.decode()
    assert "<main>" in html and "There is nothing here" in html and "/dashboard/" in html
    request = RequestFactory().get("/")
    for view, words in ((bad_request, "could not be read"), (permission_denied, "not yours")):
        page = view(request, Exception()).content.decode()
        assert "<main>" in page and words in page, words
    failed = server_error(request).content.decode()
    assert "<main>" in failed and "Something went wrong on our side" in failed
    assert "Traceback" not in failed
