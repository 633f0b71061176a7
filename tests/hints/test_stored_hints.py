"""A seat's hints are found once per position, by a task the move that makes
it the seat's turn rings after its commit (or beat's sweep), and stored; the
game page and its htmx refreshes read the stored row and never find them in
the request (issue 27: 1.2 s of CPU a view in Tumble-Words).  Until the row
exists the page says they are being prepared and polls for them; hints of an
older position are never shown for a newer one, and only the seat to move
ever sees its own."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client

from accounts.models import User
from games import tasks
from games.coach import hints
from games.core import door
from games.kinds.jumbulaya.robots import JumbulayaRobots
from games.mail_out.turnlinks import turn_url
from games.models import Event, Game, SeatHints
from games.robots import owed

pytestmark = pytest.mark.django_db

#: Ann's best hint on the board_game deal (tests/conftest.py).
ANN_HINT = 'data-suggest="1 S-T-R-A-N-G-E"'


@pytest.fixture
def found(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The seats whose hints the kind's robots were asked for, in order (they
    are still found)."""
    asked: list[int] = []
    real = JumbulayaRobots.hints

    def counted(self: JumbulayaRobots, *args: Any, **kwargs: Any) -> Any:
        asked.append(args[2])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(JumbulayaRobots, "hints", counted)
    yield asked


def refuse(self: JumbulayaRobots, *args: Any, **kwargs: Any) -> Any:
    raise AssertionError("hints were found in a request")


@pytest.fixture
def never_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding hints fails the test: a request must only read them."""
    monkeypatch.setattr(JumbulayaRobots, "hints", refuse)


def client_of(game: Game, seat: int) -> Client:
    user = game.seats.get(index=seat).user
    assert user is not None
    client = Client()
    client.force_login(user)
    return client


def views(client: Client, game: Game) -> list[str]:
    """The page, its htmx refresh and the hints' poll for the position shown."""
    url = f"/games/{game.pk}/"
    answers = [
        client.get(url),
        client.get(url, headers={"HX-Request": "true"}),
        client.get(f"{url}hints/?seen={game.last_seq}", headers={"HX-Request": "true"}),
    ]
    return [a.content.decode() for a in answers]


