"""The game page's live stream (/games/<id>/live/, /t/<token>/live/): it says
"changed" with the game's new version when a move is made, for whoever may see the
page; a spectator's version never moves for a message (messages are the
players'); a stranger gets nothing; each stream is one of its account's waits;
``active=1`` keeps the player present (their turn emails wait)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client

from accounts.models import User
from games.core import chat, door
from games.live import holds, streams
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game
from tests.threads import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


async def signed_in(user: User) -> AsyncClient:
    client = AsyncClient()
    await client.aforce_login(user)
    return client


async def next_chunk(stream: Any, seconds: float = 10.0) -> str:
    chunk = await asyncio.wait_for(anext(stream), seconds)
    return chunk.decode() if isinstance(chunk, bytes) else str(chunk)


def test_a_players_stream_says_changed_when_the_other_player_moves(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    mover = game.turn_seat
    assert mover is not None
    watcher = game.seats.get(index=1 - mover).user
    assert watcher is not None
    seen = streams.current_version(game.pk)

    async def scenario() -> tuple[str, str]:
        client = await signed_in(watcher)
        response = await client.get(f"/games/{game.pk}/live/", {"seen": seen})
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        stream = aiter(response.streaming_content)
        first = await next_chunk(stream)
        await asyncio.to_thread(
            in_thread, lambda: door.submit(game.pk, mover, "pass", 1, Event.Source.WEB, "p1")
        )
        said = await next_chunk(stream)
        await stream.aclose()
        return first, said

    first, said = asyncio.run(scenario())
    assert first.startswith("retry: ")
    now = streams.current_version(game.pk)
    assert now != seen and said == f"event: changed\ndata: {now}\n\n"


def test_a_page_behind_is_told_at_once_and_a_turn_link_streams_too(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    seat = game.seats.get(index=0)
    assert seat.user is not None
    token = turn_token(seat.user.pk, game.pk, game.last_seq)

    async def scenario() -> list[str]:
        response = await AsyncClient().get(f"/t/{token}/live/", {"seen": "an old version"})
        assert response.status_code == 200
        stream = aiter(response.streaming_content)
        chunks = [await next_chunk(stream), await next_chunk(stream)]
        await stream.aclose()
        return chunks

    chunks = asyncio.run(scenario())
    assert chunks[1] == f"event: changed\ndata: {streams.current_version(game.pk)}\n\n"


def test_a_spectators_version_does_not_move_for_a_message(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    ann = game.seats.get(index=0).user
    assert ann is not None
    players, spectators = streams.current_version(game.pk), streams.current_version(game.pk, False)
    chat.post_message(game.pk, ann, "hello", "web")
    assert streams.current_version(game.pk) != players
    assert streams.current_version(game.pk, False) == spectators


def test_strangers_get_nothing_and_the_cap_holds(
    started_game: Callable[..., Game], make_user: Callable[[str], User], settings: Any
) -> None:
    game = started_game()
    ann = game.seats.get(index=0).user
    assert ann is not None
    zed = make_user("zed")
    settings.JUMBULAYA_WAITS_PER_ACCOUNT = 1

    async def scenario() -> list[int]:
        anonymous = await AsyncClient().get(f"/games/{game.pk}/live/")
        stranger = await (await signed_in(zed)).get(f"/games/{game.pk}/live/")
        slot = await sync_to_async(holds.take)(ann.pk, 60)
        try:
            over = await (await signed_in(ann)).get(f"/games/{game.pk}/live/")
        finally:
            assert slot is not None
            await sync_to_async(holds.give_back)(slot)
        return [anonymous.status_code, stranger.status_code, over.status_code]

    assert asyncio.run(scenario()) == [403, 404, 429]


def test_an_active_page_keeps_its_player_present(started_game: Callable[..., Game]) -> None:
    game = started_game()
    ann = game.seats.get(index=0).user
    bob = game.seats.get(index=1).user
    assert ann is not None and bob is not None

    async def connect(user: User, active: str) -> None:
        response = await (await signed_in(user)).get(f"/games/{game.pk}/live/", {"active": active})
        assert response.status_code == 200
        await aiter(response.streaming_content).aclose()

    asyncio.run(connect(ann, "1"))
    asyncio.run(connect(bob, "0"))
    ann.refresh_from_db()
    bob.refresh_from_db()
    assert ann.present_until is not None and bob.present_until is None


@pytest.mark.django_db  # not transactional: the robot accounts of the migrations are there
def test_a_seat_taken_over_moves_the_version(started_game: Callable[..., Game]) -> None:
    """A robot taking the seat of a player who resigned writes no event: the open
    pages still hear of it (the log says so, the seat has a new name)."""
    game = started_game(takeover_level="casual")
    before = streams.current_version(game.pk)
    door.submit(game.pk, 0, "resign", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING  # the robot plays on
    assert streams.current_version(game.pk) != before


@pytest.mark.django_db
def test_the_page_names_its_stream_and_version_and_shows_no_template_comment(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    ann = game.seats.get(index=0).user
    assert ann is not None
    client = Client()
    client.force_login(ann)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'data-stream="/games/{game.pk}/live/"' in html
    assert f'data-version="{streams.current_version(game.pk)}"' in html
    assert "{#" not in html and "#}" not in html
