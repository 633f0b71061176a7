"""The leak scan (tests/leaks.py) over a game of Tumble-Words: a sealed
crossword is its player's alone until the round closes.

The rolls are public (docs/tumble-view.md: the players roll on the table), so
what a seat holds hidden, its kind's ``hand``, is its sealed crossword by
rows.  Ann hands in a crossword of several rows; the scan reads every page,
preview, email, the turn link and the API of Bob and of a spectator for it
(its rows as a run, its one-line form, its words and its points), and the
log lines written meanwhile."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts import access_tokens
from accounts.models import User
from games.core import door
from games.mail_in import inbound
from games.mail_out import outbox
from games.models import Event, Game
from tests import leaks
from tests.api.conftest import ApiClient
from tests.inbound.inbound_mails import parsed, reply_mime

from .conftest import ANN_CROSSWORD, rows

SEALED_ONE_LINE = "CAPED/A..../T...."


def test_no_page_email_api_or_log_line_shows_a_sealed_crossword(
    tumble_game: Callable[..., Game],
    make_user: Callable[[str], User],
    mailoutbox: list[Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    game = tumble_game(is_public=True, hints=True)
    outbox.sweep()
    ann = game.seats.get(index=0).user
    assert ann is not None
    # Ann hands in by email (the answer says its score, to her alone), then on the page.
    reply = inbound.receive(parsed(reply_mime(game, ann, "CAT")), via="test")
    assert reply.status == "moved"
    game.refresh_from_db()
    door.submit(game.pk, 0, rows(ANN_CROSSWORD), game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    outbox.sweep()
    viewers: dict[int | None, Any] = {s.index: s.user for s in game.seats.select_related("user")}
    viewers[None] = make_user("eve")
    hidden = leaks.hands(game)
    assert hidden[0] == ANN_CROSSWORD and hidden[1] == ()
    own = Client()
    own.force_login(viewers[0])
    assert 'data-hand="0"' in own.get(f"/games/{game.pk}/").content.decode()
    assert leaks.prepare_hints(game) == 1  # Bob's, still to hand in: on his page alone
    # The first move is sent as well as previewed: one the rules refuse.
    read = leaks.scan(game, viewers, moves=("not a crossword", "HERB"))
    assert read > 10
    assert leaks.hands(game) == hidden  # the scan changed nothing

    secrets = [SEALED_ONE_LINE, "CAPED", "scoring 10", "(-4)", "scoring -4", "CAT (across"]
    for seat in (1, None):
        client = Client()
        client.force_login(viewers[seat])
        user = viewers[seat]
        texts = [*leaks.pages(game, client, seat, ("no crossword",)), *leaks.emails(user.email)]
        api = ApiClient(access_tokens.make(user, "leak").token)
        for path in (f"/games/{game.pk}", f"/games/{game.pk}/view", f"/games/{game.pk}/events"):
            texts.append((f"api {path}", api.get(path).text))
        for what, text in texts:
            for secret in secrets:
                assert secret not in text, f"{what} for {seat}: {secret!r}"
    for record in caplog.records:
        line = record.getMessage()
        assert "CAPED" not in line and "CAT" not in line, line
