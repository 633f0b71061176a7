"""Reading a move out of an email reply: forgiving of decoration, strict about prose."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.jumbulaya import Refusal, parse_move
from games.engine.jumbulaya.notation import Timeout
from games.kinds.jumbulaya.replies import (
    ACCEPTED_FORMS,
    MAX_LINE_CHARS,
    MAX_LINES,
    SHOWN_CHARS,
    Reading,
    read_reply,
)

FUZZ = settings(max_examples=2000, derandomize=True, deadline=None)


def assert_read(text: str, move: str, subject: str = "") -> Reading:
    reading = read_reply(text, subject)
    assert reading.move == move, (text, reading)
    assert reading.problem is None
    return reading


def assert_not_read(text: str, subject: str = "") -> Reading:
    reading = read_reply(text, subject)
    assert reading.move is None, (text, subject, reading)
    assert reading.problem
    assert reading.answering is None
    assert reading.ignored == ()
    assert not reading.from_subject
    return reading


# --- the forms --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "3 FACTS",
        "3 facts",
        "3: facts",
        "3 - facts",
        "3 – facts",
        "3. facts",
        "3) facts",
        "line 3: facts",
        "line 3 facts",
        "Line 3 - FACTS",
        "LINE 3: Facts",
        "line3 facts",
        "L3 facts",
        "l 3 facts",
        "row 3 facts",
        "play 3 facts",
        "Play: 3 facts",
        "play line 3 facts",
        "play facts on line 3",
        "facts on line 3",
        "FACTS in row 3",
        "I play 3 facts",
        "I'll play 3 facts",
        "I\u2019ll play 3 facts",  # a curly apostrophe
        "My move: 3 facts",
        "my move is 3 facts",
        "Move: 3 facts",
        "*3 FACTS*",
        "**3 facts**",
        "_3 facts_",
        "- 3 facts",
        "• 3 facts",
        "* 3 facts",
        "`3 facts`",
        "3 facts.",
        "3 facts!",
        '"3 facts"',
        "“3 FACTS”",
        "(3 facts)",
        "3 facts please",
        "3 facts, thanks",
        "Please play 3 facts. Thank you!",
        "OK, 3 facts",
        "3 facts 👍",
        "  \t3   facts  \t",
        "3\u00a0facts",  # a no-break space
        "3 fa\u200bcts",  # a zero-width space inside the word
        "\uff13 \uff46\uff41\uff43\uff54\uff53",  # full-width
    ],
)
def test_word_moves_are_read_whatever_the_decoration(text: str) -> None:
    assert_read(text, "3 FACTS")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3 e[qu]al[ly]", "3 E[QU]AL[LY]"),
        ("3 e-qu-a-l-ly", "3 E-QU-A-L-LY"),
        ("**3 E[QU]AL[LY]**", "3 E[QU]AL[LY]"),
        ("line 3: b-a-t-c-h.", "3 B-A-T-C-H"),
        ("3 [th]e", "3 [TH]E"),
        ("9 quay", "9 QUAY"),
        ("03 facts", "03 FACTS"),
    ],
)
def test_explicit_spellings_pass_through_upper_cased(text: str, move: str) -> None:
    assert_read(text, move)
    parse_move(move)  # the engine reads the spelling


@pytest.mark.parametrize(
    "text", ["pass", "Pass.", "PASS!", "I pass", "I'll pass", "pass please", "pass, thanks"]
)
def test_pass(text: str) -> None:
    assert_read(text, "pass")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("exchange q x", "exchange Q X"),
        ("Exchange Q, X", "exchange Q X"),
        ("exchange Q,X", "exchange Q X"),
        ("swap q x", "exchange Q X"),
        ("exchange qu x", "exchange QU X"),
        ("exchange [qu] x", "exchange [QU] X"),
        ("exchange th and e", "exchange TH E"),
        ("I exchange a e i", "exchange A E I"),
        ("exchange all", "exchange all"),
        ("exchange: all", "exchange all"),
        ("Swap all tiles", "exchange all"),
        ("EXCHANGE ALL.", "exchange all"),
    ],
)
def test_exchange(text: str, move: str) -> None:
    assert_read(text, move)
    parse_move(move)


@pytest.mark.parametrize(
    "text",
    [
        "jumbulaya sprints",
        "JUMBULAYA: sprints",
        "call jumbulaya sprints",
        "Jumbulaya! sprints",
        "I call jumbulaya sprints",
        "**jumbulaya SPRINTS**",
    ],
)
def test_jumbulaya(text: str) -> None:
    assert_read(text, "jumbulaya SPRINTS")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("jumbulaya [th]ousands", "jumbulaya [TH]OUSANDS"),  # 8 tiles
        ("jumbulaya s-t-r-e-n-g-t-h", "jumbulaya S-T-R-E-N-G-T-H"),
        ("jumbulaya strengths", "jumbulaya STRENGTHS"),  # 9 letters, 7 to 9 tiles
        ("jumbulaya thththththththththth", None),  # 18 letters, yet 10 or more tiles
        ("jumbulaya spr1nts", None),
    ],
)
def test_a_call_word_may_be_spelled_out(text: str, move: str | None) -> None:
    assert read_reply(text).move == move


@pytest.mark.parametrize(
    "text",
    [
        "Jumbulaya time!",
        "call jumbulaya now",
        "jumbulaya sprint",  # 6 letters: 6 tiles at most
        "jumbulaya equally",  # 7 letters, but QU is one tile: 6 at most
        "jumbulaya [qu][ch][st][th]",  # 8 letters, 4 tiles
        "jumbulaya " + "a" * 19,
    ],
)
def test_a_call_that_is_sure_to_fail_is_not_made(text: str) -> None:
    """A failed call is not refused: it costs the caller a turn."""
    problem = assert_not_read(text).problem or ""
    assert problem.startswith("'jumbulaya ")
    assert "a JUMBULAYA word has 7 to 9 tiles" in problem


@pytest.mark.parametrize("text", ["resign", "Resign", "I resign", "I resign.", "*RESIGN*"])
def test_resign(text: str) -> None:
    assert_read(text, "resign")


@pytest.mark.parametrize(
    "text",
    [
        "please resign",  # said to an opponent
        "resign please",
        "I will resign",  # a plan, not the act
        "Don't resign",
        "I resign from the club",
        "Resign?",
    ],
)
def test_resigning_is_read_only_when_plainly_stated(text: str) -> None:
    assert_not_read(text)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("exchange", "exchange"),
        ("swap", "exchange"),
        ("Jumbulaya!", "jumbulaya"),
        ("12 FACTS", "12 FACTS"),
        ("0 facts", "0 FACTS"),
        ("exchange [sh]", "exchange [SH]"),
        ("3 facts]", "3 FACTS]"),
        ("3 e[qu", "3 E[QU"),
    ],
)
def test_a_clear_but_incomplete_move_is_left_to_the_engine(text: str, move: str) -> None:
    """The engine's refusal says precisely what is wrong."""
    assert_read(text, move)
    with pytest.raises(Refusal):
        parse_move(move)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3 façts", "3 FAÇTS"),
        ("3 straße", "3 STRAßE"),  # not STRASSE, a word the engine would read
        ("3 fac\u0131s", "3 FAC\u0131S"),  # a dotless i stays one, not an I
        ("jumbulaya spríñts", "jumbulaya SPRÍÑTS"),
        ("exchange é", "exchange É"),
    ],
)
def test_non_ascii_letters_pass_through_for_the_engine_to_refuse(text: str, move: str) -> None:
    assert_read(text, move)
    with pytest.raises(Refusal) as refused:
        parse_move(move)
    assert refused.value.code == "bad_move"
    assert "characters other than" in refused.value.message


