"""The game page reached through a turn link, without signing in: it offers what
the signed-in game page offers, its forms post to the link's own addresses, a GET
never acts, and a link that has done its work says what comes next instead of
refusing anything."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.test import Client

from accounts.models import User
from games.core.door import submit
from games.core.projection import current_state, game_lexicon
from games.engine.jumbulaya import legal_moves
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game

KEY = "a-key-of-sixteen-or-more"


def player(game: Game, seat: int) -> User:
    user = game.seats.get(index=seat).user
    assert user is not None
    return user


def link_of(game: Game, seat: int) -> str:
    return f"/t/{turn_token(player(game, seat).pk, game.pk, game.last_seq)}/"


def a_word_move(game: Game) -> str:
    state = current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, game_lexicon(game))
    assert moves, "the deal leaves the player to move no word"
    return moves[0].notation()


def actions(html: str) -> set[str]:
    """Where the page's forms and buttons send requests."""
    found = re.findall(r'\s(?:action|formaction|hx-post|hx-get)="([^"]*)"', html)
    return {url.split("?")[0] for url in found}


def test_the_link_opens_the_game_page_with_every_way_to_move(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    url = link_of(game, seat)
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "It is your turn." in html and "Opened from the link in your email" in html
    assert 'id="move-form"' in html and "data-composer" in html  # compose by tapping tiles
    assert 'id="preview"' in html and ">Preview</button>" in html
    for notation in ("pass", "exchange all", "resign"):
        assert f'name="notation" value="{notation}"' in html, notation
    # Every form and poll goes to the link's own addresses, none to the game's.
    assert actions(html) == {url, f"{url}preview/", f"{url}changes/"}
    assert f"/games/{game.pk}/" not in html
    assert "_auth_user_id" not in client.session  # not a sign-in
    game.refresh_from_db()
    assert game.last_seq == 1


def test_the_other_player_may_resign_or_call_but_not_pass(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    waiting = 1 - (game.turn_seat or 0)
    html = client.get(link_of(game, waiting)).content.decode()
    assert 'name="notation" value="resign"' in html
    assert 'value="pass"' not in html and 'value="exchange all"' not in html


def test_a_preview_through_the_link_changes_nothing_and_a_get_cannot_act(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    url = link_of(game, game.turn_seat or 0)
    move = a_word_move(game)
    shown = client.post(f"{url}preview/", {"notation": move}, HTTP_HX_REQUEST="true")
    assert shown.status_code == 200 and "You build" in shown.content.decode()
    full = client.post(f"{url}preview/", {"notation": move})
    assert full.status_code == 200 and "You build" in full.content.decode()
    assert client.get(f"{url}preview/", {"notation": move}).status_code == 405
    assert client.get(url, {"notation": move, "idempotency_key": KEY}).status_code == 200
    assert client.get(f"{url}changes/?seen=1").status_code == 204
    game.refresh_from_db()
    assert game.last_seq == 1 and Event.objects.filter(game=game).count() == 1


def test_a_move_through_the_link_leaves_no_refusal_behind(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    url = link_of(game, seat)
    client.get(url)
    response = client.post(url, {"notation": a_word_move(game), "idempotency_key": KEY})
    assert response.status_code == 302 and response["Location"] == url
    assert Event.objects.get(game=game, seq=2).source == "link"
    html = client.get(url).content.decode()
    assert "Your move was made." in html and "You have moved since this email was sent" in html
    assert "refused" not in html.lower() and "no longer sends moves" not in html
    assert 'id="move-form"' not in html  # the link has done its work
    # The same, answered to htmx: the live part, with no refusal either.
    game.refresh_from_db()
    other = link_of(game, 1 - seat)
    answer = Client().post(
        other,
        {"notation": "pass", "idempotency_key": "b" * 20, "confirmed": "yes"},
        HTTP_HX_REQUEST="true",
    )
    live = answer.content.decode()
    assert answer.status_code == 200 and live.lstrip().startswith('<div id="live"')
    assert "Your move was made." in live and "refused" not in live.lower()


def test_the_page_polls_and_says_what_happened_through_the_link(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    url = link_of(game, 1 - seat)  # the player waiting for the other
    assert f'hx-get="{url}changes/?seen=1"' in client.get(url).content.decode()
    submit(game.pk, seat, "pass", 1, Event.Source.WEB)
    news = client.get(f"{url}changes/?seen=1")
    assert news.status_code == 200
    html = news.content.decode()
    assert "passed" in html and f'href="{url}"' in html


def test_a_link_the_game_moved_past_says_what_to_do(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    url = link_of(game, 1 - seat)
    submit(game.pk, seat, "pass", 1, Event.Source.WEB)
    html = client.get(url).content.decode()
    assert "The game has moved on since this email was sent" in html
    assert "It is your turn again: use the link in your newest email" in html
    assert 'id="move-form"' not in html and 'value="resign"' not in html
    refused = client.post(url, {"notation": "resign", "idempotency_key": KEY, "confirmed": "yes"})
    assert refused.status_code == 409
    assert "This link was sent when the game was at move 1" in refused.content.decode()
    assert Event.objects.filter(game=game).count() == 2


def test_signed_in_as_the_links_player_the_link_is_the_game_page(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    seat = game.turn_seat or 0
    client.force_login(player(game, seat))
    response = client.get(link_of(game, seat))
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.last_seq == 1


def test_a_link_to_a_seat_that_is_gone_is_a_clear_404(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    url = link_of(game, 0)
    game.seats.filter(index=0).update(user=None)
    for response in (
        client.get(url),
        client.post(url, {"notation": "pass", "idempotency_key": KEY}),
        client.post(f"{url}preview/", {"notation": "pass"}),
        client.get(f"{url}changes/?seen=1"),
    ):
        assert response.status_code == 404
        assert "This link no longer opens a game" in response.content.decode()
    for bad in ("/t/nonsense/", "/t/nonsense/preview/", "/t/nonsense/changes/"):
        response = client.post(bad) if bad.endswith("preview/") else client.get(bad)
        assert response.status_code == 400 and "not valid" in response.content.decode()


def test_a_link_whose_time_ran_out_says_so(
    started_game: Callable[..., Game], client: Client
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    url = link_of(game, seat)
    submit(game.pk, seat, "timeout", 1, Event.Source.DEADLINE)
    html = client.get(url).content.decode()
    assert "Your time for the move this email was sent for ran out" in html
    assert "You have moved" not in html and 'id="move-form"' not in html
