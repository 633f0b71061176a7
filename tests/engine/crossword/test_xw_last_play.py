"""The game's last play in ``async`` mode (reading 9): a play that would end
the game leaves the end pending; the next seat in the game challenges it or
accepts the end (``pass``, ``accept``, or a ``timeout``); any other seat may
challenge it too.  ``void`` games and six scoreless turns end at once."""

from __future__ import annotations

from dataclasses import replace

import pytest
from xw_helpers import game, move, started, with_points

from games.engine.crossword.commands import decide
from games.engine.crossword.events import ChallengeFailed, Passed, Played, PlayWithdrawn
from games.engine.crossword.fold import evolve, start
from games.engine.crossword.options import PRESETS
from games.engine.crossword.state import GameState, state_from_json, state_to_json
from games.engine.crossword.view import seat_view
from games.engine.errors import Refusal

#: CATZ is no word; CATS is.
WORDS = frozenset({"CAT", "CATS", "AT"})
ASYNC = replace(PRESETS["standard"], challenge="async")
#: 8G CATZ: C 3, A 1, T 1 on the board, Z 10 on 8J (no premium) = 15.
#: 8G CATS: 3 + 1 + 1 + 1 = 6.  Q 10 + E 1 = 11 left on the other rack.
CATZ, CATS = 15, 6


def out_with(word: str, *others: str) -> tuple[GameState, GameState]:
    """p0 holds the last letter of ``word``, the bag is empty, CAT is on the
    board: the state before and after p0 plays ``8G <word>``."""
    before = game((word[-1], *others), "8G CAT", options=ASYNC)
    return before, move(before, 0, f"8G {word}", WORDS)


def refused(state: GameState, seat: int, text: str, code: str) -> str:
    before = state_to_json(state)
    with pytest.raises(Refusal) as caught:
        decide(state, seat, text, WORDS)
    assert caught.value.code == code, caught.value.message
    assert state_to_json(state) == before
    return caught.value.message


def test_going_out_leaves_the_end_pending_on_the_next_seat() -> None:
    _, pending = out_with("CATZ", "QE")
    assert not pending.over and pending.end is None and pending.pending_end == "went_out"
    assert pending.turn == 1
    assert pending.points == (CATZ, 0) and pending.adjustments == (0, 0)
    assert pending.racks == ("", "QE")
    assert pending.open_play is not None and pending.open_play.words == ("CATZ",)
    assert pending.winners() == []


@pytest.mark.parametrize("answer", ["pass", "accept", "timeout", "ACCEPT"])
def test_a_pass_accept_or_timeout_ends_the_game_as_the_play_made_it(answer: str) -> None:
    _, pending = out_with("CATZ", "QE")
    assert decide(pending, 1, answer, WORDS)[0] == (
        Passed(1) if answer.lower() != "timeout" else decide(pending, 1, "timeout", WORDS)[0]
    )
    over = move(pending, 1, answer, WORDS)
    assert (over.end, over.finisher, over.turn) == ("went_out", 0, None)
    assert over.adjustments == (11, -11)
    assert over.scores() == [CATZ + 11, -11]
    assert over.winners() == [0]
    assert over.open_play is None and over.pending_end is None
    assert over.scoreless == 0  # accepting is no scoreless turn


def test_a_challenge_that_withdraws_the_last_play_puts_everything_back_and_play_goes_on() -> None:
    before, pending = out_with("CATZ", "QE")
    events = decide(pending, 1, "challenge", WORDS)
    assert events == [PlayWithdrawn(1, 0, ("CATZ",))]
    after = evolve(pending, events[0])
    assert not after.over and after.pending_end is None and after.open_play is None
    assert after.board == before.board and after.racks == before.racks == ("Z", "QE")
    assert after.points == (0, 0) and after.adjustments == (0, 0)
    assert after.turn == 1  # p0's turn was lost: the challenger plays
    assert after.scoreless == 1


def test_a_wrong_challenge_of_the_last_play_ends_the_game_and_the_penalty_is_moot() -> None:
    _, pending = out_with("CATS", "QE")
    events = decide(pending, 1, "challenge", WORDS)
    assert events == [ChallengeFailed(1, 0)]
    over = evolve(pending, events[0])
    assert (over.end, over.finisher) == ("went_out", 0)
    assert over.points == (CATS, 0) and over.adjustments == (11, -11)
    assert over.skips == (0, 0)


def test_while_the_end_is_pending_only_a_challenge_or_an_acceptance_is_taken() -> None:
    _, pending = out_with("CATZ", "QEAT", "AB")
    message = refused(pending, 1, "H7 A(A)", "end_pending")
    assert "p0 went out" in message and "p1 may only 'challenge'" in message
    refused(pending, 1, "exchange Q", "end_pending")
    refused(pending, 1, "8G (CATZ)", "end_pending")
    refused(pending, 0, "pass", "not_your_turn")
    refused(pending, 2, "accept", "not_your_turn")
    refused(pending, 0, "challenge", "own_play")
    refused(pending, 1, "accept now", "bad_move")


def test_accept_is_refused_when_no_end_is_pending() -> None:
    state = game(("SAT", "EEE"), options=ASYNC, bag="XYZWVUTS")
    assert "no end to accept" in refused(state, 0, "accept", "nothing_to_accept")


