"""Replies as real mail clients write them, byte for byte.

Each test answers the game email the player was really sent (its text, its HTML,
its Message-ID and Reply-To) the way one client does: its header order, its
multipart boundaries, its charset and Content-Transfer-Encoding, its
attribution line and its way of quoting.  Each is a real move by the player
whose turn it is, and must be made exactly; where the body holds no move it
must be refused with an answer.  Never a wrong move.
"""

from __future__ import annotations

import base64
import html
import re
import textwrap
from dataclasses import dataclass

import pytest
from django.core.mail import EmailMultiAlternatives
from inbound_mails import (
    answers,
    encoded,
    entity,
    inbound_row,
    legal_word,
    mover,
    multipart,
    raw_parsed,
    sent_email,
)

from accounts.models import User
from games.core import projection
from games.kinds.jumbulaya.replies import read_reply
from games.mail_in import inbound
from games.mail_out.emails import REPLY_MARKER, message_for
from games.models import Event, Game, InboundMail, Notification

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
#: When the player answers (the game email is quoted as sent at 14:00).
DATE = "Tue, 3 Jun 2025 14:05:12 +0200"
OUR_NAME = "Jumbulaya"
OUR_ADDRESS = "jumbulaya@localhost"


@dataclass(frozen=True)
class Thread:
    """The game email a player answers: what a client quotes and threads on."""

    game: Game
    player: User
    sent: EmailMultiAlternatives

    @property
    def reply_to(self) -> str:
        return str(self.sent.extra_headers["Reply-To"])

    @property
    def message_id(self) -> str:
        return str(self.sent.extra_headers["Message-ID"])

    @property
    def references(self) -> str:
        return f"{self.sent.extra_headers['References']} {self.message_id}"

    @property
    def subject(self) -> str:
        return str(self.sent.subject)

    @property
    def text(self) -> str:
        return str(self.sent.body).rstrip("\n")

    @property
    def html(self) -> str:
        """The inside of the HTML email's ``<body>``, as clients embed it."""
        (content, mimetype) = self.sent.alternatives[0]
        assert mimetype == "text/html"
        found = re.search(r"<body[^>]*>(.*)</body>", str(content), re.DOTALL)
        assert found is not None
        return found.group(1)

    @property
    def player_from(self) -> str:
        """``Bob <bob@example.com>``: the player's From, and how a quoted header
        block shows them."""
        return f"{self.player.public_name} <{self.player.email}>"


@pytest.fixture
def thread(two_player: Game) -> Thread:
    """The game email of the player whose turn it is."""
    player = mover(two_player)
    return Thread(two_player, player, sent_email(two_player, player))


def quoted(text: str, *, empty: str = ">") -> str:
    """``text`` quoted with ``> ``; ``empty`` is what a client writes for a blank line."""
    return "\n".join(f"> {line}" if line else empty for line in text.split("\n"))


def flowed(text: str, width: int = 76) -> str:
    """``text`` as format=flowed (RFC 3676) writes it: long lines broken after a
    space, which stays at the end of the line, quote markers repeated."""
    out = []
    for line in text.split("\n"):
        prefix = re.match(r"(?:> ?)*", line)
        assert prefix is not None
        mark, rest = prefix.group(0), line[prefix.end() :]
        if len(line) <= width:
            out.append(line)
            continue
        pieces = textwrap.wrap(rest, width - len(mark), break_long_words=False)
        out += [mark + piece + " " for piece in pieces[:-1]] + [mark + pieces[-1]]
    return "\n".join(out)


def receive(raw: bytes) -> inbound.Outcome:
    return inbound.receive(raw_parsed(raw), via="test")


def last_event(game: Game) -> Event:
    event = Event.objects.filter(game=game).order_by("seq").last()
    assert event is not None
    return event


def assert_moved(thread: Thread, outcome: inbound.Outcome, move: str) -> InboundMail:
    """``move`` was made for the player, by email, once, and "done" is owed."""
    assert outcome.status == "moved", outcome.reason
    row = inbound_row(outcome)
    assert (row.status, row.move, row.user, row.game) == (
        "moved",
        move,
        thread.player,
        thread.game,
    )
    event = last_event(thread.game)
    assert (event.seq, event.source) == (row.event_seq, "email")
    assert event.type == ("passed" if move == "pass" else "word_built")
    assert Event.objects.filter(game=thread.game).count() == 2
    thread.game.refresh_from_db()
    assert projection.replay_game(thread.game) == projection.current_state(thread.game)
    assert [n.kind for n in answers(thread.player)] == [Kind.REPLY_DONE]
    return row