# --- not moves --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\n\t\n",
        "I will pass on that",
        "Can we play later?",
        "3 facts?",
        "Pass?",
        "Thanks, see you",
        "3 cheers for Bob!",
        "Game 12 is great",
        "pass the salt",
        "I'll pass for now, thanks for asking",
        "timeout",
        "Timeout.",
        "> 3 facts",
        ">pass",
        "> > exchange all",
        "Hi Bob,",
        "Line 3",
        "play",
        "OK",
        "Thank you!",
        "Dinner on 3",  # "on" needs a line word: "facts on line 3"
        "2024 rocks",  # a line number has one or two digits
        "swap it",  # IT is English, not a tile
        "exchange rates are up",
        "call me",
        "see you at 3 pm tomorrow",
        "3 f4cts",
        "move #17",
        "#17",
        "--",
        "Sent from my phone",
    ],
)
def test_prose_is_not_a_move(text: str) -> None:
    problem = assert_not_read(text).problem or ""
    for form in ACCEPTED_FORMS[:-1]:
        assert f"“{form}”" in problem
    assert ACCEPTED_FORMS[-1] in problem


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "the reply has no text"),
        ("> 3 facts\n> pass", "every line of the reply is quoted"),
        ("timeout", "'timeout' is not a move you can send"),
        ("Hello\ntimeout", "'timeout' is not a move you can send"),
        ("jumbulaya wins", "'jumbulaya WINS' was not made"),
        ("hello there", "No move was found in the reply."),
    ],
)
def test_the_problem_says_why(text: str, why: str) -> None:
    assert why in (assert_not_read(text).problem or "")


