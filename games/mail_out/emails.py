"""The emails the outbox sends: one :class:`EmailMultiAlternatives` (plain text
and HTML) per ``Notification`` row, or ``None`` when nothing is to be sent.

Every email is written for its one recipient: their own rack and nothing
private of anyone else (no other rack, no bag, no address), the deadline in
their time zone, and links signed for them (:mod:`games.mail_out.turnlinks`).  Subjects
name the game and what happened (``Game 12: your turn — Bob played FACTS``).
A game's emails to one player thread together under their game-started email
(:func:`thread_id`), each with a ``Message-ID`` of its own built from its row
(the same on every try to send it), and say they are automatic
(``Auto-Submitted``) and how to stop them (``List-Unsubscribe``, RFC 8058
one-click).  The first line of every body is :data:`REPLY_MARKER`, which the
reply-by-email work looks for.
"""

from __future__ import annotations

import email.message
import email.policy
import logging
import re
import unicodedata
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.policy import Policy
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.defaultfilters import pluralize
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil

from accounts.models import User
from games.coach.analysis import analysis_of
from games.core import chat, score_series, seat_names
from games.core.projection import current_state, kind_of
from games.core.seat_changes import left_game, left_in_words
from games.kinds import presentation
from games.kinds.base import KindPresentation, Logged, SeatView
from games.mail_out.reply_addresses import reply_address, reply_token
from games.mail_out.turnlinks import turn_url, unsubscribe_url
from games.models import Event, Game, InboundMail, Notification, Seat

log = logging.getLogger(__name__)

REPLY_MARKER = "## Reply above this line ##"
#: Moves of the log an email recalls.
RECENT_MOVES = 5
#: Kinds the daily digest covers for digest users.
DIGEST_KINDS = frozenset({Notification.Kind.YOUR_TURN, Notification.Kind.DEADLINE_WARNING})
#: Kinds that only make sense while it is still the recipient's turn.
TURN_KINDS = DIGEST_KINDS
#: Answers to a player's email reply.
REPLY_KINDS = frozenset(
    {
        Notification.Kind.REPLY_DONE,
        Notification.Kind.REPLY_REFUSED,
        Notification.Kind.REPLY_HINTS,
    }
)
#: RFC 5322's limit on a line, for headers (see :class:`GameEmail`).
MAX_HEADER_LINE = 998
Kind = Notification.Kind
#: Characters :func:`one_line` drops, but for whitespace (CR and LF among them),
#: which it folds into single spaces: control, format, surrogate, private use,
#: unassigned.
_NOT_IN_HEADERS = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: A Message-ID that may be named in our headers (anything else is left out).
MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")


# --- small helpers shared with the digest ------------------------------------


def site_domain() -> str:
    """The host of the site's address, used in Message-IDs and List-Ids."""
    return urlsplit(settings.JUMBULAYA_SITE_URL).hostname or "localhost"


def site_link(name: str, *args: Any) -> str:
    return settings.JUMBULAYA_SITE_URL + reverse(name, args=args)


def zone_of(user: User) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def when(moment: datetime, user: User) -> str:
    """A moment in the user's time zone, in words: ``Tue 3 Jun 2025, 14:00 (Europe/Paris)``."""
    zone = zone_of(user)
    local = timezone.localtime(moment, zone)
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} ({zone.key})"


def time_left(moment: datetime) -> str:
    """How long until ``moment``, in words (``"2 days, 3 hours"``)."""
    if moment <= timezone.now():
        return "no time"
    return timeuntil(moment).replace("\xa0", " ")


