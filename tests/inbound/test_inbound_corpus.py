"""Nothing in a reply's quoted history is ever acted on.

Real reply emails (the corpus: ``$JUMBULAYA_EMAIL_CORPUS``, else
``<repo>/../shared/data/email-corpus``) go through both ESPs' webhooks unchanged,
with a move line deep in their quoted history, and with a move on top
(:mod:`bench.corpus`; skipped, saying so, where the corpus is absent); then the
quote headers mail clients write in many languages, each with a move below it;
then the rule that ``resign`` acts only standing alone on the first line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inbound_mails import answers, inbound_row, legal_word, mover, parsed, reply_mime

from bench import corpus
from games.mail_in import inbound
from games.mail_in.reply_history import fresh_text
from games.mail_out.emails import message_for
from games.models import Event, Game, InboundMail

pytestmark = pytest.mark.django_db


def events(game: Game) -> list[str]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("type", flat=True))


# --- the corpus ----------------------------------------------------------------------


def test_the_corpus_is_found_beside_the_repository_unless_configured(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(corpus.CORPUS_ENV, raising=False)
    assert corpus.corpus_dir() == corpus.REPO / ".." / "shared" / "data" / "email-corpus"
    monkeypatch.setenv(corpus.CORPUS_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="nowhere"):
        corpus.load_corpus()  # a missing corpus fails the measurement, never skips it
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "README.md").write_text("no messages")
    with pytest.raises(FileNotFoundError, match="no messages"):
        corpus.load_corpus(tmp_path / "empty")


@pytest.fixture
def corpus_mails() -> list[corpus.CorpusMail]:
    """The corpus's messages; the test skips where the corpus is not (a clone
    without ``../shared`` beside it), and fails on an empty one."""
    where = corpus.corpus_dir()
    if not where.is_dir():
        pytest.skip(
            f"the email corpus is not at {where}: put it there or set {corpus.CORPUS_ENV} "
            "to its folder to read its replies"
        )
    return corpus.load_corpus(where)


@pytest.mark.slow
@pytest.mark.usefixtures("esp_webhooks")
def test_every_corpus_reply_is_read_right_through_both_esps(
    two_player: Game, corpus_mails: list[corpus.CorpusMail]
) -> None:
    mails = corpus_mails
    assert len(mails) >= 300, "the corpus holds a few hundred messages"
    before = events(two_player)
    figures = corpus.measure(two_player, mails)
    assert figures["quoted_lines_acted_on"] == 0, figures["acted_on"]
    for kind, counted in figures["kinds"].items():
        assert counted["of"] > 0, kind
        assert counted["rate"] >= corpus.GOAL_RATE, (kind, figures["misses"].get(kind))
    assert events(two_player) == before


# --- quote headers, each with a move below it --------------------------------------------

HEADERS = {
    "french": "Le mar. 3 juin 2025 à 14:00, Jumbulaya <play@jumbulaya.example> a écrit :",
    "portuguese": "Em ter., 3 de jun. de 2025 às 14:00, Jumbulaya <play@x.example> escreveu:",
    "polish": "wt., 3 cze 2025 o 14:00 Jumbulaya <play@jumbulaya.example> napisał(a):",
    "polish_w_dniu": "W dniu 3.06.2025 o 14:00, Jumbulaya pisze:",
    "dutch": "Op di 3 jun 2025 om 14:00 schreef Jumbulaya <play@jumbulaya.example>:",
    "italian": "Il giorno mar 3 giu 2025 alle ore 14:00 Jumbulaya <play@x.example> ha scritto:",
    "chinese": "在 2025年6月3日 14:00，Jumbulaya <play@jumbulaya.example> 写道：",
    "finnish": "ti 3.6.2025 klo 14.00 Jumbulaya (play@jumbulaya.example) kirjoitti:",
    "german": "Am Di., 3. Juni 2025 um 14:00 Uhr schrieb Jumbulaya <play@x.example>:",
    "spanish": "El mar, 3 jun 2025 a las 14:00, Jumbulaya (<play@x.example>) escribió:",
    "swedish": "Den tis 3 juni 2025 kl 14:00 skrev Jumbulaya <play@jumbulaya.example>:",
    "russian": "вт, 3 июн. 2025 г. в 14:00, Jumbulaya <play@jumbulaya.example>\nнаписал(а):",
    "english_no_colon": "On Tue, 3 Jun 2025 at 14:00, Jumbulaya <play@jumbulaya.example> wrote",
    "gmail_wrapped": (
        "On Tue, 3 Jun 2025 at 14:00, Jumbulaya the Correspondence Word Game Service\n"
        "<play+a1b2c3d4e5f6a7b8c9d0@jumbulaya.example>\nwrote:"
    ),
    "wrapped_name_then_wrote": "Jumbulaya <play+a1b2c3d4e5f6@jumbulaya.example>\nwrote:",
    "outlook_block": (
        "________________________________\nFrom: Jumbulaya <play@jumbulaya.example>\n"
        "Sent: Tuesday, June 3, 2025 2:00 PM\nTo: Ann\nSubject: Your turn"
    ),
    "outlook_block_no_rule": (
        "From: Jumbulaya <play@jumbulaya.example>\nSent: Tuesday, June 3, 2025 2:00 PM\n"
        "To: Ann\nSubject: Your turn"
    ),
    "outlook_french": "De : Jumbulaya\nEnvoyé : mardi 3 juin 2025 14:00\nÀ : Ann\nObjet : À vous",
    "outlook_german": "Von: Jumbulaya\nGesendet: Dienstag, 3. Juni 2025 14:00\nAn: Ann",
    "original_message": "-----Original Message-----",
    "forwarded": "---------- Forwarded message ---------",
    "original_chinese": "------------------ 原始邮件 ------------------",
    "apple_forward": "Begin forwarded message:",
    "forward_as_html2text_writes_it": (
        "\\-------- Пересылаемое сообщение --------\nОт кого: Jumbulaya"
    ),
}


@pytest.mark.parametrize("move", ["resign", "pass", "{word}"])
@pytest.mark.parametrize("name", sorted(HEADERS))
def test_nothing_below_a_quote_header_is_acted_on(two_player: Game, name: str, move: str) -> None:
    """Chat on top, then the header, then the move as a line of the history
    (pasted without ">", the hardest case)."""
    game = two_player
    ann = mover(game)
    line = move.format(word=legal_word(game))
    body = f"Thanks, nice game so far!\n\n{HEADERS[name]}\n{line}\nYour turn in game {game.pk}."
    outcome = inbound.receive(parsed(reply_mime(game, ann, body)), via="test")
    assert outcome.status == "refused"
    assert events(game) == ["game_started"]
    assert line not in inbound_row(outcome).read


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_a_move_above_a_quote_header_is_made(two_player: Game, name: str) -> None:
    game = two_player
    ann = mover(game)
    word = legal_word(game)
    body = f"{word}\n\n{HEADERS[name]}\npass\n"
    outcome = inbound.receive(parsed(reply_mime(game, ann, body)), via="test")
    assert outcome.status == "moved", outcome.reason
    assert inbound_row(outcome).move == word


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_the_fresh_text_ends_where_the_header_begins(name: str) -> None:
    header = HEADERS[name]
    assert fresh_text(f"3 FACTS\nSee you.\n\n{header}\npass\n") == "3 FACTS\nSee you.\n"


@pytest.mark.parametrize(
    "text",
    [
        "pass\nI wrote this before breakfast, sorry for the wait",
        "3 FACTS\nFrom: the bottom of my heart, thanks",
        "exchange Q X\n-- \nAnn",
        "resign\n--\nAnn Example\nSent from my phone",
    ],
)
def test_chat_that_only_looks_like_history_keeps_the_move_above_it(text: str) -> None:
    assert fresh_text(text).splitlines()[0] == text.splitlines()[0]


def test_a_quoted_line_stops_the_fresh_text_even_mid_reply() -> None:
    assert fresh_text("Nice one.\n> Your turn\npass\n") == "Nice one."


# --- resigning by email -------------------------------------------------------------------


def test_resign_alone_on_the_first_line_resigns(two_player: Game) -> None:
    game = two_player
    ann = mover(game)
    outcome = inbound.receive(parsed(reply_mime(game, ann, "\n\n  Resign.  #1\n")), via="test")
    assert outcome.status == "moved"
    assert events(game)[-1] == "resigned"


@pytest.mark.parametrize(
    ("body", "subject"),
    [
        ("I resign", None),
        ("Hi Bob,\nresign", None),
        ("Good game!\n\nresign\n", None),
        ("", "resign"),
    ],
)
def test_anything_less_asks_to_confirm_and_changes_nothing(
    two_player: Game, body: str, subject: str | None
) -> None:
    game = two_player
    ann = mover(game)
    outcome = inbound.receive(parsed(reply_mime(game, ann, body, subject=subject)), via="test")
    assert outcome.status == "refused"
    assert outcome.reason == inbound.UNCONFIRMED_RESIGN
    assert events(game) == ["game_started"]
    row = InboundMail.objects.get(pk=outcome.inbound_id)
    assert row.move == "resign"
    answer = message_for(answers(ann)[-1])
    assert answer is not None
    assert "“resign” stands alone" in answer.body
    # the signed turn link: its page asks once more before resigning
    assert "/t/" in answer.body