def test_with_no_move_the_first_lines_are_quoted_back() -> None:
    text = "Hello Bob,\n\n\nI am not sure.\n" + "x" * 300 + "\nfourth line\n"
    reading = assert_not_read(text)
    assert reading.read == "Hello Bob,\nI am not sure.\n" + "x" * SHOWN_CHARS


def test_an_empty_reply_reads_as_nothing() -> None:
    assert assert_not_read("").read == ""


# --- which line -------------------------------------------------------------------


def test_greetings_and_chatter_around_the_move_are_not_read() -> None:
    reading = assert_read("Hi Bob,\n\n3 facts\n\nCheers", "3 FACTS")
    assert reading.read == "3 facts"
    assert reading.ignored == ()


def test_the_line_is_quoted_as_the_player_wrote_it() -> None:
    reading = assert_read("Hello!\n   **Line 3 - Facts**  \n", "3 FACTS")
    assert reading.read == "**Line 3 - Facts**"


def test_one_move_per_reply_the_others_are_ignored() -> None:
    reading = assert_read("pass\nthanks\n  3 facts \n> resign\nexchange all\n", "pass")
    assert reading.ignored == ("3 facts", "exchange all")  # the quoted line is no move


def test_inline_answers_below_a_quote_are_read() -> None:
    reading = assert_read("> Your turn in game 12\n> 3 facts?\n\nexchange all\n", "exchange all")
    assert reading.read == "exchange all"


def test_only_the_first_non_empty_lines_are_looked_at() -> None:
    chatter = "\n\n".join(f"chatter {i}" for i in range(MAX_LINES - 1))
    assert_read(chatter + "\n\n\n3 facts", "3 FACTS")
    assert_not_read(chatter + "\nmore chatter\n3 facts")


def test_a_long_line_is_cut() -> None:
    assert_read("3 facts " + "!" * 10 * MAX_LINE_CHARS, "3 FACTS")
    assert_not_read("y" * MAX_LINE_CHARS + " pass")
    assert_not_read("x " * MAX_LINE_CHARS)


@pytest.mark.parametrize("separator", ["\r\n", "\r", "\u2028", "\x0c"])
def test_any_line_break_separates_lines(separator: str) -> None:
    reading = assert_read(separator.join(["Hi", "3 facts", "Bye"]), "3 FACTS")
    assert reading.read == "3 facts"


# --- #N -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move", "answering"),
    [
        ("3 facts #17", "3 FACTS", 17),
        ("#17 3 facts", "3 FACTS", 17),
        ("#17: pass", "pass", 17),
        ("3 FACTS #17.", "3 FACTS", 17),
        ("“3 FACTS #17”", "3 FACTS", 17),
        ("3 facts (#17)", "3 FACTS", 17),
        ("#17 #18 pass", "pass", 17),
        ("#17\npass", "pass", 17),
        ("#17\n\nHi\n3 facts", "3 FACTS", 17),
        ("pass\n#17", "pass", 17),
        ("Move #17\nexchange all", "exchange all", 17),
        ("**#17**\n3 facts", "3 FACTS", 17),
        ("#16\n3 facts #17", "3 FACTS", 17),  # the move's own line wins
        ("#16\n#17\npass", "pass", 16),
        ("pass", "pass", None),
        ("About move #15, nice one.\npass", "pass", None),  # not alone on its line
    ],
)
def test_hash_n_names_the_move_answered(text: str, move: str, answering: int | None) -> None:
    assert assert_read(text, move).answering == answering


@pytest.mark.parametrize("text", ["#17a pass", "pass #1234567890", "pass#17", "pass &#17"])
def test_what_is_not_a_move_number_is_not_taken_out(text: str) -> None:
    assert_not_read(text)


# --- the subject line ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("subject", "move"),
    [
        ("Re: 3 facts", "3 FACTS"),
        ("3 facts", "3 FACTS"),
        ("pass - Re: Your turn in game 12 against Bob", "pass"),
        ("Re: pass – Re: Your turn in game 12 against Bob", "pass"),
        ("RE: RE: exchange q x", "exchange Q X"),
        ("Re[2]: pass", "pass"),
        ("Re(3): pass", "pass"),
        ("Aw: resign", "resign"),
        ("Fwd: Fw: pass", "pass"),
        ("SV: pass", "pass"),
        ("Antw: pass", "pass"),
        ("Réf : pass", "pass"),
        ("WG: pass", "pass"),
        ("回复\uff1apass", "pass"),  # with a full-width colon
        ("[Jumbulaya] Re: 3 facts", "3 FACTS"),
        ("Re: [game 12] exchange all | Your turn", "exchange all"),
        ("Re: JUMBULAYA: sprints - Re: Your turn in game 12", "jumbulaya SPRINTS"),
        ("Re: line 3: facts (Your turn in game 12 against Bob)", "3 FACTS"),
        ("Re: 3 e[qu]al[ly]: Your turn", "3 E[QU]AL[LY]"),
        ("  Re:   3 facts  ", "3 FACTS"),
    ],
)
def test_the_subject_is_read_when_the_body_holds_no_move(subject: str, move: str) -> None:
    for body in ("", "Hi Bob,\nsee you", "> 3 quoted"):
        reading = assert_read(body, move, subject)
        assert reading.from_subject
        assert reading.read == subject.strip()