def assert_refused(thread: Thread, outcome: inbound.Outcome) -> str:
    """Nothing was made and a refusal is owed; returns the refusal email's text."""
    assert outcome.status == "refused", outcome.reason
    assert list(Event.objects.filter(game=thread.game).values_list("type", flat=True)) == [
        "game_started"
    ]
    (answer,) = answers(thread.player)
    assert answer.kind == Kind.REPLY_REFUSED
    note = Notification.objects.select_related("game", "user").get(pk=answer.pk)
    message = message_for(note)
    assert message is not None
    return str(message.body)


# --- Gmail -------------------------------------------------------------------------


GMAIL_ID = "<CAHx3kQ1fR2x9yZ+kPqWm4TbV0b7nE5J8c_hKm9QeXw3xA@mail.gmail.com>"


def gmail_attribution(thread: Thread) -> str:
    """Gmail's "On … wrote:" in English (UK), naming the address answered."""
    return f"On Tue, 3 Jun 2025 at 14:00, {OUR_NAME} by mail <{thread.reply_to}> wrote:"


def gmail_wrapped(thread: Thread, attribution: str) -> str:
    """The attribution as Gmail's plain part has it: a line too long for 78
    characters is broken after the ``<`` of the address."""
    return attribution.replace(f"<{thread.reply_to}>", f"<\n{thread.reply_to}>")


def gmail_headers(thread: Thread, content_type: str) -> list[tuple[str, str]]:
    return [
        ("MIME-Version", "1.0"),
        ("References", thread.references),
        ("In-Reply-To", thread.message_id),
        ("From", thread.player_from),
        ("Date", DATE),
        ("Message-ID", GMAIL_ID),
        ("Subject", f"Re: {thread.subject}"),
        ("To", thread.reply_to),
        ("Content-Type", content_type),
    ]


def gmail_alternative(
    thread: Thread, typed: str, attribution: str, boundary: str, *, below: str = ""
) -> bytes:
    """Gmail's multipart/alternative: quoted-printable UTF-8 parts, the HTML in
    ``gmail_quote`` divs and blockquote; ``below`` is typed under the quote."""
    text = f"{gmail_wrapped(thread, attribution)}\n\n{quoted(thread.text)}\n"
    text = (f"{typed}\n\n" if typed else "") + text + (f"\n{below}\n" if below else "")
    typed_html = "".join(
        f"<div>{html.escape(line)}</div>" if line else "<div><br></div>"
        for line in typed.split("\n")
    )
    attribution_html = html.escape(attribution).replace(
        html.escape(thread.reply_to),
        f'<a href="mailto:{thread.reply_to}">{thread.reply_to}</a>',
    )
    body_html = (
        f'<div dir="ltr">{typed_html}</div><br><div class="gmail_quote gmail_quote_container">'
        f'<div dir="ltr" class="gmail_attr">{attribution_html}<br></div>'
        '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px '
        f'solid rgb(204,204,204);padding-left:1ex">{thread.html}</blockquote></div>'
        + (f'<div dir="ltr"><br></div><div dir="ltr">{html.escape(below)}</div>' if below else "")
        + "\n"
    )
    return multipart(
        boundary,
        [
            entity(
                [
                    ("Content-Type", 'text/plain; charset="UTF-8"'),
                    ("Content-Transfer-Encoding", "quoted-printable"),
                ],
                encoded(text, "utf-8", "quoted-printable"),
            ),
            entity(
                [
                    ("Content-Type", 'text/html; charset="UTF-8"'),
                    ("Content-Transfer-Encoding", "quoted-printable"),
                ],
                encoded(body_html, "utf-8", "quoted-printable"),
            ),
        ],
    )


def gmail_reply(thread: Thread, typed: str, *, attribution: str | None = None) -> bytes:
    """Gmail (web and Android), top-posted."""
    boundary = "000000000000f3a1b2063ad8e4c1"
    return entity(
        gmail_headers(thread, f'multipart/alternative; boundary="{boundary}"'),
        gmail_alternative(thread, typed, attribution or gmail_attribution(thread), boundary),
    )


