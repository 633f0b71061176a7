"""Shared pytest configuration and fixtures. pytest-django reads DJANGO_SETTINGS_MODULE
from pyproject.toml."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from accounts.models import User
    from games.engine.jumbulaya import Rules
    from games.models import Game


def pytest_configure(config: pytest.Config) -> None:
    """Production settings leave SECRET_KEY empty unless it is set; tests sign
    sessions and links, so they get a key of their own. They also redirect plain
    HTTP to HTTPS, and the test client and live servers speak plain HTTP: that
    redirect is tested on its own (tests/test_deploy.py)."""
    from django.conf import settings

    settings.SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "test-only-secret-key"
    settings.SECURE_SSL_REDIRECT = False
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        # Under pytest-xdist each worker has a test database of its own, whose rows
        # are numbered from 1 like the others': on one Redis, its cache keys (a
        # session, an account's wait slots) get a prefix of their own.
        for cache in settings.CACHES.values():
            cache["KEY_PREFIX"] = f"{cache.get('KEY_PREFIX', '')}{worker}"


@pytest.fixture(autouse=True)
def no_outage_before_or_after() -> Iterator[None]:
    """Each test starts and ends with this process believing the database is there:
    a test that cuts the real database (``tests/worker``, on PostgreSQL) must not
    leave the next test's requests asking the database whether it is back."""
    from jumbulaya_site import outage

    outage.reset()
    yield
    outage.reset()


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    """``make_user("ann")``: a user ann@example.com called Ann."""
    from accounts.models import User

    def make(name: str) -> User:
        return User.objects.create_user(
            username=name, email=f"{name}@example.com", display_name=name.title()
        )

    return make


@pytest.fixture
def started_game(make_user: Callable[[str], User]) -> Callable[..., Game]:
    """``started_game(players=2, rules=...)``: a game between Ann, Bob (, Cy, Di)
    whose seats are all taken, so it has started with a random deal."""
    from games.core.lobby import create_game, join_game
    from games.engine.jumbulaya import PRESETS

    def make(players: int = 2, rules: Rules | None = None, **options: Any) -> Game:
        users = [make_user(n) for n in ("ann", "bob", "cy", "di")[:players]]
        game = create_game(
            users[0],
            seat_count=players,
            rules=rules or PRESETS["official"],
            invite_emails=[u.email for u in users[1:]],
            **options,
        )
        for user in users[1:]:
            join_game(game.pk, user)
        game.refresh_from_db()
        return game

    return make


@pytest.fixture
def rigged_game(started_game: Callable[..., Game]) -> Callable[..., Game]:
    """``rigged_game(lines, racks, first=0, players=2, bag_front=())``: a started
    game whose deal is the one given; the rest of the 100 tiles are in the bag,
    ``bag_front`` first, then in face order.  The first event and the cached
    state are rewritten before any move is made."""
    from games.core.projection import current_state, event_row
    from games.engine.jumbulaya import GameStarted, start, state_to_json
    from games.engine.tiles import full_set
    from games.models import Event, Game

    def make(
        lines: Sequence[Sequence[str]],
        racks: Sequence[Sequence[str]],
        first: int = 0,
        players: int = 2,
        bag_front: Sequence[str] = (),
        **options: Any,
    ) -> Game:
        game = started_game(players=players, **options)
        dealt = current_state(game)
        rest = Counter(full_set())
        rest.subtract(t for group in [*lines, *racks, bag_front] for t in group)
        assert all(n >= 0 for n in rest.values()), "more of a tile than the set holds"
        old = Event.objects.get(game=game, seq=1)
        started = GameStarted(
            rules=dealt.rules,
            lexicon=old.payload["lexicon"],
            lexicon_sha256=old.payload["lexicon_sha256"],
            players=dealt.players,
            first=first,
            lines=tuple(tuple(line) for line in lines),
            racks=tuple(tuple(rack) for rack in racks),
            bag=(*bag_front, *rest.elements()),
        )
        row = event_row(game, started, 1, Event.Source.SYSTEM, None)
        Event.objects.filter(pk=old.pk).update(payload=row.payload, private=row.private)
        Game.objects.filter(pk=game.pk).update(state=state_to_json(start(started)), turn_seat=first)
        game.refresh_from_db()
        return game

    return make


#: A deal of nine lines that are words, so nine moves (Ann, Bob, Ann, ...) claim
#: the board; line 1 holds 7 tiles, so the ninth ("9 CUT") makes a JUMBULAYA
#: callable.  SPRINTS and RAINOUT (7 tiles) and SPRINTSO (8, in this word list
#: only) run down the board; PRINTED is not a listed word.
BOARD_WORDS = ["STRANGE", "APE", "ORB", "DIM", "TEN", "OAT", "BUS", "STOW", "CUT"]
BOARD_WORDS += ["SPRINTS", "RAINOUT", "SPRINTSO"]
BOARD_LINES = [
    ["S", "T", "R", "A", "N", "G", "E"], ["A", "P", "E"], ["O", "R", "B"], ["D", "I", "M"],
    ["T", "E", "N"], ["O", "A", "T"], ["B", "U", "S"], ["ST", "O", "W"], ["C", "U", "T"],
]  # fmt: skip
BOARD_RACKS = [["A", "B", "D", "F", "H"], ["K", "L", "M", "O", "Y"]]
#: The nine moves that claim the board, Ann first.
CLAIM_THE_BOARD = ["1 STRANGE", "2 APE", "3 ORB", "4 DIM", "5 TEN", "6 OAT", "7 BUS"]
CLAIM_THE_BOARD += ["8 [ST]OW", "9 CUT"]


