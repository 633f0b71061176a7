"""The pages need nothing a strict Content-Security-Policy refuses: no inline scripts
or styles, no event handler attributes, neither htmx's eval nor its own <style>."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.models import Game

REPO = Path(__file__).resolve().parent.parent


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
def test_htmx_is_configured_for_the_policy(
    client: Client, started_game: Callable[..., Game]
) -> None:
    """No indicator <style> of its own, no eval; the game page adds its own options."""
    game = started_game()
    client.force_login(game.seats.get(index=0).user)

    def htmx_config(path: str) -> dict[str, Any]:
        page = client.get(path).content.decode()
        found = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
        assert found, path
        config: dict[str, Any] = json.loads(found.group(1))
        return config

    assert htmx_config("/dashboard/") == {"includeIndicatorStyles": False, "allowEval": False}
    on_the_game = htmx_config(f"/games/{game.pk}/")
    assert on_the_game["includeIndicatorStyles"] is False and on_the_game["allowEval"] is False
    assert {"code": "422", "swap": True} in on_the_game["responseHandling"]
