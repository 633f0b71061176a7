"""A private game through the API (issue 27, finding 4): its players read it;
anyone else gets what a game that does not exist gets, and no list of theirs
holds it; an anonymous caller gets nothing but 401."""

from __future__ import annotations

from collections.abc import Callable

from accounts.models import User
from games.core.door import submit
from games.models import Game
from tests.api.conftest import ApiClient

MISSING = 999_999


def finished_private_game(started_game: Callable[..., Game]) -> Game:
    game = started_game(rated=True)
    submit(game.pk, 0, "resign", game.last_seq, "web")
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and not game.is_public
    return game


def reads(pk: int) -> list[str]:
    base = f"/games/{pk}"
    return [base, f"{base}/view", f"{base}/events", f"{base}/record"]


def test_a_private_game_is_read_by_its_players_and_a_404_to_anyone_else(
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    game = finished_private_game(started_game)
    for seat in game.seats.all():
        assert seat.user is not None
        api = api_for(seat.user)
        assert game.pk in [g["id"] for g in api.get("/games").json["games"]]
        for path in reads(game.pk):
            assert api.get(path).status == 200, path
    cy = api_for(make_user("cy"))
    assert cy.get("/games").json == {"games": [], "invitations": []}
    for path, missing in zip(reads(game.pk), reads(MISSING), strict=True):
        answer, none = cy.get(path), cy.get(missing)
        assert answer.status == none.status == 404 and answer.json == none.json, path
    joined, none = cy.post(f"/games/{game.pk}/join"), cy.post(f"/games/{MISSING}/join")
    assert (joined.status, joined.json) == (none.status, none.json)
    assert joined.status == 404
    anonymous = ApiClient(None)
    for path in ["/games", *reads(game.pk)]:
        assert anonymous.get(path).status == 401, path


def test_joining_answers_as_the_page_does(
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    """One 404 for every game one may not see nor was invited to (issue 27,
    finding 14); the reason for a game one may see, a public one included."""
    private = finished_private_game(started_game)
    eve = make_user("eve")
    api = api_for(eve)
    missing = api.post(f"/games/{MISSING}/join")
    assert missing.status == 404
    assert api.post(f"/games/{private.pk}/join").json == missing.json
    ann = private.seats.get(index=0).user
    assert ann is not None
    public = api_for(ann).post("/games", {"seats": 2, "public": True, "robots": ["casual"]}).json
    assert public["status"] == "playing"
    refused = api.post(f"/games/{public['id']}/join")
    assert (refused.status, refused.json["code"]) == (409, "cannot_join")
    assert "already started" in refused.json["message"]