def test_a_subject_move_takes_its_number_from_the_subject_or_the_body() -> None:
    assert assert_read("", "pass", "Re: pass #17").answering == 17
    assert assert_read("#18", "pass", "Re: pass").answering == 18


def test_the_body_wins_over_the_subject() -> None:
    reading = assert_read("Hi\n3 facts", "3 FACTS", "Re: pass")
    assert not reading.from_subject
    assert reading.read == "3 facts"
    assert reading.ignored == ()


@pytest.mark.parametrize(
    "subject",
    [
        "Re: Your turn in game 12 against Bob",
        "RE: Your turn in game 12 against Pass",
        "Re: Game 12: 5 hours left for your move",
        "Re: Game 12: your reply was not played",
        "Re: Game 12: a JUMBULAYA can be called until 5 May",
        "Re: Game 12 has started: you against Bob",
        "Re: Game 12: pass",  # the move must come first
        "Re: timeout",
        "Re: > pass",
        "Re: pass?",
        "Re:",
        "Re: Re: Re:",
        "",
    ],
)
def test_our_own_subjects_and_prose_are_not_moves(subject: str) -> None:
    assert_not_read("", subject)
    assert_not_read("Thanks!", subject)


# --- bounded and total ----------------------------------------------------------------


def _check(reading: Reading) -> None:
    """The invariants of every reading."""
    assert (reading.problem is None) == (reading.move is not None)
    if reading.move is None:
        assert reading.answering is None
        assert reading.ignored == ()
        assert not reading.from_subject
        assert len(reading.read) <= 3 * SHOWN_CHARS + 2
    else:
        try:
            command = parse_move(reading.move)
        except Refusal:
            pass
        else:
            assert not isinstance(command, Timeout)
        assert len(reading.read) <= MAX_LINE_CHARS
    assert len(reading.ignored) < MAX_LINES


@FUZZ
@given(st.text(), st.text())
def test_any_text_reads_without_error(text: str, subject: str) -> None:
    _check(read_reply(text, subject))


FRAGMENTS = st.sampled_from(
    [
        "3", "12", "line", "L3", "play", "pass", "resign", "exchange", "swap", "all",
        "jumbulaya", "call", "timeout", "I", "I'll", "please", "thanks", "facts", "q", "qu",
        "x", "E[QU]AL[LY]", "E-QU-A", "[", "]", "-", "#17", "#", "*", "**", "•", ">", ":",
        ".", "!", "?", ",", "Re:", "Re[2]:", "[tag]", "(", "|", " - ", "on", "façts", "ß",
        "\u200b", "\x00", "\n", "\r", " ", "\t", "\uff13", "\uff46",
    ]
)  # fmt: skip
MOVE_LIKE = st.lists(FRAGMENTS | st.text(max_size=3), max_size=30).map(" ".join)


@FUZZ
@given(MOVE_LIKE, MOVE_LIKE)
def test_move_like_text_reads_without_error(text: str, subject: str) -> None:
    _check(read_reply(text, subject))


@pytest.mark.parametrize(
    "text",
    [
        "[" * 2_000_000,
        "#1" * 1_000_000,
        "3 " + "-" * 1_000_000,
        "\n" * 1_000_000 + "3 facts",
        ("Re: " * 100_000) + "pass",
        ("x " * 300 + "\n") * 10_000,
        "3 facts\n" * 100_000,
        "\ud800 3 facts",  # a lone surrogate
    ],
)
def test_huge_and_odd_input_is_bounded(text: str) -> None:
    reading = read_reply(text, text)
    _check(reading)
    if text.startswith("3 facts\n"):
        assert reading.move == "3 FACTS"
        assert len(reading.ignored) == MAX_LINES - 1


def test_the_accepted_forms_are_read_as_shown() -> None:
    moves = {form: read_reply(form).move for form in ACCEPTED_FORMS[:-1]}
    assert moves == {
        "3 FACTS": "3 FACTS",
        "line 3: facts": "3 FACTS",
        "play 3 facts": "3 FACTS",
        "pass": "pass",
        "exchange Q X": "exchange Q X",
        "exchange all": "exchange all",
        "jumbulaya SPRINTS": "jumbulaya SPRINTS",
        "resign": "resign",
    }
    assert "#17" in ACCEPTED_FORMS[-1]