def test_gmail_a_word(thread: Thread) -> None:
    word = legal_word(thread.game)
    raw = gmail_reply(thread, f"Hi!\n\n{word.lower()}\n\nCheers, {thread.player.public_name}")
    assert b"=E2=80=9C3 FACTS #1=E2=80=9D" in raw  # the hint quoted, in quoted-printable
    assert_moved(thread, receive(raw), word)


def test_gmail_pass_and_its_html_part_reads_the_same(thread: Thread) -> None:
    """Gmail always sends the plain part, which is read; its HTML, read as text the
    way an HTML-only reply is, gives the same move and nothing from the quote."""
    raw = gmail_reply(thread, "pass")
    message = raw_parsed(raw)
    assert message.html is not None and 'class="gmail_quote"' in message.html
    del message["Message-ID"]  # read the HTML alone, as a reply of its own
    html_only = raw_parsed(
        entity(
            [("Content-Type", "text/html; charset=utf-8")],
            message.html.encode("utf-8"),
        )
    )
    from_html = inbound.reply_part(inbound.body_text(html_only))
    assert REPLY_MARKER not in from_html and "Hello" not in from_html
    assert read_reply(from_html).move == "pass"
    assert_moved(thread, receive(raw), "pass")


# --- Outlook -----------------------------------------------------------------------


OUTLOOK_ID = (
    "<DB9PR07MB77719C3E5A1B2C3D4E5F6A7B8C9D0E1F2A3B@DB9PR07MB7771.eurprd07.prod.outlook.com>"
)
OUTLOOK_BOUNDARY = "_000_DB9PR07MB77719C3E5A1B2C3D4E5F6A7B8C9D0E1F2A3BDB9PR07MB7771eurp_"


def outlook_headers(
    thread: Thread, content_type: str, *, language: str = "en-GB", encoding: str | None = None
) -> list[tuple[str, str]]:
    """Exchange Online's header block: Thread-Topic/Thread-Index, Content-Language,
    the Reply-To address as its own display name."""
    return [
        ("From", thread.player_from),
        ("To", f'"{thread.reply_to}"\n\t<{thread.reply_to}>'),
        ("Subject", f"{'AW' if language.startswith('de') else 'RE'}: {thread.subject}"),
        ("Thread-Topic", thread.subject),
        ("Thread-Index", "AQHb1Lr9kz3vR8x0h0C7n3mJx2Qk1bO2nU4w"),
        ("Date", "Tue, 3 Jun 2025 12:05:12 +0000"),
        ("Message-ID", OUTLOOK_ID),
        ("References", thread.message_id),
        ("In-Reply-To", thread.message_id),
        ("Accept-Language", f"{language}, en-US"),
        ("Content-Language", language),
        ("X-MS-Has-Attach", ""),
        ("X-MS-TNEF-Correlator", ""),
        ("Content-Type", content_type),
        *([("Content-Transfer-Encoding", encoding)] if encoding else []),
        ("MIME-Version", "1.0"),
    ]


def outlook_html(thread: Thread, typed: str, *, labels: tuple[str, ...] = ()) -> str:
    """Outlook's HTML reply: the typed text in ``elementToProof`` divs, an ``<hr>``,
    the ``divRplyFwdMsg`` header block, the original email's body."""
    sent, to, subject, when = labels or ("From", "Sent", "To", "Subject")
    typed_html = "".join(
        '<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, '
        "Aptos_MSFontService, Calibri, Helvetica, sans-serif; font-size: 12pt; color: "
        f'rgb(0, 0, 0);">{html.escape(line) if line else "<br>"}</div>\n'
        for line in typed.split("\n")
    )
    return (
        '<html>\n<head>\n<meta http-equiv="Content-Type" content="text/html; '
        'charset=Windows-1252">\n<style type="text/css" style="display:none;"> P '
        "{margin-top:0;margin-bottom:0;} </style>\n</head>\n"
        f'<body dir="ltr">\n{typed_html}<div id="appendonsend"></div>\n'
        '<hr style="display:inline-block;width:98%" tabindex="-1">\n'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" '
        f'style="font-size:11pt" color="#000000"><b>{sent}:</b> {OUR_NAME} '
        f"&lt;{OUR_ADDRESS}&gt;<br>\n<b>{when}:</b> Tuesday, June 3, 2025 2:00 PM<br>\n"
        f"<b>{to}:</b> {html.escape(thread.player_from)}<br>\n"
        f"<b>{subject}:</b> {html.escape(thread.subject)}</font>\n"
        f"<div>&nbsp;</div>\n</div>\n<div>{thread.html}</div>\n</body>\n</html>\n"
    )


