"""Random mail at the one door: whatever arrives, :func:`games.mail_in.inbound.receive`
answers calmly, and a game changes only by a move its own player sent.

Hypothesis draws a *spec* (who sends, whose token, where it is, which headers,
what body in which charset and encoding, how the MIME is broken) and renders it
to raw bytes for the game of the moment, parsed as django-anymail parses them.
After every example :func:`check` holds:

- ``receive`` did not raise, and its status is moved/refused/dropped/duplicate;
- nothing changed (events, the game's ``last_seq``, sealed claims) unless the
  status is "moved", and a moved game replays to its cached state;
- a dropped or duplicate message owes no answer; a moved or refused one owes one;
- a message seen before is a duplicate.

The tests add their own oracle on top: automatic mail and mail from anyone but
the token's player are dropped, and text below the reply marker is never read.

All examples of a test share one database transaction, so each example takes a
fresh Message-ID (or none, or one seen before, on purpose), and a game that ends
is replaced by a new one.  Every test is derandomized: a run is the same every
time (and in CI).
"""

from __future__ import annotations

import base64
import html
import itertools
import quopri
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from inbound_mails import CRLF, entity, inbound_row, legal_word, multipart, raw_parsed, sent_email

from accounts.models import User
from games.core import lobby, projection
from games.engine.jumbulaya import PRESETS
from games.kinds.jumbulaya.models import JumbulayaClaim
from games.mail_in import inbound
from games.mail_out.emails import REPLY_MARKER
from games.mail_out.reply_addresses import reply_address, reply_token
from games.models import Event, Game, InboundMail, Notification

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
STATUSES = {"moved", "refused", "dropped", "duplicate"}
ANSWERS = [Kind.REPLY_DONE, Kind.REPLY_REFUSED]


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


# --- the table: a game being played, its players, and people who are not in it ---------

_names = itertools.count()


class Table:
    """The game being played, its two players, and a stranger who has an account
    and a validly signed token for the game but no seat.  Not a dataclass:
    Hypothesis prints a failing example's arguments, and the short repr keeps
    that readable."""

    def __init__(self, game: Game, players: list[User], stranger: User) -> None:
        self.game, self.players, self.stranger = game, players, stranger
        #: keys (Message-IDs or digests) already received in this test function
        self.seen: list[str] = []
        self._words: dict[tuple[int, int], str] = {}

    def __repr__(self) -> str:
        return f"Table(game {self.game.pk} at #{self.game.last_seq}, {len(self.seen)} seen)"

    def playing(self) -> Game:
        """The game, replaced by a new one once it is over."""
        self.game.refresh_from_db()
        if self.game.status != Game.Status.PLAYING:
            self.game, self.players = new_game()
        return self.game

    def mover(self) -> User:
        assert self.game.turn_seat is not None
        return self.players[self.game.turn_seat]

    def waiting(self) -> User:
        assert self.game.turn_seat is not None
        return self.players[1 - self.game.turn_seat]

    def word(self) -> str:
        """A word the mover may build now (found once per position)."""
        key = (self.game.pk, self.game.last_seq)
        if key not in self._words:
            self._words[key] = legal_word(self.game)
        return self._words[key]


def person(stem: str) -> User:
    name = f"{stem}{next(_names)}"
    return User.objects.create_user(
        username=name, email=f"{name}@example.com", display_name=stem.title()
    )


def new_game() -> tuple[Game, list[User]]:
    ann, bob = person("ann"), person("bob")
    game = lobby.create_game(
        ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email]
    )
    lobby.join_game(game.pk, bob)
    game.refresh_from_db()
    players = [seat.user for seat in game.seats.order_by("index")]
    assert all(players)
    return game, [p for p in players if p is not None]


@pytest.fixture
def table(db: None) -> Iterator[Table]:
    with override_settings(JUMBULAYA_INBOUND_PER_HOUR=1_000_000):  # tested on its own
        game, players = new_game()
        yield Table(game, players, person("mallory"))


# --- the invariants ---------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    events: int
    last_seq: int
    claims: int
    answers: int
    rows: int


