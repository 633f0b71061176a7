"""Every API answer a seat or a spectator can get about a game holds only
public facts and the asker's own tiles: never another seat's rack or draws,
nor the bag's order (the leak scan of tests/markup.py, as for the pages).

A seat view's ``unseen`` is the one place other seats' tiles are counted, by
the spec (seat-view.md): as a sorted multiset with the bag, never whose or
in what order; it is checked apart, against that multiset worked out here."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from accounts.models import User
from games.core.projection import current_state, game_lexicon
from games.engine.jumbulaya import legal_moves
from games.models import Game
from tests.api.conftest import ApiClient
from tests.conftest import CanaryGame
from tests.markup import visible_faces


def answers(game: Game, api: ApiClient, seat: int | None) -> Iterator[tuple[str, Any]]:
    """(what, JSON) for every answer this viewer can get about ``game``,
    refusals included."""
    base = f"/games/{game.pk}"
    for path in ("/games", base, f"{base}/view", f"{base}/record"):
        yield path, api.get(path).json
    for after in (0, 1, 3):
        yield f"events after {after}", api.get(f"{base}/events", after=after).json
    state = current_state(game)
    moves = ["pass", "exchange all", "resign", "jumbulaya SPRINTED", "1 BQB", "9 MMMMMMM"]
    if seat is not None:
        moves += [f"exchange {state.racks[seat][0]}"]
        moves += [m.notation() for m in legal_moves(state, seat, game_lexicon(game))[:3]]
    for move in moves:
        yield f"preview {move!r}", api.post(f"{base}/preview", {"move": move}).json
    for move in ("1 BQB", "9 MMMMMMM", "pass"):  # refused: stale, or by the rules
        body = {"move": move, "expected_seq": 0 if move == "pass" else game.last_seq}
        yield f"move {move!r}", api.post(f"{base}/moves", body).json
    # The other writes, refused so that the game stays as it is (a stale
    # resignation, a seat taken or none free), and the account.
    yield "resign", api.post(f"{base}/resign", {"expected_seq": 0}).json
    yield "join", api.post(f"{base}/join").json
    yield "me", api.get("/me").json


def without_unseen(answer: Any) -> tuple[str, list[str] | None]:
    """The answer's text with a seat view's ``unseen`` taken out, and that ``unseen``."""
    if isinstance(answer, dict) and "unseen" in answer:
        rest = {k: v for k, v in answer.items() if k != "unseen"}
        return json.dumps(rest), answer["unseen"]
    return json.dumps(answer), None


def viewers(game: Game, make_user: Callable[[str], User]) -> list[tuple[int | None, User]]:
    seated: list[tuple[int | None, User]] = []
    for s in game.seats.select_related("user").order_by("index"):
        assert s.user is not None
        seated.append((s.index, s.user))
    return [*seated, (None, make_user("eve"))]


@pytest.mark.slow
def test_no_answer_shows_what_another_seat_drew_or_exchanged(
    canary_game: Callable[[], CanaryGame],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    canaries = canary_game()
    game = canaries.game
    state = current_state(game)
    scanned = 0
    for seat, user in viewers(game, make_user):
        api = api_for(user)
        hidden = canaries.hidden_from(seat)
        for what, answer in answers(game, api, seat):
            text, unseen = without_unseen(answer)
            scanned += 1
            assert not visible_faces(text) & hidden, f"{what} for seat {seat}"
            if unseen is not None:
                others = [t for i, rack in enumerate(state.racks) if i != seat for t in rack]
                assert unseen == sorted([*state.bag, *others]), f"{what} for seat {seat}"
        if seat is not None:  # the scan can see tiles: a seat's own draws are in its view
            own = visible_faces(without_unseen(api.get(f"/games/{game.pk}/view").json)[0])
            assert canaries.secret[seat] - {"K", "W", "Y"} <= own
    assert scanned > 4 * 15


@pytest.mark.slow
def test_no_answer_holds_another_rack_or_the_bags_order(
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    game = started_game(players=3, is_public=True)
    state = current_state(game)
    for seat, user in viewers(game, make_user):
        for what, answer in answers(game, api_for(user), seat):
            text, _ = without_unseen(answer)
            where = f"{what} for seat {seat}"
            for i in range(len(state.bag) - 6):
                run = state.bag[i : i + 7]
                assert json.dumps(list(run))[1:-1] not in text, where
            for other, rack in enumerate(state.racks):
                if other != seat:
                    assert json.dumps(sorted(rack))[1:-1] not in text, where
                    assert json.dumps(list(rack))[1:-1] not in text, where
            if seat is not None and what.endswith("/view"):
                # The scan would see a rack: the seat's own is there, as dealt.
                assert json.dumps(list(state.racks[seat]))[1:-1] in text, where
                assert Counter(answer["rack"]) == Counter(state.racks[seat]), where
            for other_user in game.seats.exclude(user=user).values_list("user__email", flat=True):
                assert other_user not in text, where