def test_outlook_365_a_word_windows_1252(thread: Thread) -> None:
    """Outlook writes its plain part from the HTML: the underscore rule and the
    From/Sent/To/Subject block, the original unquoted, curly quotes in
    windows-1252."""
    word = legal_word(thread.game)
    typed = f"Salut Renée,\n\n{word.lower()}\n\nÀ bientôt – Zoë"
    text = (
        f"{typed}\n\n________________________________\n"
        f"From: {OUR_NAME} <{OUR_ADDRESS}>\nSent: Tuesday, June 3, 2025 2:00 PM\n"
        f"To: {thread.player_from}\nSubject: {thread.subject}\n\n{thread.text}\n"
    )
    raw = entity(
        outlook_headers(thread, f'multipart/alternative;\n\tboundary="{OUTLOOK_BOUNDARY}"'),
        multipart(
            OUTLOOK_BOUNDARY,
            [
                entity(
                    [
                        ("Content-Type", 'text/plain; charset="windows-1252"'),
                        ("Content-Transfer-Encoding", "quoted-printable"),
                    ],
                    encoded(text, "windows-1252", "quoted-printable"),
                ),
                entity(
                    [
                        ("Content-Type", 'text/html; charset="windows-1252"'),
                        ("Content-Transfer-Encoding", "quoted-printable"),
                    ],
                    encoded(outlook_html(thread, typed), "windows-1252", "quoted-printable"),
                ),
            ],
        ),
    )
    assert b"Ren=E9e" in raw and b"=93" in raw and b"=96" in raw  # windows-1252 bytes
    row = assert_moved(thread, receive(raw), word)
    assert row.read == word.lower()


def test_outlook_classic_original_message_plain_text(thread: Thread) -> None:
    """Outlook desktop in plain-text mode: ``-----Original Message-----`` and the
    header block, no ``>`` quoting, a signature under the move."""
    typed = "Hi,\n\npass\n\nRegards,\nBob Example\nSenior Widget Inspector"
    text = (
        f"{typed}\n\n-----Original Message-----\nFrom: {OUR_NAME} <{OUR_ADDRESS}> \n"
        f"Sent: Tuesday, June 3, 2025 2:00 PM\nTo: {thread.player.email}\n"
        f"Subject: {thread.subject}\n\n{thread.text}\n"
    )
    raw = entity(
        outlook_headers(thread, 'text/plain; charset="us-ascii"', encoding="quoted-printable"),
        encoded(
            text.replace("“", '"').replace("”", '"').replace("—", "-"),
            "us-ascii",
            "quoted-printable",
        ),
    )
    assert_moved(thread, receive(raw), "pass")


def test_outlook_html_only(thread: Thread) -> None:
    """An Outlook reply with no plain part: the HTML is read as text, the quoted
    email under the ``divRplyFwdMsg`` block cut at the marker."""
    word = legal_word(thread.game)
    raw = entity(
        outlook_headers(thread, 'text/html; charset="windows-1252"', encoding="quoted-printable"),
        encoded(
            outlook_html(thread, f"Salut Renée,\n\n{word}\n\nZoë"),
            "windows-1252",
            "quoted-printable",
        ),
    )
    message = raw_parsed(raw)
    assert message.text is None and message.html is not None
    assert_moved(thread, receive(raw), word)


def test_outlook_german_von_gesendet_block(thread: Thread) -> None:
    """German Outlook: ``AW:``, ``Von:/Gesendet:/An:/Betreff:``."""
    typed = "Hallo,\n\npass\n\nViele Grüße\nJürgen"
    text = (
        f"{typed}\n\n________________________________\n"
        f"Von: {OUR_NAME} <{OUR_ADDRESS}>\nGesendet: Dienstag, 3. Juni 2025 14:00\n"
        f"An: {thread.player_from}\nBetreff: {thread.subject}\n\n{thread.text}\n"
    )
    labels = ("Von", "An", "Betreff", "Gesendet")
    raw = entity(
        outlook_headers(
            thread, f'multipart/alternative;\n\tboundary="{OUTLOOK_BOUNDARY}"', language="de-DE"
        ),
        multipart(
            OUTLOOK_BOUNDARY,
            [
                entity(
                    [
                        ("Content-Type", 'text/plain; charset="iso-8859-1"'),
                        ("Content-Transfer-Encoding", "quoted-printable"),
                    ],
                    encoded(
                        text.replace("“", '"').replace("”", '"').replace("—", "-"),
                        "iso-8859-1",
                        "quoted-printable",
                    ),
                ),
                entity(
                    [
                        ("Content-Type", 'text/html; charset="iso-8859-1"'),
                        ("Content-Transfer-Encoding", "quoted-printable"),
                    ],
                    encoded(
                        outlook_html(thread, typed, labels=labels)
                        .replace("“", "&#8220;")
                        .replace("”", "&#8221;")
                        .replace("—", "&#8212;"),
                        "iso-8859-1",
                        "quoted-printable",
                    ),
                ),
            ],
        ),
    )
    assert b"Gr=FC=DFe" in raw
    assert_moved(thread, receive(raw), "pass")


