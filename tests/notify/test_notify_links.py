"""Turn links (no sign-in, one game, only POST acts) and unsubscribe links."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import Client

from accounts.models import User
from games.core.lobby import create_game
from games.core.projection import ServiceError, current_state, game_lexicon
from games.engine.jumbulaya import PRESETS, legal_moves
from games.mail_out.emails import message_for
from games.mail_out.turnlinks import turn_token, unsubscribe_token
from games.models import Event, Game, NoInvitations, Notification, Seat
from games.web.access import viewer_or_404


def turn_user(game: Game) -> User:
    assert game.turn_seat is not None
    user = game.seats.get(index=game.turn_seat).user
    assert user is not None
    return user


def a_move(game: Game) -> str:
    state = current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, game_lexicon(game))
    return moves[0].notation() if moves else "pass"


def link(game: Game, user: User, seq: int | None = None) -> str:
    return f"/t/{turn_token(user.pk, game.pk, game.last_seq if seq is None else seq)}/"


def move(notation: str, key: str = "k" * 20) -> dict[str, str]:
    """What the page's move form sends (a pass already confirmed)."""
    return {"notation": notation, "idempotency_key": key, "confirmed": "yes"}


def test_a_turn_link_shows_the_game_without_sign_in_and_changes_nothing(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    user = turn_user(game)
    rack = current_state(game).racks[game.turn_seat or 0]
    events = Event.objects.count()
    response = client.get(link(game, user))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Game {game.pk}" in html and "It is your turn." in html
    assert 'name="notation"' in html and "csrfmiddlewaretoken" in html
    assert all(f'data-tile="{t}" data-where="rack"' in html for t in rack)
    game.refresh_from_db()
    assert Event.objects.count() == events and game.last_seq == 1
    assert not client.session.keys()  # not a sign-in: each request carries the link


def test_a_post_through_the_link_makes_the_move(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    user = turn_user(game)
    url = link(game, user)
    client.get(url)
    response = client.post(url, move(a_move(game)))
    assert response.status_code == 302 and response["Location"] == url
    game.refresh_from_db()
    assert game.last_seq == 2
    assert Event.objects.get(game=game, seq=2).source == "link"
    page = client.get(url).content.decode()
    # The game moved on by this very move: the page says so, and refuses nothing.
    assert "Your move was made." in page and "You have moved since this email was sent" in page
    assert "refused" not in page.lower() and "no longer sends moves" not in page
    assert 'name="notation"' not in page  # the link sends no more moves


def test_an_old_link_is_refused_once_the_game_moved_on(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    user = turn_user(game)
    old = link(game, user)
    client.post(old, move(a_move(game)))
    game.refresh_from_db()
    assert game.last_seq == 2
    # The other player moves, so it is the first player's turn again.
    other = turn_user(game)
    Client().post(link(game, other), move("pass", "o" * 20))
    game.refresh_from_db()
    assert game.last_seq == 3 and turn_user(game) == user
    response = client.post(old, move("pass", "p" * 20))
    assert response.status_code == 409
    assert "the game has moved on" in response.content.decode()
    game.refresh_from_db()
    assert game.last_seq == 3


def test_a_refused_move_says_why(started_game: Callable[..., Game], client: Client) -> None:
    game = started_game()
    response = client.post(link(game, turn_user(game)), move("9 QQQQQQ"))
    assert response.status_code == 422
    game.refresh_from_db()
    assert game.last_seq == 1


def test_the_move_post_needs_the_csrf_token(started_game: Callable[..., Game]) -> None:
    game = started_game()
    response = Client(enforce_csrf_checks=True).post(link(game, turn_user(game)), move("pass"))
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.last_seq == 1


def test_a_link_opens_only_its_own_game(
    started_game: Callable[..., Game], make_user: Callable[[str], User], client: Client
) -> None:
    game = started_game()
    user = turn_user(game)
    from games.core.lobby import create_game
    from games.engine.jumbulaya import PRESETS

    other = create_game(user, seat_count=2, rules=PRESETS["official"], is_open=True)
    client.get(link(game, user))
    granted = {str(game.pk): user.pk}  # what a link to this game grants
    assert viewer_or_404(game.pk, AnonymousUser(), granted).seat == game.turn_seat
    with pytest.raises(Http404):
        viewer_or_404(other.pk, AnonymousUser(), granted)
    # The game page itself still wants a sign-in.
    assert client.get(f"/games/{other.pk}/").status_code == 302
    # A forged token (another game's id under this signature) is refused.
    token = turn_token(user.pk, game.pk, 1)
    payload, rest = token.split(":", 1)
    forged = turn_token(user.pk, other.pk, 1).split(":", 1)[0] + ":" + rest
    assert payload != forged.split(":")[0]
    response = client.get(f"/t/{forged}/")
    assert response.status_code == 400 and "not valid" in response.content.decode()


def test_a_bad_turn_link_says_so(db: None, client: Client) -> None:
    response = client.get("/t/nonsense/")
    assert response.status_code == 400
    assert "This link is not valid" in response.content.decode()


def test_a_link_for_another_signed_in_player_is_refused(
    started_game: Callable[..., Game], client: Client, make_user: Callable[[str], User]
) -> None:
    game = started_game()
    client.force_login(make_user("zed"))
    response = client.get(link(game, turn_user(game)))
    assert response.status_code == 403
    assert "sent to another player" in response.content.decode()


# --- unsubscribe ---------------------------------------------------------------


def test_unsubscribe_get_shows_a_button_and_changes_nothing(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    user = turn_user(game)
    response = client.get(f"/unsubscribe/{unsubscribe_token(user.pk, None)}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Stop all game emails" in html and "<button" in html
    user.refresh_from_db()
    assert user.email_mode == "every"


def test_unsubscribe_post_with_the_form_stops_all_game_email(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    user = turn_user(game)
    url = f"/unsubscribe/{unsubscribe_token(user.pk, None)}/"
    browser = Client(enforce_csrf_checks=True)
    browser.get(url)
    assert browser.post(url).status_code == 403  # no CSRF token, not one-click
    user.refresh_from_db()
    assert user.email_mode == "every"
    response = browser.post(url, {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value})
    assert response.status_code == 200 and "no more game emails" in response.content.decode()
    user.refresh_from_db()
    assert user.email_mode == "none"


def test_one_click_unsubscribe_needs_no_csrf_and_mutes_the_game(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    user = turn_user(game)
    url = f"/unsubscribe/{unsubscribe_token(user.pk, game.pk)}/"
    response = Client(enforce_csrf_checks=True).post(
        url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert Seat.objects.get(game=game, user=user).muted
    user.refresh_from_db()
    assert user.email_mode == "every"


def test_a_bad_unsubscribe_token_is_a_clear_400(db: None, client: Client) -> None:
    for method in (client.get, client.post):
        response = method("/unsubscribe/not-a-token/")
        assert response.status_code == 400
        assert "This unsubscribe link is not valid" in response.content.decode()


def test_an_invitation_can_be_refused_for_good(make_user: Callable[[str], User]) -> None:
    """The invitation carries a one-click unsubscribe for its address (which may
    have no account): a GET asks, a POST records it, and no invitation goes to
    that address again, pending or new."""
    ann = make_user("ann")
    rules = PRESETS["official"]
    first = create_game(ann, seat_count=2, rules=rules, invite_emails=["x@example.org"])
    (note,) = Notification.objects.filter(game=first, kind=Notification.Kind.INVITED)
    message = message_for(Notification.objects.select_related("game", "user").get(pk=note.pk))
    assert message is not None
    headers = message.extra_headers
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = headers["List-Unsubscribe"].strip("<>")
    assert url in message.body
    path = url.removeprefix("http://127.0.0.1:8000")
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(path)
    assert page.status_code == 200 and "Stop invitations to x@example.org" in page.text
    assert not NoInvitations.objects.exists()  # a GET only asks
    second = create_game(ann, seat_count=2, rules=rules, invite_emails=["x@example.org"])
    assert browser.post(path).status_code == 403  # neither one-click nor a form with its token
    done = browser.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200 and "No more invitations" in done.text
    assert list(NoInvitations.objects.values_list("email", flat=True)) == ["x@example.org"]
    pending = Notification.objects.select_related("game", "user").get(
        game=second, kind=Notification.Kind.INVITED
    )
    assert message_for(pending) is None  # owed before, not sent now
    with pytest.raises(ServiceError, match="asked to get no invitations"):
        create_game(ann, seat_count=2, rules=rules, invite_emails=["X@example.org"])
    assert Client().get("/no-invitations/not-a-token/").status_code == 400


# --- preferences ---------------------------------------------------------------


def test_preferences_need_sign_in(db: None, client: Client) -> None:
    assert client.get("/settings/email/").status_code == 302


def test_preferences_choose_the_mode_the_hour_and_mutes(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    user = turn_user(game)
    client.force_login(user)
    page = client.get("/settings/email/").content.decode()
    assert "daily digest" in page and f"mute_{game.pk}" in page
    response = client.post(
        "/settings/email/",
        {"email_mode": "digest", "digest_hour": "19", f"mute_{game.pk}": "on"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email_mode == "digest" and user.digest_hour == 19
    assert Seat.objects.get(game=game, user=user).muted
    client.post("/settings/email/", {"email_mode": "every", "digest_hour": "8"})
    assert not Seat.objects.get(game=game, user=user).muted
    bad = client.post("/settings/email/", {"email_mode": "often", "digest_hour": "25"})
    assert bad.status_code == 400 and "were not saved" in bad.content.decode()