def names_in_words(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def one_line(text: str) -> str:
    """A header-safe version of ``text`` (names go into subjects): one line,
    without control, invisible or unencodable characters (a lone surrogate
    would fail every try to send it)."""
    kept = "".join(
        ch for ch in text if ch.isspace() or unicodedata.category(ch) not in _NOT_IN_HEADERS
    )
    return " ".join(kept.split())


def thread_id(game_id: int, user_id: int | None = None) -> str:
    """The Message-ID of a game's thread root for one recipient: the email
    that says the game has started carries it, and every other email of the
    game answers it, so they thread together.  A player's root holds their
    reply token, as every Message-ID sent to them does (see
    :func:`game_headers`); without a user (an invitation) it names the game."""
    if user_id is None:
        return f"<game-{game_id}@{site_domain()}>"
    return f"<game-{game_id}.{reply_token(user_id, game_id)}@{site_domain()}>"


def automatic_headers(unsubscribe: str | None) -> dict[str, str]:
    headers = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"}
    if unsubscribe:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return headers


def game_headers(notification: Notification, unsubscribe: str | None) -> dict[str, str]:
    """Threading and list headers for one of a game's emails.  An email to a
    player carries their reply address (``Reply-To``) and its token in the
    ``Message-ID``, so a reply to the From address still names it.

    The game-started email is the thread's root (:func:`thread_id`, the same
    on every try to send it); every other email has a Message-ID of its own,
    built from its row, and answers the root."""
    game_id = notification.game_id
    seq = notification.event_seq or 0
    domain = site_domain()
    user_id = notification.user_id
    token = f".{reply_token(user_id, game_id)}" if user_id is not None else ""
    local = f"game-{game_id}.{seq}.{notification.kind}.{notification.pk}{token}"
    root = thread_id(game_id, user_id)
    headers = {
        "Message-ID": f"<{local}@{domain}>",
        "In-Reply-To": root,
        "References": root,
        "List-Id": f"Jumbulaya game {game_id} <game-{game_id}.{domain}>",
        **automatic_headers(unsubscribe),
    }
    if notification.kind == Kind.GAME_STARTED and user_id is not None:
        headers["Message-ID"] = root
        del headers["In-Reply-To"], headers["References"]
    if user_id is not None:
        headers["Reply-To"] = reply_address(user_id, game_id)
    inbound = notification.inbound
    if inbound is not None:
        # The answer to a player's reply: in their thread, and an automatic reply.
        headers["Auto-Submitted"] = "auto-replied"
        if MESSAGE_ID.fullmatch(inbound.message_id):
            headers["In-Reply-To"] = inbound.message_id
            headers["References"] = f"{root} {inbound.message_id}"
    return headers


class GameEmail(EmailMultiAlternatives):
    """An email whose long headers are never folded into RFC 2047 encoded words.

    ``List-Unsubscribe`` holds one long URL with no space in it; the default
    policy folds at 78 characters and would encode it, which mail clients cannot
    read.  RFC 5322 allows lines of 998 characters, so that is the limit used."""

    def message(
        self, *, policy: Policy | None = email.policy.default
    ) -> email.message.EmailMessage:
        policy = policy or email.policy.default
        if policy.max_line_length is not None and policy.max_line_length < MAX_HEADER_LINE:
            policy = policy.clone(max_line_length=MAX_HEADER_LINE)
        return super().message(policy=policy)


def build_message(
    subject: str, text: str, html: str, to: str, headers: dict[str, str]
) -> EmailMultiAlternatives:
    message = GameEmail(
        subject=one_line(subject),
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers=headers,
    )
    message.attach_alternative(html, "text/html")
    return message


# --- what each kind says -----------------------------------------------------


@dataclass
class Content:
    subject: str
    paragraphs: list[str]
    show_rack: bool = True
    show_history: bool = True
    #: The turn link (a move can be made through it); else a link to the game page.
    turn_link: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Situation:
    """What an email may know: the game as the recipient sees it."""

    notification: Notification
    user: User
    #: The recipient's seat; ``None`` for a player who left the game to a robot,
    #: answered when they reply (they see it as a spectator does).
    seat: Seat | None
    game: Game
    board: SeatView  # the kind's seat view
    log: list[Logged]
    shown: KindPresentation
    to_move: tuple[int, ...]  # the seats that may move now (the kind's progress)

    @property
    def index(self) -> int:
        """The recipient's seat's index: every email but an answer to a player
        who left has a seat."""
        assert self.seat is not None, "only reply answers go to a player who left"
        return self.seat.index

    @property
    def my_turn(self) -> bool:
        """Whether the recipient's seat may move now."""
        return self.seat is not None and self.seat.index in self.to_move

    def told(self) -> Logged | None:
        """The log's entry for the event the email was owed for."""
        seq = self.notification.event_seq
        return next((entry for entry in self.log if entry.seq == seq), None)

    @property
    def others(self) -> list[str]:
        mine = None if self.seat is None else self.seat.index
        return [n for i, n in enumerate(self.board.players) if i != mine]

    @property
    def against(self) -> str:
        return ", ".join(self.others)

    def deadline_sentence(self) -> str | None:
        deadline = self.game.deadline_at
        if deadline is None:
            return None
        return f"Deadline: {when(deadline, self.user)}, in {time_left(deadline)}."


def _your_turn(s: Situation) -> Content:
    paragraphs = [f"It is your turn in game {s.game.pk} against {names_in_words(s.others)}."]
    told = s.told()
    if told is not None and told.seq > 1:
        paragraphs.insert(0, told.words)
    if (d := s.deadline_sentence()) is not None:
        paragraphs.append(d)
    what = (
        told.headline
        if told is not None and told.seq > 1
        else f"you move first against {names_in_words(s.others)}"
    )
    return Content(f"Game {s.game.pk}: your turn — {what}", paragraphs)


def _started(s: Situation) -> Content:
    first = (
        "You move first."
        if s.my_turn
        else f"{s.board.turn_name} moves first; you will get an email when it is your turn."
    )
    return Content(
        f"Game {s.game.pk} has started: you against {s.against}",
        [
            f"Game {s.game.pk} has started: every seat is taken and the tiles are dealt. "
            f"You play against {names_in_words(s.others)}.",
            first,
            f"Each move has {s.game.move_time}.",
        ],
    )


def _game_over(s: Situation) -> Content:
    b = s.board
    if len(b.winner_names) == 1:
        result = f"{b.winner_names[0]} won"
    else:
        result = f"a tie between {names_in_words(b.winner_names)}"
    scores = ", ".join(f"{n} {sc}" for n, sc in zip(b.players, b.scores, strict=True))
    told = s.told()
    analysed = s.shown.analysis_template is not None
    paragraphs = [
        *([told.event_words] if told is not None else []),
        f"Game {s.game.pk} is over" + (f": {b.end_words}." if b.end_words else "."),
        f"Final scores: {scores}.",
        "You won. Congratulations!"
        if s.index in b.winners and len(b.winners) == 1
        else "You share the win. Congratulations!"
        if s.index in b.winners
        else f"The {'winner is' if len(b.winner_names) == 1 else 'winners are'} "
        f"{names_in_words(b.winner_names)}.",
        *_missed_chances(s),
        "The replay, the analysis and the game record are on the game page."
        if analysed
        else "The replay and the game record are on the game page.",
    ]
    extra: dict[str, Any] = {
        "replay_url": site_link("games:game_replay", s.game.pk),
        "score_table": score_series.game_series(s.game),
    }
    if analysed:
        extra["analysis_url"] = site_link("games:analysis", s.game.pk)
    return Content(
        f"Game {s.game.pk} is over: {result} ({scores})",
        paragraphs,
        show_rack=False,
        turn_link=False,
        extra=extra,
    )


def _missed_chances(s: Situation) -> list[str]:
    """The recipient's biggest missed chances, from the game's analysis (made
    now, without the robot, if none is stored yet), as the kind's presentation
    says them: a paragraph, or none (and none for a kind without analyses)."""
    if s.shown.analysis_template is None:
        return []
    try:
        result = analysis_of(s.game)
    except Exception:  # the email goes without them rather than not at all
        log.exception("game %s: no analysis for the game-over email", s.game.pk)
        return []
    return s.shown.missed_chances(result, s.index)


def _warning(s: Situation) -> Content:
    deadline = s.game.deadline_at
    left = time_left(deadline) if deadline else "little time"
    paragraphs = [
        f"Your move in game {s.game.pk} against {names_in_words(s.others)} is due in {left}"
        + (f", at {when(deadline, s.user)}." if deadline else "."),
        "If the deadline passes, your turn is passed for you"
        + (
            f"; after {s.game.timeout_limit} missed turn{pluralize(s.game.timeout_limit)} in "
            "a row your seat is removed "
            "from the game."
            if s.game.timeout_limit
            else "."
        ),
    ]
    return Content(f"Game {s.game.pk}: {left} left for your move", paragraphs)


def _timed_out(s: Situation) -> Content:
    n = s.seat.timeouts_in_a_row if s.seat is not None else 0
    limit = s.game.timeout_limit
    paragraphs = [
        f"The deadline for your move in game {s.game.pk} passed, so you were auto-passed: "
        "your turn was passed for you."
    ]
    if n and limit:
        paragraphs.append(
            f"That is {n} missed turn{'s' if n != 1 else ''} in a row; after {limit} a seat "
            "is removed from the game."
        )
    if s.board.turn_name and not s.board.over:
        paragraphs.append(f"It is now {s.board.turn_name}'s turn.")
    return Content(f"Game {s.game.pk}: your time ran out and you were auto-passed", paragraphs)


def _removed_seat(s: Situation) -> int | None:
    """The seat removed: the one whose resignation, written by the deadline
    sweep, the notification was owed for."""
    seq = s.notification.event_seq
    if seq is None:
        return None
    return (
        Event.objects.filter(game=s.game, seq=seq, type="resigned")
        .values_list("seat", flat=True)
        .first()
    )


def _removed(s: Situation) -> Content:
    index = _removed_seat(s)
    limit = s.game.timeout_limit
    missed = f"{limit} missed turn{pluralize(limit)} in a row" if limit else "repeated missed turns"
    if index == s.index:
        return Content(
            f"Game {s.game.pk}: you were removed after {missed}",
            [
                f"You were removed from game {s.game.pk} after {missed}"
                + (
                    ": the game is over, too few players remain."
                    if s.board.over
                    else "; the others play on without you."
                )
            ],
            show_rack=False,
            turn_link=False,
        )
    name = s.board.players[index] if index is not None else "a player"
    paragraphs = [f"{name} was removed from game {s.game.pk} after {missed}."]
    paragraphs.append(
        f"Game {s.game.pk} is over: too few players remain."
        if s.board.over
        else "The game goes on without them."
    )
    return Content(f"Game {s.game.pk}: {name} was removed after {missed}", paragraphs)


def _claims_open(s: Situation) -> Content:
    close = s.game.window_closes_at
    until = f"until {when(close, s.user)}, in {time_left(close)}" if close else "for a while"
    return Content(
        f"Game {s.game.pk}: a JUMBULAYA can be called"
        + (f" until {when(close, s.user)}" if close else ""),
        [
            f"The JUMBULAYA claim window of game {s.game.pk} is open {until}.",
            "A call made off your turn is sealed until the window closes; then the longest "
            "valid JUMBULAYA wins. A call on your turn is judged at once (a failed one costs "
            "that turn).",
            "To call, open the link below and send the move “jumbulaya WORD” (your word in "
            "place of WORD), or call it on the game page.",
        ],
    )


def _claims_closed(s: Situation) -> Content:
    paragraphs = [
        f"The JUMBULAYA claim window of game {s.game.pk} has closed, and the sealed calls "
        "were judged on the board as it stood.",
        *(f"Your call {words}." for words in s.shown.window_outcomes(s.game, s.index)),
    ]
    if s.board.over:
        paragraphs.append(
            f"Game {s.game.pk} is over" + (f": {s.board.end_words}." if s.board.end_words else ".")
        )
    elif s.my_turn:
        paragraphs.append("It is your turn.")
    elif s.board.turn_name:
        paragraphs.append(f"It is {s.board.turn_name}'s turn.")
    return Content(
        f"Game {s.game.pk}: what became of your JUMBULAYA call",
        paragraphs,
        show_rack=not s.board.over,
        turn_link=s.my_turn,
    )


def _quoted(text: str) -> list[str]:
    return ["> " + line for line in text.splitlines()[:6]] or ["> (nothing)"]


def _reply_subject(s: Situation, fallback: str) -> str:
    """``Re:`` the player's subject, to stay in their thread, unless that subject
    holds a move itself: a later reply would carry it back and make it again."""
    theirs = s.notification.inbound.subject if s.notification.inbound else ""
    if not theirs or s.shown.read_reply("", theirs).move is not None:
        return fallback
    return theirs if theirs.lower().startswith("re:") else f"Re: {theirs}"


def _words_of_reply(s: Situation, inbound: InboundMail) -> list[str]:
    """What a reply's move did, as the log says it: every entry from the move's
    first event (the one that carries the reply's key) to the state it made (a
    Tumble-Words crossword may close its round and open the next), never the
    move in the notation the reply was read into."""
    last = inbound.event_seq or 0
    first = (
        Event.objects.filter(
            game=s.game, seq__lte=last, source=Event.Source.EMAIL, idempotency_key__isnull=False
        )
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return [entry.words for entry in s.log if (first or last) <= entry.seq <= last]


def _reply_done(s: Situation) -> Content:
    inbound = s.notification.inbound
    assert inbound is not None, "a reply answer names its reply"
    if inbound.reason:  # a sealed JUMBULAYA claim
        close = s.game.window_closes_at
        said = (
            f"Your JUMBULAYA call of {inbound.move.split(maxsplit=1)[-1].upper()} is sealed: "
            "it is opened when the claim "
            f"window closes{f' at {when(close, s.user)}' if close else ''}, and the longest "
            "valid call wins."
        )
    elif s.seat is None and (left := left_game(s.game.pk, s.user.pk)) is not None:
        said = f"Done. {left_in_words(left)}"
    else:
        said = "Done, your move was made: " + " ".join(_words_of_reply(s, inbound))
    paragraphs = [said.strip()]
    if s.board.over:
        paragraphs.append(f"Game {s.game.pk} is over.")
    elif s.my_turn:
        paragraphs.append("It is your turn again.")
    elif s.board.turn_name:
        paragraphs.append(f"It is now {s.board.turn_name}'s turn.")
    return Content(
        _reply_subject(
            s,
            f"Game {s.game.pk}: your move was made"
            + (
                f" — {told.headline}"
                if (told := s.told()) is not None and not inbound.reason
                else ""
            ),
        ),
        paragraphs,
        show_history=False,
        turn_link=s.my_turn,
    )


def _reply_refused(s: Situation) -> Content:
    inbound = s.notification.inbound
    assert inbound is not None, "a reply answer names its reply"
    paragraphs = [
        f"Your reply to game {s.game.pk} was not played, and nothing changed.",
        inbound.reason,
        "What was read from your email:\n" + "\n".join(_quoted(inbound.read)),
    ]
    if inbound.move:
        paragraphs.append(f"Read as the move: {inbound.move}")
    *forms, note = s.shown.accepted_forms
    paragraphs.append(
        f"Reply with your move at the top of your email, for example: {', '.join(forms)}; {note}."
    )
    return Content(
        _reply_subject(s, f"Game {s.game.pk}: your reply was not played"),
        paragraphs,
        show_history=False,
    )


def _reply_hints(s: Situation) -> Content:
    """The answer to a ``hint`` reply: the hints found when it arrived, or why
    there are none (:func:`games.mail_in.hint_answers.hints_text`)."""
    inbound = s.notification.inbound
    assert inbound is not None, "a reply answer names its reply"
    mine = s.my_turn and not s.board.over
    return Content(
        _reply_subject(s, f"Game {s.game.pk}: hints"),
        [inbound.reason, "Nothing was played: reply with your move when you have chosen it."],
        show_history=False,
        turn_link=mine,
    )


KINDS = {
    Kind.REPLY_DONE: _reply_done,
    Kind.REPLY_HINTS: _reply_hints,
    Kind.REPLY_REFUSED: _reply_refused,
    Kind.YOUR_TURN: _your_turn,
    Kind.GAME_STARTED: _started,
    Kind.GAME_OVER: _game_over,
    Kind.DEADLINE_WARNING: _warning,
    Kind.TIMED_OUT: _timed_out,
    Kind.REMOVED: _removed,
    Kind.WINDOW_OPEN: _claims_open,
    Kind.WINDOW_CLOSED: _claims_closed,
}


# --- putting an email together -----------------------------------------------


def _recipient_seat(notification: Notification) -> tuple[Seat | None, list[Seat]] | None:
    """The recipient's seat and the game's seats (with their users, for the
    names the email shows), or ``None`` when nothing should be sent to them.
    A player who left the game to a robot has no seat (``None``), and gets
    the answers to their replies only."""
    user = notification.user
    if user is None or not user.email:
        return None
    if notification.kind not in REPLY_KINDS:  # a person who wrote to us gets an answer
        if user.email_mode == User.EmailMode.NONE:
            return None
        if user.email_mode == User.EmailMode.DIGEST and notification.kind in DIGEST_KINDS:
            return None  # the daily digest lists it
    seats = list(Seat.objects.filter(game_id=notification.game_id).select_related("user"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None and notification.kind in REPLY_KINDS:
        left = left_game(notification.game_id, user.pk) is not None
        return (None, seats) if left else None
    if seat is None or notification.kind in REPLY_KINDS:
        return None if seat is None else (seat, seats)
    if seat.muted:
        return None
    game = notification.game
    if notification.kind in TURN_KINDS and (
        game.status != Game.Status.PLAYING or not game.may_move(seat.index)
    ):
        return None  # the game moved on before the email went: no longer their turn
    if (
        notification.kind == Notification.Kind.YOUR_TURN
        and Notification.objects.filter(
            kind=notification.kind, user=user, game_id=game.pk, pk__gt=notification.pk
        ).exists()
    ):
        return None  # a newer turn of this game is owed them: that email says it
    return seat, seats


def render_game_email(
    notification: Notification,
    user: User,
    seat: Seat | None,
    seats: Sequence[Seat] | None = None,
) -> tuple[str, str, str, dict[str, str]]:
    """``(subject, text, html, headers)`` of a seat's game email (``seats``: the
    game's seats with their users, when the caller has them; ``seat`` ``None``:
    an answer to a player who left the game to a robot, who sees it as a
    spectator does, with no turn link)."""
    game = notification.game
    kind = kind_of(game)
    shown = presentation.of(kind)
    names = seat_names.names_now(game, seats)
    state = seat_names.renamed_state(kind, current_state(game), names)
    board = shown.seat_view(state, None if seat is None else seat.index)
    log = shown.game_log(game, names)
    to_move = kind.progress(state).to_move
    situation = Situation(notification, user, seat, game, board, log, shown, to_move)
    content = KINDS[Kind(notification.kind)](situation)
    moves = log[-RECENT_MOVES:] if content.show_history else []
    mute = unsubscribe_url(user.pk, game.pk)
    context = {
        "marker": REPLY_MARKER,
        "game": game,
        "kind_label": kind.label,
        "name": user.public_name,
        "paragraphs": content.paragraphs,
        "board": board,
        "board_text": shown.board_text(board),
        "scores": list(zip(board.players, board.scores, strict=True)),
        "hand": board.hand if content.show_rack else None,
        "moves": [entry.words for entry in moves],
        "link": turn_url(user.pk, game.pk, game.last_seq)
        if content.turn_link and not board.over and seat is not None
        else None,
        "game_url": site_link("games:game", game.pk),
        "reply_hint": None if board.over or seat is None else shown.reply_hint(game.last_seq),
        "preferences_url": site_link("games:email_preferences"),
        "mute_url": mute,
        "stop_url": unsubscribe_url(user.pk, None),
        "site_url": settings.JUMBULAYA_SITE_URL,
        "said": chat.for_email(notification, seat) if seat is not None else [],
        **content.extra,
    }
    text = render_to_string(kind.email_text_template, context)
    html = render_to_string(kind.email_html_template, context)
    return content.subject, text, html, game_headers(notification, mute)


def _invitation(notification: Notification) -> EmailMultiAlternatives | None:
    from games.mail_out.invitations import invitation_email

    rendered = invitation_email(notification)
    if rendered is None:
        return None
    subject, text, html, stop = rendered
    return build_message(subject, text, html, notification.email, game_headers(notification, stop))


def message_for(notification: Notification) -> EmailMultiAlternatives | None:
    """The email a notification row stands for, or ``None``: nothing to send
    (no game email wanted, the game muted, covered by the digest, or out of date)."""
    if notification.kind == Kind.INVITED:
        return _invitation(notification)
    found = _recipient_seat(notification)
    if found is None or notification.user is None or notification.kind not in KINDS:
        return None
    seat, seats = found
    user = notification.user
    subject, text, html, headers = render_game_email(notification, user, seat, seats)
    return build_message(subject, text, html, user.email, headers)
