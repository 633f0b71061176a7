"""The Content-Security-Policy: every page carries it, no page needs what it refuses
(inline scripts and styles, event handler attributes, htmx's eval and its own <style>),
and an email in the local mailbox is shown under a policy of its own. The browser tests
(tests/e2e) check that no page logs a violation."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from devmail.models import Message
from games.models import Game

REPO = Path(__file__).resolve().parent.parent

#: The site's policy, nonces left out.
SITE_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def policy(response: Any, header: str = "Content-Security-Policy") -> dict[str, list[str]]:
    """The policy as directive: sources, nonces left out."""
    directives = [d.split() for d in response[header].split(";")]
    return {d[0]: [v for v in d[1:] if not v.startswith("'nonce-")] for d in directives}


class _InlineCode(HTMLParser):
    """What a browser would run or apply from the markup itself."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        text = self.get_starttag_text() or tag
        if tag == "style" or "style" in a:
            self.found.append(text)
        if tag == "script" and "src" not in a and a.get("type") != "application/json":
            self.found.append(text)
        # Event handler attributes, and what htmx runs through eval.
        if any(n.startswith("on") or n.startswith(("hx-on", "hx-vars")) for n in a):
            self.found.append(text)
        if any(
            n in ("hx-vals", "hx-headers") and (v or "").startswith("js:") for n, v in a.items()
        ):
            self.found.append(text)
        if "[" in (a.get("hx-trigger") or ""):  # an event filter
            self.found.append(text)


def inline_code(markup: str) -> list[str]:
    finder = _InlineCode()
    finder.feed(markup)
    finder.close()
    return finder.found


def page_templates() -> list[Path]:
    """Every template of a page (emails are not pages)."""
    root = REPO / "templates"
    return sorted(p for p in root.rglob("*.html") if "emails" not in p.relative_to(root).parts)


def test_no_page_template_has_inline_code() -> None:
    templates = page_templates()
    assert len(templates) > 20
    found = {str(p.relative_to(REPO)): inline_code(p.read_text()) for p in templates}
    assert {name: code for name, code in found.items() if code} == {}


def test_the_inline_code_finder_finds_it() -> None:
    """The test above would see each kind."""
    markup = """<script>alert(1)</script><script src="/a.js"></script><style>p{}</style>
    <p style="color:red"><button onclick="go()"><div hx-on:click="go()"><div hx-vars="a:1">
    <div hx-vals='js:{a: 1}'><div hx-trigger="click[ctrlKey]"><div hx-trigger="every 30s">
    <script id="data" type="application/json">{}</script>"""
    assert len(inline_code(markup)) == 8


@pytest.mark.django_db
def test_every_page_carries_the_policy(
    client: Client, started_game: Callable[..., Game], settings: Any
) -> None:
    settings.JUMBULAYA_MAILBOX = True
    for path in ("/", "/account/sign-in/"):  # signed out
        assert policy(client.get(path)) == SITE_POLICY, path
    game = started_game()
    client.force_login(game.seats.get(index=0).user)
    paths = ["/dashboard/", "/games/new/", "/games/open/", f"/games/{game.pk}/",
             "/records/upload/", "/account/profile/", "/settings/email/", "/vacation/",
             "/dev/mailbox/"]  # fmt: skip
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert policy(response) == SITE_POLICY, path
        assert inline_code(response.content.decode()) == [], path


@pytest.mark.django_db
def test_htmx_is_configured_for_the_policy(
    client: Client, started_game: Callable[..., Game]
) -> None:
    """No indicator <style> of its own, no eval, no style attribute settled (a swap
    would copy one by setAttribute, which the policy refuses); the game page adds its
    own options."""
    game = started_game()
    client.force_login(game.seats.get(index=0).user)

    def htmx_config(path: str) -> dict[str, Any]:
        page = client.get(path).content.decode()
        found = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
        assert found, path
        config: dict[str, Any] = json.loads(found.group(1))
        return config

    assert htmx_config("/games/open/") == {
        "includeIndicatorStyles": False,
        "allowEval": False,
        "attributesToSettle": ["class", "width", "height"],
    }
    on_the_game = htmx_config(f"/games/{game.pk}/")
    assert on_the_game["includeIndicatorStyles"] is False and on_the_game["allowEval"] is False
    assert "style" not in on_the_game["attributesToSettle"]
    assert {"code": "422", "swap": True} in on_the_game["responseHandling"]


@pytest.mark.django_db
def test_the_csrf_failure_page_keeps_its_style_by_the_nonce() -> None:
    client = Client(enforce_csrf_checks=True)
    refused = client.post("/account/sign-in/", {"email": "ann@example.com"})
    assert refused.status_code == 403
    nonce = re.search(r'<style nonce="([^"]+)">', refused.content.decode())
    assert nonce is not None
    assert f"'nonce-{nonce.group(1)}'" in refused["Content-Security-Policy"].split("; ")[2]


HEAD = '<meta charset="utf-8">'
BODY = (
    '<body><p style="color:#2f5d50">Your turn: <a href="http://127.0.0.1:8000/">open</a></p></body>'
)


@pytest.mark.django_db
def test_an_emails_html_is_framed_under_a_policy_of_its_own(settings: Any, client: Client) -> None:
    """A srcdoc frame would take the page's policy, which refuses the inline styles an
    email is made of: the HTML comes from its own address, with its own policy."""
    settings.JUMBULAYA_MAILBOX = True
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    email = EmailMultiAlternatives("Your turn", "Your turn", to=["ann@example.com"])
    email.attach_alternative(f"<!doctype html><html><head>{HEAD}</head>{BODY}</html>", "text/html")
    email.send()
    EmailMultiAlternatives("Plain", "Only text", to=["ann@example.com"]).send()
    html, plain = Message.objects.order_by("pk")

    page = client.get(f"/dev/mailbox/{html.pk}/")
    frame = re.search(r"<iframe [^>]*>", page.content.decode())
    assert frame is not None
    assert f'src="/dev/mailbox/{html.pk}/html/"' in frame.group(0)
    assert 'sandbox="allow-popups allow-top-navigation-by-user-activation"' in frame.group(0)
    assert "srcdoc" not in frame.group(0)

    shown = client.get(f"/dev/mailbox/{html.pk}/html/")
    assert shown.status_code == 200
    # Its links open in the mailbox's window: the site's pages refuse to be framed.
    assert shown.content.decode() == (
        f'<!doctype html><html><head><base target="_top">{HEAD}</head>{BODY}</html>'
    )
    assert policy(shown) == {
        "default-src": ["'none'"],
        "style-src": ["'unsafe-inline'"],
        "img-src": ["data:"],
        "base-uri": ["'none'"],
        "form-action": ["'none'"],
        "frame-ancestors": ["'self'"],
    }
    assert shown["X-Frame-Options"] == "SAMEORIGIN"
    assert client.get(f"/dev/mailbox/{plain.pk}/html/").status_code == 404
    settings.JUMBULAYA_MAILBOX = False
    assert client.get(f"/dev/mailbox/{html.pk}/html/").status_code == 404