# --- Apple -------------------------------------------------------------------------


def apple_headers(thread: Thread, mailer: str, version: str) -> list[tuple[str, str]]:
    """Apple's order: Content-Type first, folded with a tab."""
    return [
        ("Content-Type", "text/plain;\n\tcharset=utf-8;\n\tformat=flowed"),
        ("Content-Transfer-Encoding", "quoted-printable"),
        ("From", thread.player_from),
        ("Mime-Version", version),
        ("Subject", f"Re: {thread.subject}"),
        ("Date", DATE),
        ("References", thread.references),
        ("To", thread.reply_to),
        ("In-Reply-To", thread.message_id),
        ("Message-Id", "<6F1E2C3A-8B7D-4E2F-9A1B-0C3D4E5F6A7B@example.com>"),
        ("X-Mailer", mailer),
    ]


def test_apple_mail_flowed(thread: Thread) -> None:
    """Apple Mail on a Mac: format=flowed, quoted-printable UTF-8, the attribution
    line unquoted, the quote's long lines flowed."""
    word = legal_word(thread.game)
    attribution = f"On 3 Jun 2025, at 14:00, {OUR_NAME} <{OUR_ADDRESS}> wrote:"
    text = flowed(
        f"Morning!\n\n{word.lower()}\n\nBob\n\n{attribution}\n\n{quoted(thread.text, empty='> ')}\n"
    )
    assert any(line.startswith("> ") and line.endswith(" ") for line in text.split("\n"))
    raw = entity(
        apple_headers(
            thread,
            "Apple Mail (2.3826.500.181.1.5)",
            "1.0 (Mac OS X Mail 16.0 \\(3826.500.181.1.5\\))",
        ),
        encoded(text, "utf-8", "quoted-printable"),
    )
    assert_moved(thread, receive(raw), word)


def test_iphone(thread: Thread) -> None:
    """iOS Mail: "Sent from my iPhone" under the move, the attribution inside the
    quote, and a zero-width no-break space at the start of the quoted text."""
    text = (
        "Pass\n\nSent from my iPhone\n\n"
        f"> On 3 Jun 2025, at 14:00, {OUR_NAME} <{OUR_ADDRESS}> wrote:\n> \n"
        + quoted("\ufeff" + thread.text, empty="> ")
        + "\n"
    )
    raw = entity(
        apple_headers(thread, "iPhone Mail (22F76)", "1.0 (1.0)"),
        encoded(text, "utf-8", "quoted-printable"),
    )
    assert b"=EF=BB=BF## Reply above this line ##" in raw
    row = assert_moved(thread, receive(raw), "pass")
    assert row.read == "Pass"


# --- a phone client: Samsung Email / Gmail for Android ------------------------------


