"""A player a robot took over from keeps the game, in every kind and through
every channel: it stays in their lists, finished for them; they open it as a
spectator does, read-only (the page, their old turn link, the API), an email
reply is answered that they left; the log says they left and names them in
every line they played; the resignation's question says a robot takes the
seat."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest
from django.test import Client

from accounts import access_tokens
from accounts.models import User
from games import kinds
from games.core import lobby, projection
from games.core.door import submit
from games.core.projection import current_state, game_lexicon, kind_of
from games.kinds import presentation
from games.mail_in import inbound
from games.mail_out.emails import message_for
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game, InboundMail, Notification, SeatChange
from games.robots import turns
from tests import leaks
from tests.api.conftest import ApiClient
from tests.inbound.inbound_mails import parsed, reply_mime

pytestmark = pytest.mark.django_db

KINDS = [kind.name for kind in kinds.all()]
LEFT = "You resigned from this game, and Robot Casual took your seat"


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def a_move(game: Game, seat: int) -> str:
    """A legal move of ``seat``'s now, as the kind lists them for robots, or a pass
    (a crossword rack may make no word on a random board)."""
    kind = kind_of(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    moves = kind.legal_moves(current_state(game), seat, lexicon)
    return moves[0] if moves else "pass"


def dave_moved_then_left(kind: str, make_user: Callable[[str], User]) -> tuple[Game, User, int]:
    """A game of ``kind`` (takeover: Robot Casual) between Ann, Dave (and Cy
    for Blockers' three), where everyone moves until Dave has moved twice;
    then Dave resigns and the robot takes his seat."""
    game, dave, seat = dave_moved(kind, make_user)
    submit(game.pk, dave, "resign", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    holder = game.seats.get(index=seat).user
    assert holder is not None and holder.public_name == "Robot Casual"
    return game, dave, seat


def dave_moved(kind: str, make_user: Callable[[str], User]) -> tuple[Game, User, int]:
    """:func:`dave_moved_then_left` before Dave resigns."""
    game_kind = kinds.get(kind)
    people = [make_user(name) for name in ("ann", "dave", "cy")[: max(2, game_kind.min_players)]]
    ann, dave = people[0], people[1]
    game = lobby.create_game(
        ann,
        kind=kind,
        seat_count=len(people),
        rules=next(iter(game_kind.presets.values())),
        invite_emails=[p.email for p in people[1:]],
        takeover_level="casual",
    )
    for person in people[1:]:
        lobby.join_game(game.pk, person)
    seat = game.seats.get(user=dave).index
    for _ in range(40):
        game.refresh_from_db()
        if Event.objects.filter(game=game, seat=seat).count() >= 2:
            break
        at = game_kind.progress(current_state(game))
        mover = at.to_move[0]
        submit(game.pk, mover, a_move(game, mover), game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    return game, dave, seat


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_log_says_who_left_and_keeps_the_names_lines_were_played_under(
    kind: str, make_user: Callable[[str], User]
) -> None:
    game, _dave, seat = dave_moved_then_left(kind, make_user)
    log = [entry.words for entry in presentation.of(kind_of(game)).game_log(game)]
    said = "Dave resigned; Robot Casual took the seat."
    assert said in log
    before = log[: log.index(said)]
    assert not any("Robot Casual" in words for words in before), before
    played = Event.objects.filter(game=game, seat=seat).count()
    assert sum(1 for words in before if words.startswith("Dave")) >= min(played, 1), before
    # The page's log and the API's log say the same.
    page = signed_in(game.created_by).get(f"/games/{game.pk}/").content.decode()
    assert said in page


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_player_who_left_opens_the_game_read_only_and_keeps_it_in_their_lists(
    kind: str, make_user: Callable[[str], User]
) -> None:
    game, dave, _seat = dave_moved_then_left(kind, make_user)
    client = signed_in(dave)
    page = client.get(f"/games/{game.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert LEFT in html
    assert 'id="move-form"' not in html and "You are watching this game." not in html
    # Nothing of anyone's hand: Dave sees what a spectator sees, on every page and email.
    assert leaks.scan(game, {None: dave}) > 0
    # A move from the page changes nothing and says why.
    seq = game.last_seq
    sent = {"notation": "resign", "expected_seq": str(seq), "confirmed": "yes",
            "idempotency_key": "left-player-0123456789"}  # fmt: skip
    refused = client.post(f"/games/{game.pk}/move/", sent)
    assert refused.status_code == 403 and LEFT in refused.content.decode()
    game.refresh_from_db()
    assert game.last_seq == seq
    # The dashboard lists it as finished for him; his page too.
    dashboard = client.get("/dashboard/").content.decode()
    finished = dashboard.split('id="finished"')[1]
    assert f'href="/games/{game.pk}/"' in finished
    assert "You resigned, and Robot Casual took your seat" in finished
    own = client.get(f"/players/{dave.pk}/").content.decode()
    assert f'href="/games/{game.pk}/"' in own and "<td>left</td>" in own
    # Others see him on no seat, and the robot where he sat.
    ann_page = signed_in(game.created_by).get(f"/games/{game.pk}/").content.decode()
    assert "Robot Casual" in ann_page


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_left_players_turn_link_shows_the_game_read_only(
    kind: str, make_user: Callable[[str], User]
) -> None:
    game, dave, seat = dave_moved_then_left(kind, make_user)
    link = f"/t/{turn_token(dave.pk, game.pk, game.last_seq)}/"
    visitor = Client()
    page = visitor.get(link)
    html = page.content.decode()
    assert page.status_code == 200 and LEFT in html
    assert 'id="move-form"' not in html
    hidden = leaks.hands(game)
    assert not leaks.leaks(html, hidden)
    seq = game.last_seq
    sent = {"notation": a_move_or_resign(game, seat), "expected_seq": str(seq),
            "confirmed": "yes", "idempotency_key": "left-link-0123456789ab"}  # fmt: skip
    refused = visitor.post(link, sent)
    assert refused.status_code == 403 and LEFT in refused.content.decode()
    game.refresh_from_db()
    assert game.last_seq == seq


def a_move_or_resign(game: Game, seat: int) -> str:
    moves = kind_of(game).legal_moves(
        current_state(game), seat, game_lexicon(game) if kind_of(game).uses_word_list else None
    )
    return moves[0] if moves else "resign"


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_reply_from_the_player_who_left_is_answered_that_they_left(
    kind: str, make_user: Callable[[str], User]
) -> None:
    game, dave, _seat = dave_moved_then_left(kind, make_user)
    seq = game.last_seq
    outcome = inbound.receive(parsed(reply_mime(game, dave, "resign")), via="test")
    assert outcome.status == "refused"
    row = InboundMail.objects.get()
    assert LEFT in row.reason
    game.refresh_from_db()
    assert game.last_seq == seq
    note = Notification.objects.select_related("game", "user").get(
        user=dave, kind=Notification.Kind.REPLY_REFUSED
    )
    message = message_for(note)
    assert message is not None, "the player who left is answered"
    body = str(message.body)
    assert LEFT in body and "Your rack" not in body and "/t/" not in body
    html = str(message.alternatives[0][0])  # type: ignore[index]
    assert not leaks.leaks(body + html, leaks.hands(game))


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_player_who_resigns_by_email_is_told_a_robot_took_the_seat(
    kind: str, make_user: Callable[[str], User]
) -> None:
    game, dave, _seat = dave_moved(kind, make_user)
    outcome = inbound.receive(parsed(reply_mime(game, dave, "resign")), via="test")
    assert outcome.status == "moved"
    assert SeatChange.objects.get(game=game).left == dave
    note = Notification.objects.select_related("game", "user").get(
        user=dave, kind=Notification.Kind.REPLY_DONE
    )
    message = message_for(note)
    assert message is not None, "the resignation is answered"
    body = str(message.body)
    assert f"Done. {LEFT}" in body and "/t/" not in body
    assert not leaks.leaks(body, leaks.hands(game))


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_api_shows_the_player_who_left_the_game_but_takes_no_move(
    kind: str, make_user: Callable[[str], User]
) -> None:
    game, dave, _seat = dave_moved_then_left(kind, make_user)
    api = ApiClient(access_tokens.make(dave, "test").token)
    got = api.get(f"/games/{game.pk}")
    assert got.status == 200
    assert got.json["your_seat"] is None and LEFT in got.json["left"]
    events = api.get(f"/games/{game.pk}/events", after=0)
    assert events.status == 200 and any("Dave resigned" in e["words"] for e in events.json["log"])
    assert api.get(f"/games/{game.pk}/view").status == 200
    listed = api.get("/games").json["games"]
    assert [g["left"] is not None for g in listed if g["id"] == game.pk] == [True]
    seq = game.last_seq
    moved = api.post(f"/games/{game.pk}/moves", {"move": "resign", "expected_seq": seq})
    assert moved.status == 403
    assert moved.json["code"] == "not_yours" and LEFT in moved.json["message"]
    game.refresh_from_db()
    assert game.last_seq == seq


def test_the_resignations_question_says_a_robot_will_take_the_seat(
    make_user: Callable[[str], User], started_game: Callable[..., Game]
) -> None:
    game = started_game(players=2, takeover_level="casual")
    seat = game.turn_seat
    assert seat is not None
    user = game.seats.get(index=seat).user
    assert user is not None
    sent = {"notation": "resign", "expected_seq": str(game.last_seq),
            "idempotency_key": "ask-first-0123456789ab"}  # fmt: skip
    asked = signed_in(user).post(f"/games/{game.pk}/move/", sent).content.decode()
    assert "Resign from this game?" in asked
    assert "Robot Casual will take your seat and play on with your score." in asked
    assert "cannot win" not in asked and "This ends the game" not in asked  # it does not
    assert not SeatChange.objects.exists()
    # Without a takeover, the question says nothing of robots.
    ann, bob = (game.seats.get(index=i).user for i in (0, 1))
    assert ann is not None and bob is not None
    other = lobby.create_game(
        ann, seat_count=2, rules=kinds.get("jumbulaya").presets["official"],
        invite_emails=[bob.email],
    )  # fmt: skip
    lobby.join_game(other.pk, bob)
    other.refresh_from_db()
    mover = other.seats.get(index=other.turn_seat).user
    assert mover is not None
    sent["expected_seq"] = str(other.last_seq)
    plain = signed_in(mover).post(f"/games/{other.pk}/move/", sent).content.decode()
    assert "Resign from this game?" in plain and "will take your seat" not in plain


def test_a_rename_shows_in_the_lines_the_leaver_played(
    make_user: Callable[[str], User],
) -> None:
    game, dave, _seat = dave_moved_then_left("jumbulaya", make_user)
    User.objects.filter(pk=dave.pk).update(display_name="David")
    log = [entry.words for entry in presentation.of(kind_of(game)).game_log(game)]
    assert "David resigned; Robot Casual took the seat." in log
    assert any(words.startswith("David ") for words in log[:-1])


@pytest.mark.slow
def test_each_players_page_counts_only_the_plays_they_made_in_a_seat_that_changed_hands(
    make_user: Callable[[str], User],
) -> None:
    game, dave, seat = dave_moved_then_left("jumbulaya", make_user)
    robot = game.seats.get(index=seat).user
    ann = game.created_by
    assert robot is not None
    for _ in range(6):  # the robot plays a few turns in Dave's seat, Ann passing
        game.refresh_from_db()
        if game.turn_seat == seat:
            assert turns.sweep() >= 1
        else:
            submit(game.pk, ann, "pass", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    submit(game.pk, ann, "resign", game.last_seq, Event.Source.WEB)  # a robot takes hers too
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        assert turns.sweep() >= 1
    assert game.status == Game.Status.OVER
    change = SeatChange.objects.get(game=game, seat=seat)
    kind = kind_of(game)
    rows = list(game.events.order_by("seq"))
    events = [projection.engine_event(row) for row in rows]
    his = kinds.best_plays(
        kind, [e for e, r in zip(events, rows, strict=True) if r.seq <= change.seq], seat
    )
    everyone = kinds.best_plays(kind, events, seat)
    assert his and len(everyone) > len(his), "both played words in the seat"
    theirs = list((Counter(everyone) - Counter(his)).elements())

    def best(user: User) -> list[str]:
        page = signed_in(ann).get(f"/players/{user.pk}/").content.decode()
        return re.findall(r'<span class="play">([^<]*)</span>', page)

    assert set(best(dave)) <= {p.words for p in his}
    assert set(best(robot)) <= {p.words for p in theirs}
    assert best(dave) and best(robot)
