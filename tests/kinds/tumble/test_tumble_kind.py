"""Tumble-Words behind the kind interface: both seats of a sealed round may
move at once (the core's ``to_move``), one submission opens no new turn, the
round's close opens the next round for both; scores, winners and records as
the kind reads them.  Expected values worked out by hand from the rule sheet."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from games.engine import tumble as engine
from games.kinds.tumble.kind import TUMBLE

#: Cube by cube (spec order): A E C D A P T O B R X E H.  CAT is all red
#: (cubes 2, 0 and 6): 3 letters x 2 = 6, minus 10 unused cubes = -4.
ROLL = "AECDAPTOBRXEH"
WORDS = TUMBLE.word_index_of(("CAT", "ACT"))


def _started(players: tuple[str, ...] = ("ann", "bob")) -> engine.TumbleState:
    return TUMBLE.start(engine.GameStarted(engine.Options(), players, (), 0, (ROLL, ROLL)))


def _play(state: engine.TumbleState, seat: int, move: str) -> engine.TumbleState:
    for event in TUMBLE.decide(state, seat, move, WORDS):
        state = TUMBLE.evolve(state, event)
    return state


def test_both_seats_of_a_sealed_round_may_move_at_once() -> None:
    at = TUMBLE.progress(_started())
    assert at.to_move == (0, 1)
    assert at.turn == 0
    assert at.opens_turn(None)


def test_one_seat_submitting_opens_no_new_turn_and_keeps_its_crossword_sealed() -> None:
    before = _started()
    after = _play(before, 0, "submit CAT")
    at = TUMBLE.progress(after)
    assert at.to_move == (1,)
    assert not at.opens_turn(TUMBLE.progress(before))
    assert after.totals == (0, 0)
    assert after.submission_of(0) == engine.state.Submission("CAT colours: RRR", -4)


def test_a_replaced_submission_counts_and_the_round_closes_when_both_are_in() -> None:
    state = _play(_started(), 0, "submit CAT")
    state = _play(state, 0, "submit ACT")  # replaced: ACT is red too, the same -4
    before = state
    state = _play(state, 1, "submit .")  # the empty crossword: -13
    at = TUMBLE.progress(state)
    assert state.totals == (-4, -13)
    assert at.to_move == (0, 1)
    assert at.round == 2
    assert at.opens_turn(TUMBLE.progress(before))


def test_the_deadline_closes_the_round_scoring_minus_13_for_nothing_submitted() -> None:
    state = _play(_started(), 0, "submit CAT")
    events = TUMBLE.decide(state, 1, "timeout", WORDS)
    assert [TUMBLE.event_seat(e) for e in events if TUMBLE.is_timeout(e)] == [1]
    for event in events:
        state = TUMBLE.evolve(state, event)
    assert state.totals == (-4, -13)
    # the deadline's turn, then the reveal and the next roll, which no turn made
    assert TUMBLE.record_moves([_deal(), *events]) == ("timeout", "", "")


def _deal() -> engine.Event:
    return engine.GameStarted(engine.Options(), ("ann", "bob"), (), 0, (ROLL, ROLL))


def test_with_three_players_one_seat_moves_at_a_time() -> None:
    started = engine.GameStarted(engine.Options(), ("a", "b", "c"), ("A..",), 0, (ROLL,))
    assert TUMBLE.progress(TUMBLE.start(started)).to_move == (0,)


def test_the_dashboard_reads_totals_resigned_and_end_only() -> None:
    stored = {"totals": [104, 96], "resigned": [], "end": "target", "sealed": "never read"}
    parts = {k: stored[k] for k in TUMBLE.score_keys}
    assert TUMBLE.scores_from_state(parts, 2) == [104, 96]
    assert TUMBLE.winners_from_state(parts, 2) == [0]
    assert TUMBLE.out_from_state({"resigned": [1]}) == frozenset({1})


def test_a_game_log_written_as_a_record_replays_to_the_same_totals() -> None:
    log = [_deal()]
    state = TUMBLE.start(log[0])
    for seat, move in ((0, "submit CAT"), (1, "submit ACT")):
        events = TUMBLE.decide(state, seat, move, WORDS)
        log.extend(events)
        for event in events:
            state = TUMBLE.evolve(state, event)
    record = TUMBLE.write_record(log, None)
    record["lexicon"] = {"words": ["CAT", "ACT"]}
    replayed = TUMBLE.replay_json(json.dumps(record), lambda name: WORDS)
    assert replayed.exit_code == 0
    assert replayed.state is not None and replayed.state.totals == (-4, -4)


@pytest.mark.parametrize(
    ("preset", "changed", "want"),
    [
        ("standard", {}, ("standard", False)),
        ("standard", {"younger": True}, ("younger", False)),
        ("short", {"target": 60}, ("standard", True)),
    ],
)
def test_options_name_their_preset(preset: str, changed: dict[str, object], want: object) -> None:
    assert TUMBLE.preset_of(TUMBLE.with_options(preset, changed)) == want


def test_a_robot_s_crossword_is_accepted_and_scores_what_it_says() -> None:
    state = _started()
    robots = TUMBLE.robots
    assert robots is not None
    for level in robots.levels:
        move = robots.play([_deal()], state, 1, WORDS, level, random.Random(3))
        submitted = TUMBLE.decide(state, 1, move, WORDS)[0]
        assert isinstance(submitted, engine.Submitted)
        assert submitted.points == -4  # CAT or ACT, all red: the best this list allows
    assert TUMBLE.legal_moves(state, 0, WORDS)[0].startswith("submit ")
    assert TUMBLE.legal_moves(_play(state, 0, "submit CAT"), 0, WORDS) == []


def test_the_analysis_sets_each_round_against_the_strong_robot() -> None:
    log: list[engine.Event] = [_deal()]
    state = TUMBLE.start(log[0])
    for seat, move in ((0, "submit CAT"), (1, "submit .")):
        events = TUMBLE.decide(state, seat, move, WORDS)
        log.extend(events)
        for event in events:
            state = TUMBLE.evolve(state, event)
    robots = TUMBLE.robots
    assert robots is not None
    found = robots.analyse(log, WORDS, "strong", 200.0, 1)
    assert [(r.seat, r.points, r.robot_points) for r in found.rounds] == [(0, -4, -4), (1, -13, -4)]
    assert found.given_away(1) == 9
    assert robots.analysis_from_json(found.to_json()) == found


def test_a_kept_record_holds_its_first_turns_with_their_rolls_every_name_and_move_passed() -> None:
    log = [_deal()]
    state = TUMBLE.start(log[0])
    for seat, move in ((0, "submit CAT"), (1, "submit ACT")):  # the second rolls round 2
        events = TUMBLE.decide(state, seat, move, WORDS)
        log.extend(events)
        for event in events:
            state = TUMBLE.evolve(state, event)
    written = TUMBLE.write_record(log, None)
    assert "rolls" not in written["turns"][0] and len(written["turns"][1]["rolls"]) == 2
    record = TUMBLE.read_record(written)
    kept = TUMBLE.stored_record(record, 2, lambda text: f"<{text}>")
    assert kept["players"] == ["<ann>", "<bob>"]
    assert kept["turns"] == [{**turn, "move": f"<{turn['move']}>"} for turn in written["turns"]]
    assert {k: v for k, v in kept.items() if k not in ("players", "turns")} == {
        k: v for k, v in written.items() if k not in ("players", "turns")
    }
    assert TUMBLE.stored_record(record, 1, str)["turns"] == written["turns"][:1]


def test_a_match_counts_a_sole_win_a_loss_and_a_game_stopped_at_the_round_cap() -> None:
    from games.engine.tumble.robots.match import GameResult, MatchResult
    from games.kinds.tumble.robots import MatchSummary

    over = dataclasses.replace(_started(), totals=(104, 96), end="target")
    unfinished = _started()
    won = GameResult(1, ("casual", "beginner"), (), over, False, ())
    capped = GameResult(2, ("casual", "beginner"), (), unfinished, True, ())
    # level a sat at seat 0 of the won game, then at seat 1 of the same game, then capped
    summary = MatchSummary(MatchResult("casual", "beginner", (won, won, capped), (0, 1, 0)))
    assert (summary.wins, summary.draws, summary.losses, summary.capped) == (1, 1, 1, 1)
    assert summary.a == "casual" and summary.played == 3 and summary.win_rate == 0.5


def test_the_rules_in_words_count_the_seeds_cubes() -> None:
    """The seed's set is 7 red, 3 black and 3 green cubes, a blank face on two
    (issue 29, point 8: the rules said 8 red, 3 black, 2 green)."""
    from games.kinds import presentation

    rules = " ".join(presentation.of(TUMBLE).rules_in_words(engine.Options()))
    assert "13 letter cubes (7 red, 3 black, 3 green; two cubes have a blank face)" in rules
