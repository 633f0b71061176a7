"""Every page a seat or a spectator can load shows only public facts and the
viewer's own rack: never another rack, the bag, or another player's address."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.core.door import submit
from games.core.projection import current_state
from games.mail_out import outbox
from games.mail_out.turnlinks import turn_url
from games.models import Game
from tests import leaks
from tests.conftest import CanaryGame
from tests.markup import visible_faces

SEPARATORS = ("", " ", ", ", "-", "\n")


def play_a_few_moves(game: Game, turns: int = 6) -> None:
    """Words where there are some, one exchange, passes otherwise."""
    exchanged = False
    for i in range(turns):
        game.refresh_from_db()
        seat = game.turn_seat
        assert seat is not None
        moves = [m for m in leaks.legal_moves(game, seat) if m != "pass"]
        rack = leaks.hands(game)[seat]
        if not exchanged and i == 1:
            move, exchanged = f"exchange {rack[0]} {rack[1]}", True
        elif moves:
            move = moves[0]
        else:
            move = "pass"
        submit(game.pk, seat, move, game.last_seq, "web", f"leak-scan-{i}-0123456789")
    game.refresh_from_db()


def windows(tiles: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
    for i in range(len(tiles) - size + 1):
        yield tuple(tiles[i : i + size])


def contains_run(sequence: Sequence[str], run: Sequence[str]) -> bool:
    n = len(run)
    return any(tuple(sequence[i : i + n]) == tuple(run) for i in range(len(sequence) - n + 1))


def pages_for(
    game: Game, client: Client, seat: int | None, refused: Sequence[str] = ("1 QZX", "9 ZZZZZZZ")
) -> Iterator[tuple[str, str]]:
    """(what, html) for every page this viewer can load about the game
    (``refused``: two moves the rules refuse, for previews and a sent move)."""
    base = f"/games/{game.pk}/"
    yield "page", client.get(base).content.decode()
    yield "page (htmx)", client.get(base, HTTP_HX_REQUEST="true").content.decode()
    if seat is None:
        return
    rack = leaks.hands(game)[seat]
    moves = leaks.legal_moves(game, seat)
    notations = [
        "pass",
        "exchange all",
        f"exchange {rack[0]}",
        "resign",
        "jumbulaya SPRINTED",
        *refused,
        *moves[:3],
    ]
    for notation in notations:
        for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.post(f"{base}preview/", {"notation": notation}, **htmx)
            assert response.status_code == 200
            yield f"preview {notation!r} {htmx}", response.content.decode()
    # a refused move re-renders the page
    move = {"notation": refused[0], "expected_seq": str(game.last_seq),
            "idempotency_key": f"refused-{seat}-0123456789"}  # fmt: skip
    yield "refused move", client.post(f"{base}move/", move).content.decode()


@pytest.mark.slow
def test_no_page_shows_another_rack_the_bag_or_an_address(
    started_game: Callable[..., Game],
    make_user: Callable[..., User],
    client_for: Callable[[User], Client],
    scan: Callable[[str], Any],
) -> None:
    game = started_game(players=3, is_public=True)
    play_a_few_moves(game)
    state = current_state(game)
    assert len(state.bag) > 10
    users = {s.index: s.user for s in game.seats.select_related("user")}
    eve = make_user("eve")
    viewers: list[tuple[int | None, User]] = [*users.items(), (None, eve)]  # type: ignore[list-item]
    for seat, user in viewers:
        client = client_for(user)
        for what, html in pages_for(game, client, seat):
            page = scan(html)
            where = f"{what} for seat {seat}"
            # racks: only the viewer's own, with exactly its tiles
            if seat is None:
                assert page.racks == {}, where
            elif page.racks:
                assert list(page.racks) == [str(seat)], where
                assert Counter(page.racks[str(seat)]) == Counter(state.racks[seat]), where
            # a preview shows only tiles of the board or of the viewer's own rack
            mine = Counter(t for ln in state.lines for t in ln.tiles)
            if seat is not None:
                mine += Counter(state.racks[seat])
            assert not Counter(page.preview_tiles) - mine, where
            # the bag, as a sequence, never: not in tile markup, not as text
            for run in windows(state.bag, 7):
                assert not contains_run(page.tiles, run), where
                for sep in SEPARATORS:
                    assert sep.join(run) not in html, where
            # other racks, as sequences, nowhere in tile markup outside the board
            for other, rack in enumerate(state.racks):
                if other != seat:
                    for sep in (" ", ", "):
                        assert sep.join(rack) not in html, where
            # no address but possibly the viewer's own
            for other_user in users.values():
                assert other_user is not None
                if other_user != user:
                    assert other_user.email not in html, where
            assert "@example.com" not in html.replace(user.email, ""), where


def every_page(game: Game, client: Client, seat: int | None) -> Iterator[tuple[str, str]]:
    """(what, html) for the pages about ``game`` that this viewer can load,
    including the answers to moves that change nothing."""
    # Moves the rules refuse, written without a marked face: the page repeats them.
    yield from pages_for(game, client, seat, refused=("1 BQB", "9 MMMMMMM"))
    base = f"/games/{game.pk}/"
    paths = ("/dashboard/", "/games/open/", f"{base}record.json", f"{base}replay/",
             f"{base}changes/?seen=1")  # fmt: skip
    for path in paths:
        yield path, client.get(path).content.decode()
    if seat is None:
        return
    stale = {"notation": "pass", "expected_seq": "1", "idempotency_key": f"stale-{seat}-0123456789"}
    yield "stale move", client.post(f"{base}move/", stale).content.decode()
    user = game.seats.get(index=seat).user
    assert user is not None
    yield "turn link", client.get(turn_url(user.pk, game.pk, game.last_seq)).content.decode()


@pytest.mark.slow
def test_no_page_shows_what_another_seat_drew_or_exchanged(
    canary_game: Callable[[], CanaryGame],
    make_user: Callable[..., User],
    client_for: Callable[[User], Client],
) -> None:
    canaries = canary_game()
    game = canaries.game
    users = {s.index: s.user for s in game.seats.select_related("user")}
    viewers: list[tuple[int | None, User]] = [*users.items(), (None, make_user("eve"))]  # type: ignore[list-item]
    pages = 0
    for seat, user in viewers:
        client = client_for(user)
        hidden = canaries.hidden_from(seat)
        for what, html in every_page(game, client, seat):
            pages += 1
            assert not visible_faces(html) & hidden, f"{what} for seat {seat}"
        if seat is not None:  # the check can see tiles: the seat's own draws are on its page
            own = visible_faces(client.get(f"/games/{game.pk}/").content.decode())
            assert canaries.secret[seat] - {"K", "W", "Y"} <= own
    assert pages > 4 * 6


@pytest.mark.slow
def test_the_leak_scan_through_the_kind_finds_no_rack_in_pages_or_emails(
    started_game: Callable[..., Game], make_user: Callable[..., User], mailoutbox: list[Any]
) -> None:
    """The scan every kind's tests run (tests/leaks.py; high card's too), with
    the emails each viewer got: no other seat's rack anywhere."""
    game = started_game(players=3, is_public=True, hints=True)
    play_a_few_moves(game, turns=3)
    outbox.sweep()
    assert leaks.prepare_hints(game) == 1  # the seat to move's, shown on its page alone
    viewers: dict[int | None, Any] = {s.index: s.user for s in game.seats.select_related("user")}
    viewers[None] = make_user("eve")
    assert leaks.scan(game, viewers, moves=("1 BQB",)) > 4 * 5 and mailoutbox