def test_once_accepted_the_game_is_over_and_its_last_play_closed() -> None:
    _, pending = out_with("CATZ", "QE")
    over = move(pending, 1, "pass", WORDS)
    for seat, text in ((1, "challenge"), (0, "pass"), (1, "accept")):
        refused(over, seat, text, "game_over")


def test_any_other_seat_may_challenge_out_of_turn() -> None:
    _, pending = out_with("CATZ", "QE", "AB")
    assert pending.turn == 1
    after = move(pending, 2, "challenge", WORDS)
    assert not after.over and after.turn == 1 and after.racks[0] == "Z"
    _, right = out_with("CATS", "QE", "AB")
    over = move(right, 2, "challenge", WORDS)
    assert (over.end, over.finisher, over.skips) == ("went_out", 0, (0, 0, 0))
    assert over.adjustments == (11 + 4, -11, -4)  # A 1 + B 3


def test_the_waiting_seat_skips_resigned_seats_and_the_mover_but_takes_no_lost_turn() -> None:
    before = game(("S", "QE", "AB", "EE"), "8G CAT", options=ASYNC, first=3)
    before = replace(before, turn=0, resigned=frozenset({1}), skips=(0, 0, 1, 0))
    pending = move(before, 0, "8G CATS", WORDS)
    assert (pending.turn, pending.skips) == (2, (0, 0, 1, 0))
    resigned = move(pending, 2, "resign", WORDS)
    assert resigned.turn == 3 and resigned.pending_end == "went_out"
    assert move(resigned, 3, "accept", WORDS).end == "went_out"


def test_a_withdrawal_after_the_waiting_seat_resigned_goes_on_from_the_mover() -> None:
    _, pending = out_with("CATZ", "QE", "AB")
    resigned = move(pending, 1, "resign", WORDS)
    assert resigned.turn == 2
    after = move(resigned, 2, "challenge", WORDS)
    assert after.turn == 2 and after.racks[0] == "Z" and not after.over


def test_the_game_ends_resigned_when_the_waiting_seat_leaves_two_players() -> None:
    _, pending = out_with("CATZ", "QE")
    over = move(pending, 1, "resign", WORDS)
    assert over.end == "resigned" and over.open_play is None and over.pending_end is None


def test_reaching_the_target_leaves_the_end_pending_too() -> None:
    options = replace(PRESETS["translating"], challenge="async")
    state = with_points(game(("S", "E"), "8G CAT", bag="XYZWVUTN", options=options), 115, 119)
    pending = move(state, 0, "8G CATS", WORDS)
    assert pending.pending_end == "target" and pending.turn == 1 and len(pending.bag) == 1
    over = move(pending, 1, "pass", WORDS)
    assert (over.end, over.finisher, over.adjustments) == ("target", 0, (0, 0))
    assert over.winners() == [0]


def test_a_withdrawn_target_play_gives_back_the_drawn_tiles_and_the_points() -> None:
    options = replace(PRESETS["translating"], challenge="async")
    state = with_points(game(("Z", "E"), "8G CAT", bag="XYZWVUTN", options=options), 115, 119)
    pending = move(state, 0, "8G CATZ", WORDS)
    assert pending.pending_end == "target" and len(pending.racks[0]) == 7  # refilled to 7
    after = move(pending, 1, "challenge", WORDS)
    assert after.racks == ("Z", "E") and after.bag == "NTUVWXYZ" and after.points == (115, 119)
    assert after.turn == 1 and not after.over


def test_void_games_still_end_at_once() -> None:
    over = move(game(("S", "QE"), "8G CAT"), 0, "8G CATS", WORDS)
    assert (over.end, over.pending_end, over.adjustments) == ("went_out", None, (11, -11))


def test_six_scoreless_turns_still_end_at_once_in_async_games() -> None:
    state = game(("E", "AB"), "8G CAT", options=ASYNC)
    for _ in range(6):
        assert state.turn is not None
        state = move(state, state.turn, "pass", WORDS)
    assert state.end == "scoreless" and state.pending_end is None


def test_the_pending_end_survives_the_state_s_json() -> None:
    _, pending = out_with("CATZ", "QE")
    assert state_from_json(state_to_json(pending)) == pending
    old = state_to_json(pending)
    del old["pending_end"]  # a state cached before the field existed
    assert state_from_json(old).pending_end is None


def test_the_seat_view_says_who_may_challenge_and_who_may_accept() -> None:
    first = started(("Z", "QE", "AB"), "8G CAT", options=ASYNC)
    state = start(first)
    (played,) = decide(state, 0, "8G CATZ", WORDS)
    assert isinstance(played, Played)
    pending = evolve(state, played)
    log = [first, played]
    views = [seat_view(log, pending, seat, lexicon="test") for seat in (0, 1, 2, None)]
    for view in views:
        assert view["status"] == "playing" and view["next"] == 1
        assert view["pending_end"] == {"seat": 0, "reason": "went_out"}
    assert [v["may_challenge"] for v in views] == [False, True, True, False]
    assert [v["may_accept"] for v in views] == [False, True, False, False]
    assert views[1]["rack"] == "QE" and "QE" not in [views[2]["rack"], views[0]["rack"]]
    over = move(pending, 1, "accept", WORDS)
    done = seat_view([*log, Passed(1)], over, 1, lexicon="test")
    assert done["pending_end"] is None and not done["may_challenge"] and not done["may_accept"]
