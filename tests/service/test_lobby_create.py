"""The lobby: creating a game, its form and the invitation emails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import kinds
from games.engine.jumbulaya import PRESETS, rules_from_json
from games.mail_out import outbox
from games.models import Game, Notification
from games.web.forms import CreateGameForm, rules_in_words

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
        "lexicon_name": "default",
        "move_hours": "72",
        "invite_emails": "bob@example.com",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def ann(make_user: Callable[..., User]) -> User:
    return make_user("ann")


@pytest.fixture
def ann_client(client: Client, ann: User) -> Client:
    client.force_login(ann)
    return client


def test_create_needs_sign_in(client: Client, db: None) -> None:
    response = client.get(CREATE)
    assert response.status_code == 302
    assert reverse("accounts:sign_in") in response["Location"]


def test_the_form_shows_the_options_in_words_prefilled(ann_client: Client) -> None:
    response = ann_client.get(CREATE)
    assert response.status_code == 200
    html = response.content.decode()
    for words in (
        "Most tiles from your rack per move",
        "A new word must differ from",
        "every word the line has held",
        "rounds without a word (0: never)",
        "Bonus point per two-letter tile in a JUMBULAYA",
        "After a failed JUMBULAYA call, wait for another player",
        "Word list",
        "Hours per move",
    ):
        assert words in html
    assert 'name="rack_limit" value="2"' in html
    assert 'name="move_hours" value="72"' in html
    assert 'id="preset-options"' in html  # the script's preset values


def test_create_a_game_with_official_rules(
    ann_client: Client, ann: User, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = ann_client.post(CREATE, form_data())
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert game.created_by == ann and game.seat_count == 2
    assert game.rules == {"preset": "official"}
    assert game.move_hours == 72 and not game.is_public and not game.is_open
    assert game.status == Game.Status.OPEN
    assert [s.invited_email for s in game.seats.all()] == ["", "bob@example.com"]


def test_changed_options_override_the_preset(ann_client: Client) -> None:
    ann_client.post(
        CREATE,
        form_data(rack_limit="3", stall_rounds="4", jumbulaya_bonus=None, move_hours="24"),
    )
    game = Game.objects.get()
    assert game.rules == {
        "preset": "official",
        "rack_limit": 3,
        "stall_rounds": 4,
        "jumbulaya_bonus": False,
    }
    assert game.move_hours == 24


def test_a_preset_changed_without_the_script_takes_its_own_defaults(ann_client: Client) -> None:
    # Options left as shown (the official ones) follow the newly chosen preset ...
    ann_client.post(CREATE, form_data(preset="boardspace"))
    assert Game.objects.get().rules == {"preset": "boardspace"}
    assert rules_from_json(Game.objects.get().rules) == PRESETS["boardspace"]


def test_a_changed_option_stays_when_the_preset_changes(ann_client: Client) -> None:
    # ... but one the player changed is kept.
    ann_client.post(CREATE, form_data(preset="boardspace", rack_limit="4"))
    assert Game.objects.get().rules == {"preset": "boardspace", "rack_limit": 4}


def test_the_script_refilled_options_are_taken_as_shown(ann_client: Client) -> None:
    # With the script, options_from follows the preset; an explicit value wins.
    data = form_data(
        preset="boardspace",
        options_from="boardspace",
        new_word="current",  # boardspace says "history": the player chose otherwise
        stall_rounds="2",
        jumbulaya_bonus=None,
        jumbulaya_cooldown=None,
    )
    ann_client.post(CREATE, data)
    assert Game.objects.get().rules == {"preset": "boardspace", "new_word": "current"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seat_count": "5"}, "A game of JUMBULAYA has 2 to 4 players."),
        ({"seat_count": "6"}, "A game of JUMBULAYA has 2 to 4 players."),
        ({"seat_count": "7"}, "Select a valid choice"),  # no kind has 7 (Tumble-Words 6)
        ({"move_hours": "0"}, "greater than or equal to 1"),
        ({"move_hours": "337"}, "less than or equal to 336"),
        ({"rack_limit": "0"}, "greater than or equal to 1"),
        ({"invite_emails": "not-an-address"}, "“not-an-address” is not an email address"),
        (
            {"invite_emails": "bob@example.com\ncy@example.com"},
            "A 2-player game has room for 1 other player, but 2 addresses are listed.",
        ),
        (
            {"seat_count": "3", "invite_emails": "bob@example.com\nBOB@example.com"},
            "bob@example.com is listed twice.",
        ),
        ({"invite_emails": "ann@example.com"}, "includes your own address"),
        ({"invite_emails": ""}, "Nobody could take the 1 seat left without an invitation"),
        ({"lexicon_name": "nonesuch"}, "Select a valid choice"),
    ],
)
def test_form_errors_are_shown(ann_client: Client, changes: dict[str, str], message: str) -> None:
    response = ann_client.post(CREATE, form_data(**changes))
    assert response.status_code == 400
    html = response.content.decode()
    assert "The game was not created" in html
    assert message in html.replace("&#x27;", "'")
    assert not Game.objects.exists()


def test_an_open_game_needs_no_invitations(ann_client: Client) -> None:
    response = ann_client.post(CREATE, form_data(seat_count="3", invite_emails="", is_open="on"))
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.is_open and game.seat_count == 3
    assert not Notification.objects.filter(kind=Notification.Kind.INVITED).exists()


def test_after_errors_the_options_show_the_chosen_preset(ann_client: Client) -> None:
    response = ann_client.post(CREATE, form_data(preset="boardspace", move_hours="0"))
    html = response.content.decode()
    assert 'name="stall_rounds" value="2"' in html  # boardspace's, not official's 0
    assert 'name="options_from" value="boardspace"' in html


def test_invitations_are_emailed_with_a_link_that_works(
    ann_client: Client,
    client: Client,
    make_user: Callable[..., User],
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    data = form_data(seat_count="3", invite_emails="Bob@example.com\ncy@example.com ")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = ann_client.post(CREATE, data)
    assert len(callbacks) == 1  # the outbox is nudged once the game is committed
    assert mailoutbox == []  # the outbox sends them (no worker in tests: sweep)
    assert outbox.sweep() == 2
    game = Game.objects.get()
    assert sorted(m.to[0] for m in mailoutbox) == ["bob@example.com", "cy@example.com"]
    mail = next(m for m in mailoutbox if m.to == ["bob@example.com"])
    assert mail.subject == f"Game {game.pk}: Ann invites you to play JUMBULAYA"
    assert "Ann invites you to a 3-player game" in mail.body
    for line in rules_in_words(PRESETS["official"]):
        assert line in mail.body
    assert "cy@example.com" not in mail.body  # nobody sees another's address
    notes = Notification.objects.filter(game=game, kind=Notification.Kind.INVITED)
    assert notes.count() == 2 and all(n.sent_at is not None for n in notes)
    followed = ann_client.get(response["Location"]).content.decode()
    assert "2 invitations are on the way by email." in followed

    link = next(word for word in mail.body.split() if "/invite/" in word)
    path = link.removeprefix("http://127.0.0.1:8000")
    bob = make_user("bob")
    client.logout()
    client.force_login(bob)
    page = client.get(path)
    assert page.status_code == 200 and "Join the game" in page.content.decode()
    response = client.post(path)
    assert response.status_code == 302
    assert game.seats.get(index=1).user == bob


def test_a_failed_email_leaves_the_notification_unsent(
    ann_client: Client,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fail(*args: Any, **kwargs: Any) -> None:
        raise OSError("mail server down")

    with django_capture_on_commit_callbacks(execute=True):
        response = ann_client.post(CREATE, form_data())
    assert response.status_code == 302  # the game is made all the same
    with monkeypatch.context() as m:
        m.setattr("games.mail_out.emails.GameEmail.send", fail)
        assert outbox.sweep() == 0
    note = Notification.objects.get(kind=Notification.Kind.INVITED)
    assert note.sent_at is None and note.taken_at is None  # a later sweep tries again
    assert "mail server down" in note.last_error
    assert note.retry_at is not None
    with time_machine.travel(note.retry_at):
        assert outbox.sweep() == 1 and len(mailoutbox) == 1


def test_rules_from_the_form(ann: User) -> None:
    form = CreateGameForm(form_data(preset="boardspace", options_from="official"), user=ann)
    assert form.is_valid(), form.errors
    assert form.rules() == PRESETS["boardspace"]


def test_with_one_kind_the_form_asks_no_choice_but_sends_it(
    ann_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (With more than one, they are offered as radio buttons: tests/kinds/highcard.)
    monkeypatch.setattr(kinds, "_KINDS", {kinds.DEFAULT: kinds.get(kinds.DEFAULT)})
    html = ann_client.get(CREATE).content.decode()
    assert '<input type="hidden" name="kind" value="jumbulaya" id="id_kind">' in html
    assert 'type="radio" name="kind"' not in html and "Show this game's rules" not in html
    assert html.index('name="kind"') < html.index('name="seat_count"')


def test_the_chosen_kind_is_the_game_s_kind(ann_client: Client) -> None:
    response = ann_client.post(CREATE, form_data(kind="jumbulaya"))
    assert response.status_code == 302
    assert Game.objects.get().kind == "jumbulaya"


def test_an_unknown_kind_is_refused_and_nothing_is_created(ann_client: Client) -> None:
    response = ann_client.post(CREATE, form_data(kind="chess"))
    assert response.status_code == 400
    assert "Select a valid choice. chess is not one of the available choices." in (
        response.content.decode()
    )
    assert not Game.objects.exists()