def snapshot(game: Game) -> Snapshot:
    return Snapshot(
        events=Event.objects.count(),
        last_seq=Game.objects.values_list("last_seq", flat=True).get(pk=game.pk),
        claims=JumbulayaClaim.objects.count(),
        answers=Notification.objects.filter(kind__in=ANSWERS).count(),
        rows=InboundMail.objects.count(),
    )


def check(table: Table, raw: bytes) -> inbound.Outcome:
    """Receive ``raw`` and check the invariants every message keeps."""
    game = table.game
    before = snapshot(game)
    outcome = inbound.receive(raw_parsed(raw), via="fuzz")  # never raises
    after = snapshot(game)
    assert outcome.status in STATUSES, outcome
    if outcome.status == "moved":
        assert after.events >= before.events and after.claims >= before.claims
        assert (after.events, after.claims) != (before.events, before.claims)
        game.refresh_from_db()
        assert projection.replay_game(game) == projection.current_state(game)
        row = inbound_row(outcome)
        if row.event_seq is not None and row.reason == "":
            made = Event.objects.get(game=game, seq=row.event_seq)
            assert made.source == Event.Source.EMAIL
    else:
        assert (after.events, after.last_seq, after.claims) == (
            before.events,
            before.last_seq,
            before.claims,
        )
    if outcome.status in ("dropped", "duplicate"):
        assert after.answers == before.answers, "no answer is owed for a dropped message"
    else:
        assert after.answers == before.answers + 1, "a player's reply is answered once"
    if outcome.status == "duplicate":
        assert after.rows == before.rows
    else:
        assert after.rows == before.rows + 1
        key = inbound_row(outcome).message_id
        assert key not in table.seen, "a message seen before was processed again"
        table.seen.append(key)
    return outcome


# --- what a message is made of ---------------------------------------------------------

