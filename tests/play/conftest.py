"""Fixtures for the game page tests: users, started games and signed-in clients
(``make_user`` and ``started_game`` come from tests/conftest.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.engine import GameStarted, start, state_to_json
from games.engine.tiles import full_set
from games.models import Event, Game
from games.services import current_state, event_row


@pytest.fixture
def client_for() -> Callable[[User], Client]:
    """A test client signed in as ``user``."""

    def make(user: User) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def seat_client(client_for: Callable[[User], Client]) -> Callable[[Game, int], Client]:
    """A client signed in as the player in ``seat`` of ``game``."""

    def make(game: Game, seat: int) -> Client:
        user = game.seats.get(index=seat).user
        assert user is not None
        return client_for(user)

    return make


@pytest.fixture
def rigged_game(
    started_game: Callable[..., Game],
) -> Callable[..., Game]:
    """``rigged_game(lines, racks, first=0, players=2)``: a started game whose deal is
    the one given (the rest of the 100 tiles in the bag, in face order): the first
    event and the cached state are rewritten before any move is made."""

    def make(
        lines: Sequence[Sequence[str]],
        racks: Sequence[Sequence[str]],
        first: int = 0,
        players: int = 2,
        **options: Any,
    ) -> Game:
        game = started_game(players=players, **options)
        dealt = current_state(game)
        bag = Counter(full_set())
        bag.subtract(t for line in lines for t in line)
        bag.subtract(t for rack in racks for t in rack)
        assert all(n >= 0 for n in bag.values()), "more of a tile than the set holds"
        old = Event.objects.get(game=game, seq=1)
        started = GameStarted(
            rules=dealt.rules,
            lexicon=old.payload["lexicon"],
            lexicon_sha256=old.payload["lexicon_sha256"],
            players=dealt.players,
            first=first,
            lines=tuple(tuple(line) for line in lines),
            racks=tuple(tuple(rack) for rack in racks),
            bag=tuple(bag.elements()),
        )
        row = event_row(game, started, 1, Event.Source.SYSTEM, None)
        Event.objects.filter(pk=old.pk).update(payload=row.payload, private=row.private)
        Game.objects.filter(pk=game.pk).update(state=state_to_json(start(started)), turn_seat=first)
        game.refresh_from_db()
        return game

    return make


# --- reading pages ----------------------------------------------------------


@dataclass
class Scan:
    """What a page shows in tile markup: every ``data-tile`` in order, the tiles
    inside each ``data-rack`` element (by its value) and inside ``data-preview``."""

    tiles: list[str] = field(default_factory=list)
    racks: dict[str, list[str]] = field(default_factory=dict)
    preview_tiles: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)


class _Scanner(HTMLParser):
    VOID = frozenset({"input", "br", "img", "meta", "link", "hr", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.scan = Scan()
        self.stack: list[tuple[str, str | None, bool]] = []  # tag, rack, in preview

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.scan.ids.add(str(a["id"]))
        rack = self.stack[-1][1] if self.stack else None
        preview = self.stack[-1][2] if self.stack else False
        if "data-rack" in a:
            rack = a["data-rack"] or ""
            self.scan.racks.setdefault(rack, [])
        preview = preview or "data-preview" in a
        tile = a.get("data-tile")
        if tile is not None:
            self.scan.tiles.append(tile)
            if rack is not None:
                self.scan.racks[rack].append(tile)
            if preview:
                self.scan.preview_tiles.append(tile)
        if tag not in self.VOID:
            self.stack.append((tag, rack, preview))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def scan_html(html: str) -> Scan:
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    return scanner.scan


@pytest.fixture
def scan() -> Callable[[str], Scan]:
    return scan_html