def test_samsung_email_base64(thread: Thread) -> None:
    """Samsung Email: top-posted, ``-------- Original message --------`` with the
    headers each ending in a space, both parts base64 UTF-8."""
    word = legal_word(thread.game)
    header_block = (
        "-------- Original message --------\n"
        f"From: {OUR_NAME} <{OUR_ADDRESS}> \nDate: 03/06/2025  14:00  (GMT+01:00) \n"
        f"To: {thread.player_from} \nSubject: {thread.subject} \n"
    )
    text = f"{word.capitalize()}\n\n\n\nSent from my Galaxy\n\n\n{header_block}\n{thread.text}\n"
    body_html = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'
        f'</head><body><div dir="auto">{word.capitalize()}</div><div dir="auto"><br></div>'
        '<div id="composer_signature" dir="auto"><div style="font-size:85%;color:#575757" '
        'dir="auto">Sent from my Galaxy</div></div><div><br></div>'
        '<div align="left" dir="auto" style="font-size:100%;color:#000000">'
        + "".join(f"<div>{html.escape(line)}</div>" for line in header_block.split("\n"))
        + f"<div><br></div></div>{thread.html}</body></html>"
    )
    boundary = "--_com.samsung.android.email_1748952312345670"
    raw = entity(
        [
            ("Message-ID", "<q7cvmhn4bq1x9kq0w3s2pd8f.1748952312345@email.android.com>"),
            ("From", thread.player_from),
            ("Subject", f"RE: {thread.subject}"),
            ("To", thread.reply_to),
            ("Date", DATE),
            ("MIME-Version", "1.0"),
            ("In-Reply-To", thread.message_id),
            ("References", thread.references),
            ("Content-Type", f'multipart/alternative; boundary="{boundary}"'),
        ],
        multipart(
            boundary,
            [
                entity(
                    [
                        ("Content-Type", "text/plain; charset=utf-8"),
                        ("Content-Transfer-Encoding", "base64"),
                    ],
                    encoded(text, "utf-8", "base64"),
                ),
                entity(
                    [
                        ("Content-Type", "text/html; charset=utf-8"),
                        ("Content-Transfer-Encoding", "base64"),
                    ],
                    encoded(body_html, "utf-8", "base64"),
                ),
            ],
        ),
    )
    assert word.encode() not in raw  # only readable once decoded
    assert_moved(thread, receive(raw), word)


# --- non-UTF-8 charsets and other languages -----------------------------------------


def test_thunderbird_iso_8859_1_french(thread: Thread) -> None:
    """Thunderbird in French: ISO-8859-1 sent as 8bit, format=flowed,
    ``Le … a écrit :``."""
    word = legal_word(thread.game)
    text = (
        f"Salut Renée,\n\nJe joue :\n\n{word.lower()}\n\nÀ plus,\nZoé\n\n"
        f"Le 03/06/2025 à 14:00, {OUR_NAME} a écrit :\n"
        + quoted(thread.text.replace("“", "«\u00a0").replace("”", "\u00a0»"), empty=">")
        + "\n"
    )
    raw = entity(
        [
            ("Message-ID", "<8f2c1a5e-3b7d-4c9e-a1f0-6d2e8b4c7a90@example.fr>"),
            ("Date", DATE),
            ("MIME-Version", "1.0"),
            ("User-Agent", "Mozilla Thunderbird"),
            ("Subject", f"Re: {thread.subject}"),
            ("Content-Language", "fr"),
            ("To", thread.reply_to),
            ("References", thread.references),
            ("From", f"=?UTF-8?Q?Ren=C3=A9e?= <{thread.player.email}>"),
            ("In-Reply-To", thread.message_id),
            ("Content-Type", "text/plain; charset=ISO-8859-1; format=flowed"),
            ("Content-Transfer-Encoding", "8bit"),
        ],
        encoded(text, "iso-8859-1", "8bit"),
    )
    assert "Salut Renée".encode("iso-8859-1") in raw
    assert_moved(thread, receive(raw), word)


def test_gmail_in_german(thread: Thread) -> None:
    """Gmail in German: ``Am … schrieb …:``."""
    word = legal_word(thread.game)
    attribution = (
        f"Am Di., 3. Juni 2025 um 14:00 Uhr schrieb {OUR_NAME} by mail <{thread.reply_to}>:"
    )
    raw = gmail_reply(
        thread, f"Hallo Ann,\n\n{word.lower()}\n\nViele Grüße\nBob", attribution=attribution
    )
    assert_moved(thread, receive(raw), word)


def test_gmail_in_french(thread: Thread) -> None:
    """Gmail in French: ``Le … a écrit :`` with its no-break space."""
    attribution = (
        f"Le mar. 3 juin 2025 à 14:00, {OUR_NAME} by mail <{thread.reply_to}> a\u00a0écrit\u00a0:"
    )
    raw = gmail_reply(thread, "Bonjour,\n\npass\n\nBonne journée", attribution=attribution)
    assert_moved(thread, receive(raw), "pass")


# --- attachments -------------------------------------------------------------------

#: The smallest PDF that says "resign" on its page: the move must not come from it.
PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R>>endobj\n"
    b"4 0 obj<</Length 35>>stream\nBT /F1 12 Tf 20 100 Td (resign) Tj ET\nendstream endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def encoded_bytes(data: bytes) -> bytes:
    """An attachment's bytes in base64, 76 characters a line."""
    return base64.encodebytes(data).replace(b"\n", b"\r\n")


