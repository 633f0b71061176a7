"""The create-game form offers the JUMBULAYA claim window, on by default."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.web.forms import CreateGameForm

CREATE = reverse("games:create")


def form_data(**changes: Any) -> dict[str, Any]:
    """What the form posts when left as shown (official rules), plus changes."""
    data: dict[str, Any] = {
        "seat_count": "2",
        "preset": "official",
        "options_from": "official",
        "rack_limit": "2",
        "new_word": "current",
        "stall_rounds": "0",
        "jumbulaya_bonus": "on",
        "jumbulaya_cooldown": "on",
        "claim_window": "on",
        "lexicon_name": "default",
        "move_hours": "72",
        "invite_emails": "bob@example.com",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def ann_client(client: Client, make_user: Callable[[str], User]) -> Client:
    client.force_login(make_user("ann"))
    return client


def test_the_option_is_offered_and_checked(ann_client: Client) -> None:
    assert CreateGameForm().fields["claim_window"].initial is True
    html = ann_client.get(CREATE).content.decode()
    assert "JUMBULAYA claim window" in html
    tag = re.search(r'<input[^>]*name="claim_window"[^>]*>', html)
    assert tag is not None and "checked" in tag.group(0)


@pytest.mark.parametrize(("sent", "stored"), [("on", True), (None, False)])
def test_the_choice_is_stored_with_the_game(
    ann_client: Client, sent: str | None, stored: bool
) -> None:
    response = ann_client.post(CREATE, form_data(claim_window=sent))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get().window_on is stored