#: Words and phrases of real replies and of the commands, to be mixed at random;
#: ``{word}`` and ``{seq}`` become a legal word and the game's position.
WORDS = [
    "pass",
    "Pass",
    "PASS",
    "resign",
    "I resign.",
    "please resign",
    "3 facts",
    "3 FACTS",
    "#17",
    "#{seq}",
    "jumbulaya",
    "JUMBULAYA SPRINTS",
    "call jumbulaya",
    "exchange all",
    "exchange Q X",
    "swap qu",
    "line 3: facts",
    "play 2 lines",
    "timeout",
    "please",
    "thanks",
    "move",
    "{word}",
    "{word} #{seq}",
    ">",
    "*",
    "--",
    "?",
    "Hi",
    "Salut Renée,",
    "Sent from my iPhone",
    REPLY_MARKER,
    "On Tue, 3 Jun 2025 at 14:00, Jumbulaya <jumbulaya@localhost> wrote:",
    "-----Original Message-----",
    "________________________________",
    "From: Jumbulaya <jumbulaya@localhost>",
    "<div>",
    "</blockquote>",
    "&nbsp;",
    "=?utf-8?q?pass?=",
]
word_tokens = st.one_of(st.sampled_from(WORDS), st.text(max_size=12))
lines = st.one_of(
    st.lists(word_tokens, max_size=6).map(" ".join),
    st.text(max_size=100),
    st.text(st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp"]), max_size=20),
    st.builds(
        lambda piece, n: piece * n,
        st.sampled_from(["pass ", "x", "é", "\u200b", "> ", "#1", "=", "\x00"]),
        st.integers(50, 2000),
    ),
)
SEPARATORS = ["\n", "\r\n", "\r", "\u2028", "\x0b", "\x85"]
CHARSETS = [
    "utf-8",
    "UTF-8",
    "iso-8859-1",
    "windows-1252",
    "us-ascii",
    "utf-16",
    "koi8-r",
    "shift_jis",
    "utf-7",
    "x-unknown",
    "",
    "utf-8\x00",
]
ENCODINGS = ["7bit", "8bit", "binary", "quoted-printable", "base64", "BASE64", "x-uuencode", "?"]
#: Headers of automatic mail, each with whether it marks the mail automatic.
AUTOMATIC = [
    (("Auto-Submitted", "auto-replied"), True),
    (("Auto-Submitted", "auto-generated"), True),
    (("Auto-Submitted", "auto-notified"), True),
    (("Auto-Submitted", 'Auto-Replied; owner-email="x@example.com"'), True),
    (("Auto-Submitted", "no"), False),
    (("Auto-Submitted", "No"), False),
    (("Precedence", "bulk"), True),
    (("Precedence", "JUNK"), True),
    (("Precedence", "list"), True),
    (("Precedence", "auto_reply"), True),
    (("Precedence", "first-class"), False),
    (("X-Autoreply", "yes"), True),
    (("X-Autorespond", "Out of office"), True),
]


@dataclass(frozen=True)
class Body:
    lines: list[str]
    separator: str
    #: "plain", "html", "alternative", "attachment" or "forwarded" (an attached email)
    shape: str
    charset: str
    #: the charset the bytes are really in (a client may say one and send another)
    real_charset: str
    encoding: str
    real_encoding: str


#: A first line that is a move now and then, so that legitimate mail moves too.
leads = st.sampled_from([[], [], ["pass"], ["{word}"], ["{word} #{seq}"], ["resign"]])
body_lines = st.tuples(leads, st.lists(lines, max_size=12)).map(lambda t: t[0] + t[1])
shapes = st.sampled_from(["plain", "html", "alternative", "attachment", "forwarded"])
#: Anything at all: a charset and an encoding that may not be the ones used.
any_bodies = st.builds(
    Body,
    lines=body_lines,
    separator=st.sampled_from(SEPARATORS),
    shape=shapes,
    charset=st.sampled_from(CHARSETS),
    real_charset=st.sampled_from(["utf-8", "iso-8859-1", "windows-1252", "utf-16"]),
    encoding=st.sampled_from(ENCODINGS),
    real_encoding=st.sampled_from(["8bit", "quoted-printable", "base64", "bad-base64"]),
)
#: Said as sent, so that a move in it can be read.
honest_bodies = st.builds(
    lambda lines, separator, shape, charset, encoding: Body(
        lines, separator, shape, charset, charset, encoding, encoding
    ),
    body_lines,
    st.sampled_from(SEPARATORS),
    shapes,
    st.sampled_from(["utf-8", "UTF-8", "iso-8859-1", "windows-1252"]),
    st.sampled_from(["8bit", "quoted-printable", "base64"]),
)
bodies = st.one_of(honest_bodies, any_bodies)


def body_bytes(text: str, charset: str, encoding: str) -> bytes:
    data = text.encode(charset, errors="replace")
    if encoding == "quoted-printable":
        return quopri.encodestring(data.replace(b"\r\n", b"\n")).replace(b"\n", CRLF)
    if encoding == "base64":
        return base64.encodebytes(data).replace(b"\n", CRLF)
    if encoding == "bad-base64":
        return base64.encodebytes(data)[:-3].replace(b"\n", CRLF) + b"!*=\xff" + CRLF
    return data


Headers = list[tuple[str, str]]


def text_part(body: Body, text: str, subtype: str) -> tuple[Headers, bytes]:
    charset = f"; charset={body.charset}" if body.charset else ""
    return (
        [
            ("Content-Type", f"text/{subtype}{charset}"),
            ("Content-Transfer-Encoding", body.encoding),
        ],
        body_bytes(text, body.real_charset, body.real_encoding),
    )


def render_body(body: Body, table: Table) -> tuple[Headers, bytes]:
    """The content headers of the message and its body."""
    game = table.game
    text = body.separator.join(
        line.replace("{word}", table.word()).replace("{seq}", str(game.last_seq))
        for line in body.lines
    )
    as_html = "".join(f"<div>{html.escape(line)}</div>" for line in text.splitlines())
    boundary = f"b0undary-{len(text)}"
    if body.shape == "plain":
        return text_part(body, text, "plain")
    if body.shape == "html":
        return text_part(body, as_html, "html")
    alternative = multipart(
        boundary + "a",
        [entity(*text_part(body, text, "plain")), entity(*text_part(body, as_html, "html"))],
    )
    if body.shape == "alternative":
        return [("Content-Type", f'multipart/alternative; boundary="{boundary}a"')], alternative
    if body.shape == "attachment":
        attached = entity(
            [
                ("Content-Type", 'text/plain; name="notes.txt"'),
                ("Content-Disposition", 'attachment; filename="notes.txt"'),
            ],
            b"resign\r\npass\r\n",
        )
    else:
        attached = entity(
            [("Content-Type", "message/rfc822"), ("Content-Disposition", "attachment")],
            entity([("Subject", "old"), ("Content-Type", "text/plain")], b"resign\r\n"),
        )
    inner = entity(
        [("Content-Type", f'multipart/alternative; boundary="{boundary}a"')], alternative
    )
    if body.shape == "forwarded":
        inner = entity(*text_part(body, as_html, "html"))  # HTML only, an email attached
    mixed = multipart(boundary + "m", [inner, attached])
    return [("Content-Type", f'multipart/mixed; boundary="{boundary}m"')], mixed


# --- who sends it, to whom, with what headers -------------------------------------------

ROLES = ["mover", "waiting", "stranger"]
#: Legitimate ways of writing a sender's own address.
FORMS = ["plain", "named", "upper", "encoded", "utf8", "folded", "comment"]
#: A stranger writing the From so that a careless reader sees the player's address.
SPOOFS = [
    "{name} <{evil}>",
    '"{email}" <{evil}>',
    "{evil} ({email})",
    "{email} <{evil}>",
    "{email}.evil.example",
    "<{email}>@evil.example",
    "{email}, {evil}",
    "{evil}, {email}",
    "=?utf-8?q?{q_email}?=",
    "=?utf-8?b?{b_email}?=",
    "=?utf-8?q?{q_email}=3E=00?=foo@evil.example",
    "=?iso-8859-1?q?{q_email}=3e=20?=@evil.example",
    "Mallory <=?utf-8?q?{q_email}?=>",
    "=?utf-8?q?=3C{q_email}=3E?=",
    "{email}\x00@evil.example",
]
PLACES = ["to", "to-named", "to-upper", "cc", "delivered-to", "references", "in-reply-to"]


@dataclass(frozen=True)
class Envelope:
    #: who really sends it: a role, "robot", "us", "nobody" or "spoof" (a stranger
    #: dressed as the token's player)
    sender: str
    form: str
    spoof: str
    #: whose token it carries: a role, "forged", "garbled" or "none"
    token: str
    place: str
    automatic: list[tuple[tuple[str, str], bool]]
    subject: str | None
    #: "fresh", "missing", "seen", "twice", "long" or "text"
    message_id: str
    message_id_text: str
    references: str


envelopes = st.builds(
    Envelope,
    sender=st.sampled_from([*ROLES, *["mover"] * 3, "robot", "us", "nobody", "spoof"]),
    form=st.sampled_from(FORMS),
    spoof=st.sampled_from(SPOOFS),
    token=st.sampled_from([*ROLES, *["mover"] * 3, "forged", "garbled", "none"]),
    place=st.sampled_from(PLACES),
    automatic=st.one_of(
        st.just([]), st.lists(st.sampled_from(AUTOMATIC), max_size=2, unique_by=lambda a: a[0][0])
    ),
    subject=st.one_of(st.none(), st.text(max_size=60), st.lists(word_tokens).map(" ".join)),
    message_id=st.sampled_from([*["fresh"] * 6, "missing", "seen", "twice", "long", "text"]),
    message_id_text=st.text(max_size=40),
    references=st.text(max_size=60),
)


def user_of(table: Table, role: str) -> User:
    if role == "mover":
        return table.mover()
    return table.waiting() if role == "waiting" else table.stranger


def own_from(user: User, form: str) -> str:
    email = user.email
    return {
        "plain": email,
        "named": f"{user.public_name} <{email}>",
        "upper": f"{user.public_name} <{email.upper()}>",
        "encoded": f"=?utf-8?q?Ren=C3=A9e_{user.public_name}?= <{email}>",
        "utf8": f"Renée {user.public_name} <{email}>",
        "folded": f'"{user.public_name}, Esq."\n <{email}>',
        "comment": f"{email} (Renée)",
    }[form]


def spoofed_from(user: User, template: str) -> str:
    return template.format(
        name=user.public_name,
        email=user.email,
        evil="mallory@evil.example",
        q_email=user.email.replace("@", "=40").replace(".", "=2E"),
        b_email=base64.b64encode(user.email.encode()).decode(),
    )


_ids = itertools.count()


def fresh_id() -> str:
    return f"<fuzz-{next(_ids)}@client.example>"


@dataclass(frozen=True)
class Rendered:
    raw: bytes
    #: the player whose token it carries sent it, and it is not automatic
    legitimate: bool
    automatic: bool
    #: the key of a message received before, when it names one
    seen: str | None


def render(table: Table, envelope: Envelope, body: Body) -> Rendered:
    game = table.playing()
    token_user = user_of(table, envelope.token) if envelope.token in ROLES else table.mover()
    token = reply_token(token_user.pk, game.pk)
    if envelope.token == "forged":
        token = token[:-4] + ("aaaa" if not token.endswith("aaaa") else "bbbb")
    elif envelope.token == "garbled":
        token = token[: len(token) // 2] + "\u00e9" + token[len(token) // 2 :]
    domain = reply_address(token_user.pk, game.pk).rpartition("@")[2]
    address = f"play+{token}@{domain}"
    headers: list[tuple[str, str]] = []
    to = "Jumbulaya <jumbulaya@localhost>"
    if envelope.token != "none":
        if envelope.place == "to":
            to = address
        elif envelope.place == "to-named":
            to = f'"{address}" <{address}>'
        elif envelope.place == "to-upper":
            to = address.upper()
        elif envelope.place == "cc":
            headers.append(("Cc", f"Someone <someone@example.org>, {address}"))
        elif envelope.place == "delivered-to":
            headers.append(("Delivered-To", address))
        else:
            name = "References" if envelope.place == "references" else "In-Reply-To"
            headers.append((name, f"<game-{game.pk}.1.your_turn.9.{token}@127.0.0.1>"))

    legitimate = False
    if envelope.sender in ROLES:
        sender_user = user_of(table, envelope.sender)
        sender = own_from(sender_user, envelope.form)
        legitimate = envelope.token in ROLES and sender_user == token_user
    elif envelope.sender == "spoof":
        sender = spoofed_from(token_user, envelope.spoof)
    elif envelope.sender == "robot":
        sender = "MAILER-DAEMON@mx.example.com"
    elif envelope.sender == "us":
        sender = "Jumbulaya <jumbulaya@localhost>"
    else:
        sender = ""
    automatic = any(marks for _, marks in envelope.automatic)
    legitimate = legitimate and not automatic

    seen = None
    if envelope.message_id == "fresh":
        headers.append(("Message-ID", fresh_id()))
    elif envelope.message_id == "seen":
        # one of this test's own Message-IDs (not a digest, nor two joined)
        ours = [key for key in table.seen if re.fullmatch(r"<fuzz-[0-9]+@client\.example>", key)]
        if ours:
            seen = ours[len(envelope.message_id_text) % len(ours)]
            headers.append(("Message-ID", seen))
    elif envelope.message_id == "twice":
        headers += [("Message-ID", fresh_id()), ("Message-ID", fresh_id())]
    elif envelope.message_id == "long":
        headers.append(("Message-ID", f"<{'x' * 300}{next(_ids)}@client.example>"))
    elif envelope.message_id == "text":
        headers.append(("Message-ID", one_line(envelope.message_id_text)))
    headers += [name_value for name_value, _ in envelope.automatic]
    if envelope.references:
        headers.append(("References", one_line(envelope.references)))
    subject = envelope.subject if envelope.subject is not None else f"Re: Game {game.pk}"
    content, payload = render_body(body, table)
    raw = entity(
        [
            *([("From", sender)] if envelope.sender != "nobody" else []),
            ("To", to),
            ("Subject", one_line(subject)),
            *headers,
            ("MIME-Version", "1.0"),
            *content,
        ],
        payload,
    )
    return Rendered(raw, legitimate, automatic, seen)


def one_line(text: str) -> str:
    """A header value that stays one header (random text may hold line breaks)."""
    return " ".join(text.splitlines())


def reply(table: Table, body: Body) -> bytes:
    """The mover's own reply, to their own reply address, with ``body``."""
    game, player = table.game, table.mover()
    content, payload = render_body(body, table)
    return entity(
        [
            ("From", f"{player.public_name} <{player.email}>"),
            ("To", reply_address(player.pk, game.pk)),
            ("Subject", f"Re: Your turn in game {game.pk}"),
            ("Message-ID", fresh_id()),
            ("MIME-Version", "1.0"),
            *content,
        ],
        payload,
    )


# --- the tests ---------------------------------------------------------------------------


@pytest.mark.slow
@fuzz(1000)
@given(envelope=envelopes, body=bodies)
@example(  # NUL in what was read, and in a subject: PostgreSQL once refused to store them
    envelope=Envelope("mover", "plain", "", "mover", "to", [], "Re: \x00", "fresh", "", ""),
    body=Body(["\x00"], "\n", "plain", "utf-8", "utf-8", "8bit", "8bit"),
)
@example(
    envelope=Envelope("stranger", "plain", "", "mover", "to", [], "\x00", "text", "<\x00>", ""),
    body=Body([], "\n", "plain", "utf-8", "utf-8", "8bit", "8bit"),
)
def test_random_mail_keeps_every_invariant(table: Table, envelope: Envelope, body: Body) -> None:
    mail = render(table, envelope, body)
    outcome = check(table, mail.raw)
    event(f"{'legitimate' if mail.legitimate else 'not legitimate'}: {outcome.status}")
    if mail.seen is not None:
        assert outcome.status == "duplicate"
    if not mail.legitimate:
        assert outcome.status in ("dropped", "duplicate"), (envelope, outcome)


@pytest.mark.slow
@fuzz(400)
@given(envelope=envelopes, body=bodies)
@example(
    envelope=Envelope(
        "spoof", "plain", "=?utf-8?q?{q_email}?=", "mover", "to", [], None, "fresh", "", ""
    ),
    body=Body(["pass"], "\n", "plain", "utf-8", "utf-8", "7bit", "8bit"),
)
def test_only_the_tokens_player_can_move(table: Table, envelope: Envelope, body: Body) -> None:
    """Mail from anyone but the player the token names, or from a robot, or
    marked automatic, changes nothing and is never answered: not from the other
    player, not from a stranger dressed in the player's address in any way the
    parsers can be fooled, with a body that holds a move."""
    if envelope.sender in ROLES and envelope.sender == envelope.token:
        envelope = replace(envelope, sender="spoof")
    body = replace(body, lines=["pass", *body.lines])
    mail = render(table, envelope, body)
    assert not mail.legitimate
    outcome = check(table, mail.raw)
    event(f"status: {outcome.status}")
    assert outcome.status in ("dropped", "duplicate"), (envelope, outcome)


def plain_reply(table: Table, sender: str, to: str) -> bytes:
    return entity(
        [
            ("From", sender),
            ("To", to),
            ("Subject", "Re: pass"),
            ("Message-ID", fresh_id()),
            ("Content-Type", "text/plain; charset=utf-8"),
        ],
        b"pass\r\n",
    )


@pytest.mark.parametrize("form", FORMS)
def test_the_players_address_written_any_way_moves(table: Table, form: str) -> None:
    game = table.playing()
    player = table.mover()
    raw = plain_reply(table, own_from(player, form), reply_address(player.pk, game.pk))
    assert check(table, raw).status == "moved"


@pytest.mark.parametrize("template", SPOOFS)
def test_a_stranger_dressed_as_the_player_is_dropped(table: Table, template: str) -> None:
    """A From that shows the player's address without being it changes nothing
    and is not answered, though it carries the player's token and a move.  Read
    decoded, ``=?utf-8?q?ann=40example.com?=`` (a display name, no address at
    all) and ``=?utf-8?q?ann=40example.com=3E=00?=foo@evil.example`` were once
    taken for the player."""
    game = table.playing()
    player = table.mover()
    raw = plain_reply(table, spoofed_from(player, template), reply_address(player.pk, game.pk))
    outcome = check(table, raw)
    assert outcome.status == "dropped"
    assert "sender" in outcome.reason or "bounce" in outcome.reason


GREETINGS = [
    "",
    "Hi Bob,",
    "Salut Renée,",
    "Hallo,",
    "Thanks!",
    "Cheers",
    "Je joue :",
    "here is my move:",
    "*",
]
#: Lines that start a signature: what follows them is never read.
SIGN_OFFS = ["Bob", "-- ", "Sent from my iPhone", "Get Outlook for Android", "Best regards,"]
QUOTE_STARTS = [
    "On Tue, 3 Jun 2025 at 14:00, Jumbulaya <jumbulaya@localhost> wrote:",
    "Am Di., 3. Juni 2025 um 14:00 Uhr schrieb Jumbulaya <jumbulaya@localhost>:",
    "Le mar. 3 juin 2025 à 14:00, Jumbulaya <jumbulaya@localhost> a écrit :",
    "-----Original Message-----\nFrom: Jumbulaya <jumbulaya@localhost>\nSent: Tuesday",
    "________________________________\nFrom: Jumbulaya\nSent: Tuesday\nTo: Bob",
    "-------- Original message --------",
    "",
]
MARKERS = [REPLY_MARKER, f"> {REPLY_MARKER}", f"> \ufeff{REPLY_MARKER}", f">> {REPLY_MARKER}"]


@pytest.mark.slow
@fuzz(500)
@given(
    above=st.lists(st.sampled_from(GREETINGS), max_size=4),
    move=st.sampled_from([None, "pass", "{word}", "{word} #{seq}"]),
    after=st.lists(st.sampled_from(GREETINGS + SIGN_OFFS), max_size=3),
    quote=st.sampled_from(QUOTE_STARTS),
    marker=st.sampled_from(MARKERS),
    below=st.lists(lines, max_size=8),
    shape=st.sampled_from(["plain", "html", "alternative", "attachment", "forwarded"]),
    charset=st.sampled_from(["utf-8", "iso-8859-1", "windows-1252"]),
    encoding=st.sampled_from(["8bit", "quoted-printable", "base64"]),
)
def test_nothing_below_the_marker_is_read(
    table: Table,
    above: list[str],
    move: str | None,
    after: list[str],
    quote: str,
    marker: str,
    below: list[str],
    shape: str,
    charset: str,
    encoding: str,
) -> None:
    """The player whose turn it is writes chatter, at most one move, and the
    quoted email with anything at all under its marker (other moves, a
    resignation, garbage): the move made is the one written, and with none
    written the reply is refused.  Never a move from below the marker."""
    game = table.playing()
    word = table.word()
    written = None if move is None else move.format(word=word, seq=game.last_seq)
    text_lines = [*above, *([written] if written else []), *after, quote, marker, *below]
    body = Body(text_lines, "\n", shape, charset, charset, encoding, encoding)
    outcome = check(table, reply(table, body))
    event(f"status: {outcome.status}")
    row = inbound_row(outcome)
    if written is None:
        assert outcome.status == "refused", (outcome, row.read)
    else:
        assert outcome.status == "moved", (outcome, row.read)
        assert row.move == ("pass" if move == "pass" else word)


#: Ways a message's bytes get broken on the way.
MUTATIONS = [
    "truncate",
    "insert",
    "boundary",
    "no-close",
    "no-boundary-param",
    "header-8bit",
    "header-no-colon",
    "header-long",
    "duplicate-headers",
    "nested",
    "nul",
    "bare-cr",
]


def mutate(raw: bytes, how: str, where: int, junk: bytes) -> bytes:
    head, _, rest = raw.partition(CRLF + CRLF)
    at = where % (len(raw) + 1)
    if how == "truncate":
        return raw[:at]
    if how == "insert":
        return raw[:at] + junk + raw[at:]
    if how == "boundary":
        return raw.replace(b"b0undary-", b"B0UNDARY-", 1 + where % 3)
    if how == "no-close":
        return raw.replace(b"--" + CRLF, CRLF)
    if how == "no-boundary-param":
        return raw.replace(b"; boundary=", b"; bound=", 1)
    if how == "header-8bit":
        return head + CRLF + b"X-Junk: " + junk + b"\xff\xfe\xc3(" + CRLF + CRLF + rest
    if how == "header-no-colon":
        return junk.replace(b":", b"") + CRLF + head + CRLF + CRLF + rest
    if how == "header-long":
        return head + CRLF + b"Subject: " + b"pass " * 3000 + CRLF + CRLF + rest
    if how == "duplicate-headers":
        return head + CRLF + head + CRLF + CRLF + rest
    if how == "nested":
        depth = 20 + where % 400
        opening = b"".join(
            b'Content-Type: multipart/mixed; boundary="n%d"\r\n\r\n--n%d\r\n' % (i, i)
            for i in range(depth)
        )
        return head.replace(b"Content-Type:", b"X-Old-Type:") + CRLF + opening + rest
    if how == "nul":
        return raw.replace(b"pass", b"pa\x00ss")
    return raw.replace(CRLF, b"\r")


@pytest.mark.slow
@fuzz(600)
@given(
    body=bodies,
    how=st.sampled_from(MUTATIONS),
    where=st.integers(0, 10_000),
    junk=st.binary(max_size=40),
    move=st.booleans(),
)
@example(  # UTF-7 that decodes to a lone surrogate: once a crash saving what was read
    body=Body(["", "000000ø", "pass pass"], "\n", "plain", "utf-7", "iso-8859-1", "7bit", "base64"),
    how="insert",
    where=0,
    junk=b"",
    move=True,
)
@example(
    body=Body(["pass"], "\n", "alternative", "utf-8", "utf-8", "7bit", "8bit"),
    how="nested",
    where=3000,
    junk=b"",
    move=True,
)
def test_broken_mime_is_handled_calmly(
    table: Table, body: Body, how: str, where: int, junk: bytes, move: bool
) -> None:
    """The player's own reply, its bytes broken as mail systems and bad clients
    break them: truncated, boundaries that do not match, bad base64, 8-bit and
    NUL bytes, headers without a colon or doubled, parts nested hundreds deep."""
    table.playing()
    body = replace(body, lines=["pass", *body.lines] if move else body.lines)
    outcome = check(table, mutate(reply(table, body), how, where, junk))
    event(f"status: {outcome.status}")


def test_the_games_own_emails_quoted_back_read_as_nothing(table: Table) -> None:
    """A reply that is only the game email itself (a client that sends the quote
    without a word typed): refused, never a move from the hint's "3 FACTS #1"."""
    game = table.playing()
    player = table.mover()
    sent = sent_email(game, player)
    raw = entity(
        [
            ("From", player.email),
            ("To", reply_address(player.pk, game.pk)),
            ("Subject", f"Re: {sent.subject}"),
            ("Message-ID", fresh_id()),
            ("Content-Type", "text/plain; charset=utf-8"),
        ],
        str(sent.body).encode(),
    )
    outcome = check(table, raw)
    assert outcome.status == "refused"


def test_a_legitimate_rendered_reply_moves(table: Table) -> None:
    """Keeps the renderer honest: what it builds parses, and a legitimate reply
    moves (else every "dropped" above could be the renderer's fault)."""
    envelope = Envelope("mover", "named", "", "mover", "to", [], None, "fresh", "", "")
    body = Body(["Hi", "", "pass"], "\r\n", "alternative", "utf-8", "utf-8", "base64", "base64")
    mail = render(table, envelope, body)
    assert mail.legitimate
    assert check(table, mail.raw).status == "moved"