def move(game: Game, seat: int, notation: str) -> None:
    game.refresh_from_db()
    door.submit(game.pk, seat, notation, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()


def test_once_stored_the_page_and_its_refreshes_never_find_hints(
    board_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = board_game(hints=True)
    assert hints.prepare(game.pk, 0, game.last_seq)  # what the task does, off the request
    monkeypatch.setattr(JumbulayaRobots, "hints", refuse)
    ann = client_of(game, 0)
    for _ in range(3):
        for html in views(ann, game):
            assert ANN_HINT in html and "being prepared" not in html


def test_without_a_stored_row_the_page_says_they_are_being_prepared(
    board_game: Callable[..., Game], never_found: None
) -> None:
    game = board_game(hints=True)
    ann = client_of(game, 0)
    url = f"/games/{game.pk}/"
    for html in (ann.get(url), ann.get(url, headers={"HX-Request": "true"})):
        page = html.content.decode()
        assert "Hints for this position are being prepared" in page
        assert f'hx-get="{url}hints/?seen={game.last_seq}"' in page
        assert "hint-list" not in page
    poll = ann.get(f"{url}hints/?seen={game.last_seq}", headers={"HX-Request": "true"})
    assert poll.status_code == 204  # still being prepared: the notice stays


def test_the_poll_brings_the_hints_once_the_task_has_stored_them(
    board_game: Callable[..., Game],
) -> None:
    game = board_game(hints=True)
    ann = client_of(game, 0)
    poll = f"/games/{game.pk}/hints/?seen={game.last_seq}"
    assert ann.get(poll, headers={"HX-Request": "true"}).status_code == 204
    assert tasks.prepare_hints(game.pk, 0, game.last_seq)
    answer = ann.get(poll, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="hints"' in html and ANN_HINT in html and "<html" not in html
    assert ann.get(f"/games/{game.pk}/hints/?seen=x").status_code == 400


def test_the_task_stores_the_hints_once_however_often_it_runs(
    board_game: Callable[..., Game], found: list[int]
) -> None:
    game = board_game(hints=True)
    assert tasks.prepare_hints(game.pk, 0, game.last_seq) is True
    assert tasks.prepare_hints(game.pk, 0, game.last_seq) is False
    assert tasks.sweep_hints() == 0
    assert found == [0]
    row = SeatHints.objects.get(game=game)
    assert (row.seat, row.seq) == (0, game.last_seq) and row.hints
    # Two workers past the check at once: the unique index keeps one row.
    assert hints._store(game.pk, 0, game.last_seq, [], 1) is False
    assert SeatHints.objects.get(game=game).pk == row.pk


def test_no_hints_are_stored_for_a_seat_not_to_move_or_a_position_gone(
    board_game: Callable[..., Game], found: list[int]
) -> None:
    game = board_game(hints=True)
    seq = game.last_seq
    assert hints.prepare(game.pk, 1, seq) is False  # Bob's turn is not now
    move(game, 0, "1 STRANGE")
    assert hints.prepare(game.pk, 1, seq) is False  # a nudge of a position gone
    assert found == [] and not SeatHints.objects.exists()


def test_a_later_position_never_shows_an_earlier_position_s_hints(
    board_game: Callable[..., Game],
) -> None:
    game = board_game(hints=True)
    first = game.last_seq
    assert hints.prepare(game.pk, 0, first)
    ann = client_of(game, 0)
    assert ANN_HINT in ann.get(f"/games/{game.pk}/").content.decode()
    move(game, 0, "1 STRANGE")
    move(game, 1, "2 APE")  # Ann's turn again, at a later position
    for html in views(ann, game)[:2]:
        assert ANN_HINT not in html and "being prepared" in html
    # The page of the first position, still polling, is told the game moved on.
    old = ann.get(f"/games/{game.pk}/hints/?seen={first}", headers={"HX-Request": "true"})
    assert old.status_code == 286 and "moved on" in old.content.decode()
    assert ANN_HINT not in old.content.decode()
    assert hints.prepare(game.pk, 0, game.last_seq)
    assert list(SeatHints.objects.values_list("seq", flat=True)) == [game.last_seq]


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """The tasks rung (name, arguments), instead of sent to a broker."""
    from celery import current_app

    rung: list[tuple[str, Any]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args=(), **kw: rung.append((name, args))
    )
    return rung


def test_the_move_that_makes_it_a_person_s_turn_rings_the_task_after_its_commit(
    board_game: Callable[..., Game],
    asked: list[tuple[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = board_game(hints=True)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        move(game, 0, "1 STRANGE")
    assert not [a for a in asked if a[0] == hints.PREPARE_TASK]  # not before the commit
    for callback in callbacks:
        callback()
    assert [a for a in asked if a[0] == hints.PREPARE_TASK] == [
        (hints.PREPARE_TASK, (game.pk, 1, game.last_seq))
    ]


def test_the_deal_rings_the_task_for_the_first_to_move(
    started_game: Callable[..., Game],
    asked: list[tuple[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        dealt = started_game(hints=True)  # the deal makes it someone's turn too
    assert dealt.turn_seat is not None
    assert [a for a in asked if a[0] == hints.PREPARE_TASK] == [
        (hints.PREPARE_TASK, (dealt.pk, dealt.turn_seat, dealt.last_seq))
    ]


@pytest.mark.parametrize("hints_on", [False, True])
def test_no_task_is_rung_with_hints_off_nor_for_a_robot(
    hints_on: bool,
    board_game: Callable[..., Game],
    asked: list[tuple[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = board_game(hints=hints_on)
    if hints_on:  # Bob's seat a robot's: its turn is owed to the robot, not hints
        robot = owed.robot("beginner")
        assert robot is not None
        game.seats.filter(index=1).update(user=robot)
    with django_capture_on_commit_callbacks(execute=True):
        move(game, 0, "1 STRANGE")
    assert hints.PREPARE_TASK not in [name for name, _ in asked]
    assert hints.unprepared() == []


def test_the_sweep_prepares_what_a_lost_nudge_missed(board_game: Callable[..., Game]) -> None:
    game = board_game(hints=True)
    assert hints.unprepared() == [(game.pk, 0, game.last_seq)]
    assert tasks.sweep_hints() == 1
    assert hints.unprepared() == []
    move(game, 0, "1 STRANGE")
    assert hints.unprepared() == [(game.pk, 1, game.last_seq)]


def test_a_failure_is_stored_said_on_the_page_and_logged_without_the_rack(
    board_game: Callable[..., Game],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = board_game(hints=True)

    def broken(self: JumbulayaRobots, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("no word in A B D F H")  # Ann's rack, in a message

    monkeypatch.setattr(JumbulayaRobots, "hints", broken)
    caplog.set_level(logging.DEBUG)
    assert tasks.prepare_hints(game.pk, 0, game.last_seq) is True
    assert SeatHints.objects.get(game=game).hints is None
    assert hints.unprepared() == []  # not tried again at every sweep
    page = client_of(game, 0).get(f"/games/{game.pk}/").content.decode()
    assert "No hints could be found for this position" in page
    assert "being prepared" not in page
    for record in caplog.records:
        assert "A B D F H" not in record.getMessage() and record.exc_info is None


def test_only_the_seat_to_move_ever_sees_its_hints(
    board_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = board_game(hints=True, is_public=True)
    assert hints.prepare(game.pk, 0, game.last_seq)
    bob = client_of(game, 1)
    eve = Client()
    eve.force_login(make_user("eve"))
    poll = f"/games/{game.pk}/hints/?seen={game.last_seq}"
    for who, client in (("bob", bob), ("eve", eve)):
        for html in views(client, game)[:2]:
            assert ANN_HINT not in html and "hint-list" not in html, who
            assert "being prepared" not in html, who
    answer = bob.get(poll, headers={"HX-Request": "true"})
    assert answer.status_code == 286 and "hint-list" not in answer.content.decode()
    assert eve.get(poll, headers={"HX-Request": "true"}).status_code == 403


def test_a_turn_link_s_page_polls_through_the_link(board_game: Callable[..., Game]) -> None:
    """Opened from an email without signing in: the notice asks the link's own
    address, which brings the hints once stored."""
    game = board_game(hints=True)
    ann = game.seats.get(index=0).user
    assert ann is not None
    link = urlsplit(turn_url(ann.pk, game.pk, game.last_seq)).path
    browser = Client()
    poll = f"{link}hints/?seen={game.last_seq}"
    assert f'hx-get="{poll}"' in browser.get(link).content.decode()
    assert browser.get(poll, headers={"HX-Request": "true"}).status_code == 204
    assert hints.prepare(game.pk, 0, game.last_seq)
    assert ANN_HINT in browser.get(poll, headers={"HX-Request": "true"}).content.decode()