#: A 1x1 JPEG's first bytes (enough for a mail client to call it image/jpeg).
JPEG = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffdb004300") + b"\x08" * 64


def test_gmail_with_a_pdf_and_a_photo(thread: Thread) -> None:
    """multipart/mixed: the reply (multipart/alternative) first, then a PDF and a
    photo as base64 attachments.  The move comes from the text only."""
    word = legal_word(thread.game)
    outer, inner = "000000000000f3a1b5063ad8e4c3", "000000000000f3a1b4063ad8e4c2"
    typed = f"{word.lower()}\n\nmy notes attached"
    raw = entity(
        gmail_headers(thread, f'multipart/mixed; boundary="{outer}"'),
        multipart(
            outer,
            [
                entity(
                    [("Content-Type", f'multipart/alternative; boundary="{inner}"')],
                    gmail_alternative(thread, typed, gmail_attribution(thread), inner),
                ),
                entity(
                    [
                        ("Content-Type", 'application/pdf; name="moves.pdf"'),
                        ("Content-Disposition", 'attachment; filename="moves.pdf"'),
                        ("Content-Transfer-Encoding", "base64"),
                        ("Content-ID", "<f_mbh3k2l10>"),
                        ("X-Attachment-Id", "f_mbh3k2l10"),
                    ],
                    encoded_bytes(PDF),
                ),
                entity(
                    [
                        ("Content-Type", 'image/jpeg; name="IMG_0042.jpg"'),
                        ("Content-Disposition", 'attachment; filename="IMG_0042.jpg"'),
                        ("Content-Transfer-Encoding", "base64"),
                        ("Content-ID", "<f_mbh3k2l21>"),
                        ("X-Attachment-Id", "f_mbh3k2l21"),
                    ],
                    encoded_bytes(JPEG),
                ),
            ],
        ),
    )
    message = raw_parsed(raw)
    assert [a.get_content_type() for a in message.attachments] == [
        "application/pdf",
        "image/jpeg",
    ]
    assert_moved(thread, receive(raw), word)


def test_iphone_photo_between_two_text_parts(thread: Thread) -> None:
    """iOS puts an inline photo where it was inserted: text, image, text.  The move
    is in the first text part; the quote and its marker are in the last."""
    boundary = "Apple-Mail-5E1B0C2D-9A8F-4B7E-8C6D-1F2E3A4B5C6D"
    tail = (
        "\n\nSent from my iPhone\n\n"
        f"> On 3 Jun 2025, at 14:00, {OUR_NAME} <{OUR_ADDRESS}> wrote:\n> \n"
        + quoted(thread.text, empty="> ")
        + "\n"
    )
    headers = [h for h in apple_headers(thread, "iPhone Mail (22F76)", "1.0 (1.0)")[2:]]
    raw = entity(
        [("Content-Type", f"multipart/mixed; boundary={boundary}"), *headers],
        multipart(
            boundary,
            [
                entity(
                    [
                        ("Content-Type", "text/plain;\n\tcharset=us-ascii"),
                        ("Content-Transfer-Encoding", "7bit"),
                    ],
                    encoded("Pass, sorry - here's the board:\n\npass\n", "ascii", "7bit"),
                ),
                entity(
                    [
                        (
                            "Content-Type",
                            "image/jpeg;\n\tname=IMG_0042.jpeg;\n\tx-apple-part-url=0A1B",
                        ),
                        ("Content-Disposition", "inline;\n\tfilename=IMG_0042.jpeg"),
                        ("Content-Transfer-Encoding", "base64"),
                    ],
                    encoded_bytes(JPEG),
                ),
                entity(
                    [
                        ("Content-Type", "text/plain;\n\tcharset=utf-8"),
                        ("Content-Transfer-Encoding", "quoted-printable"),
                    ],
                    encoded(tail, "utf-8", "quoted-printable"),
                ),
            ],
        ),
    )
    assert_moved(thread, receive(raw), "pass")