@pytest.fixture
def board_words(tmp_path: Path, settings: Any) -> Iterator[str]:
    """The name of an installed word list holding :data:`BOARD_WORDS`."""
    from games.core import lexicons

    settings.JUMBULAYA_WORDLIST_DIR = tmp_path / "wordlists"
    lexicons.store.cache_clear()
    source = tmp_path / "words.txt"
    source.write_text("\n".join(BOARD_WORDS) + "\n")
    lexicons.store().install("board", source)
    yield "board"
    lexicons.store.cache_clear()


@pytest.fixture
def board_game(rigged_game: Callable[..., Game], board_words: str) -> Callable[..., Game]:
    """``board_game(claim_window=True, **options)``: a game between Ann and Bob
    with the :data:`BOARD_LINES` deal and word list, Ann to move."""

    def make(claim_window: bool = True, **options: Any) -> Game:
        return rigged_game(
            BOARD_LINES,
            BOARD_RACKS,
            lexicon_name=board_words,
            claim_window=claim_window,
            **options,
        )

    return make


@dataclass(frozen=True)
class CanaryGame:
    """A public 3-player game whose private tiles are marked: every tile a seat
    drew or exchanged is a face that nobody else has seen anywhere (not on the
    board, not in their own rack).  ``secret[seat]`` holds those faces, so any
    of them on a page or in an email for another viewer is a leak."""

    game: Game
    secret: dict[int, frozenset[str]]

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The faces ``seat`` (``None``: a spectator) must never be shown."""
        return frozenset().union(*(faces for s, faces in self.secret.items() if s != seat))


#: The marked faces: none is on the board or in a rack but where named below.
CANARY_LINES = [["C", "A", "T"], ["D", "O", "G"], ["R", "E", "D"], ["S", "U", "N"],
                ["P", "I", "N"], ["H", "E", "N"], ["B", "O", "A"], ["M", "A", "T"],
                ["L", "I", "T"]]  # fmt: skip
CANARY_RACKS = [["K", "W", "E", "A", "R"], ["S", "O", "E", "I", "N"], ["Y", "Y", "O", "E", "T"]]
#: What the bag gives first, in order: Ann's exchange draws Z TH, Bob's CATS draws
#: J, Cy's exchange draws CH V.  (Not QU, X or LY: the pages' help text shows
#: them in example moves.)
CANARY_BAG_FRONT = ["Z", "TH", "J", "CH", "V"]


@pytest.fixture
def canary_game(rigged_game: Callable[..., Game]) -> Callable[[], CanaryGame]:
    """``canary_game()``: Ann exchanges K W (drawing Z TH), Bob builds CATS on line
    1 (drawing J), Cy exchanges Y Y (drawing CH V) and Ann passes.  Draws are
    taken from the front of the bag (the service's generator is replaced for
    the test), so every private tile is known."""
    from games.core.door import submit
    from games.engine.jumbulaya import commands

    class FrontOfTheBag:
        def sample(self, population: range, k: int) -> list[int]:
            return list(population[:k])

    def make() -> CanaryGame:
        game = rigged_game(
            CANARY_LINES, CANARY_RACKS, players=3, bag_front=CANARY_BAG_FRONT, is_public=True
        )
        moves = [(0, "exchange K W"), (1, "1 CATS"), (2, "exchange Y Y"), (0, "pass")]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(commands, "_RANDOM", FrontOfTheBag())
            for seq, (seat, move) in enumerate(moves, start=1):
                submit(game.pk, seat, move, seq, "web", f"canary-{seq}-0123456789")
        game.refresh_from_db()
        secret = {
            0: frozenset({"K", "W", "Z", "TH"}),
            1: frozenset({"J"}),
            2: frozenset({"Y", "CH", "V"}),
        }
        return CanaryGame(game, secret)

    return make


def in_a_browser(item: pytest.Item) -> bool:
    """Whether ``item`` drives chromium (a test of tests/e2e/ or one using ``browser``)."""
    return "/tests/e2e/" in str(item.path) or "browser" in getattr(item, "fixturenames", ())


def pytest_itemcollected(item: pytest.Item) -> None:
    """The browser tests are marked ``browser`` (``make test`` runs them in a pytest
    run of their own, after the others: see below) and ``slow``."""
    if in_a_browser(item):
        item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests (tests/e2e/ and every test using the ``browser`` fixture)
    last, after pytest-django's own order: from the first of
    them to the end of the session Playwright's sync API keeps an event loop running
    in the main thread, where a later test could not run one of its own
    (``asyncio.run``, ``async_to_sync``: the async views' tests).  Under
    pytest-xdist which test a worker runs next is the scheduler's: there ``make test``
    keeps them out (``-m "not browser"``) and runs them in a pytest run of their own."""
    browser = [item for item in items if in_a_browser(item)]
    if browser:
        items[:] = [item for item in items if not in_a_browser(item)] + browser


def pytest_sessionstart(session: pytest.Session) -> None:
    """Tests talk to an in-memory broker unless a test asks for a real one: the
    outbox nudges after every commit."""
    from jumbulaya_site.celery import app

    app.conf.broker_url = "memory://"
    app.conf.broker_transport_options = {}