def test_an_attached_email_is_not_read_as_the_reply(thread: Thread) -> None:
    """An HTML-only reply that attaches an earlier email (message/rfc822, as Outlook
    does with "attach as item"): the move is in the reply, and the attached
    email's own text part (here a resignation) is never read as it.  (anymail's
    ``.text`` finds the first text/plain part anywhere, so this once resigned.)"""
    old = entity(
        [
            ("From", thread.player_from),
            ("To", thread.reply_to),
            ("Subject", "Re: an older game email"),
            ("Message-ID", "<older-reply@example.com>"),
            ("Content-Type", "text/plain; charset=utf-8"),
        ],
        encoded("resign\n", "utf-8", "7bit"),
    )
    raw = entity(
        outlook_headers(thread, f'multipart/mixed;\n\tboundary="{OUTLOOK_BOUNDARY}"'),
        multipart(
            OUTLOOK_BOUNDARY,
            [
                entity(
                    [
                        ("Content-Type", 'text/html; charset="windows-1252"'),
                        ("Content-Transfer-Encoding", "quoted-printable"),
                    ],
                    encoded(outlook_html(thread, "pass"), "windows-1252", "quoted-printable"),
                ),
                entity(
                    [
                        ("Content-Type", "message/rfc822"),
                        ("Content-Disposition", 'attachment;\n\tfilename="older.eml"'),
                    ],
                    old,
                ),
            ],
        ),
    )
    assert_moved(thread, receive(raw), "pass")


# --- the move in the subject, the move below the quote --------------------------------


def test_a_move_in_the_subject_with_only_the_quote_in_the_body(thread: Thread) -> None:
    """A player whose phone makes typing above the quote awkward writes the move
    as the subject; the body is only the quoted email.  The answer's subject does
    not carry the move back (a reply to it would make the move again)."""
    word = legal_word(thread.game)
    text = (
        f"\n\nSent from my iPhone\n\n> On 3 Jun 2025, at 14:00, {OUR_NAME} <{OUR_ADDRESS}> "
        f"wrote:\n> \n{quoted(thread.text, empty='> ')}\n"
    )
    headers = apple_headers(thread, "iPhone Mail (22F76)", "1.0 (1.0)")
    headers = [("Subject", f"Re: {word.lower()}") if n == "Subject" else (n, v) for n, v in headers]
    raw = entity(headers, encoded(text, "utf-8", "quoted-printable"))
    row = assert_moved(thread, receive(raw), word)
    assert row.subject == f"Re: {word.lower()}"
    (done,) = answers(thread.player)
    answer = message_for(Notification.objects.select_related("game", "user").get(pk=done.pk))
    assert answer is not None
    assert read_reply("", str(answer.subject)).move is None


@pytest.mark.parametrize("client", ["thunderbird", "gmail"])
def test_a_move_below_the_quote_is_refused_not_guessed(thread: Thread, client: str) -> None:
    """Bottom-posting: the player writes under the quoted email.  The marker is
    inside the quote, so all that is above it is the attribution line: no move is
    read (not a line of the quoted board, not the move under it) and the answer
    shows what was read and asks for the move on the first line."""
    word = legal_word(thread.game)
    if client == "gmail":  # the quote expanded, the move typed under it
        boundary = "000000000000f3a1b2063ad8e4c1"
        raw = entity(
            gmail_headers(thread, f'multipart/alternative; boundary="{boundary}"'),
            gmail_alternative(thread, "", gmail_attribution(thread), boundary, below=word.lower()),
        )
        assert raw_parsed(raw).text.rstrip().endswith(word.lower())
    else:
        text = (
            f"On 03/06/2025 14:00, {OUR_NAME} wrote:\n{quoted(thread.text)}\n\n"
            f"{word.lower()}\n\n-- \nBob\n"
        )
        raw = entity(
            [
                ("Message-ID", "<b7e2c1d0-bottom@example.com>"),
                ("Date", DATE),
                ("MIME-Version", "1.0"),
                ("User-Agent", "Mozilla Thunderbird"),
                ("Subject", f"Re: {thread.subject}"),
                ("To", thread.reply_to),
                ("References", thread.references),
                ("From", thread.player_from),
                ("In-Reply-To", thread.message_id),
                ("Content-Type", "text/plain; charset=UTF-8; format=flowed"),
                ("Content-Transfer-Encoding", "8bit"),
            ],
            encoded(text, "utf-8", "8bit"),
        )
    outcome = receive(raw)
    body = assert_refused(thread, outcome)
    row = inbound_row(outcome)
    assert row.move == ""
    assert word.lower() not in row.read
    assert "nothing was written above the quoted history" in outcome.reason
    assert "What was read from your email:\n> (nothing)" in body
    assert "Reply with your move at the top of your email, for example" in body
