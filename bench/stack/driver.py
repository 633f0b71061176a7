"""The players: they start the games, then play them to the end over every channel.

A player decides from what its seat may see: the ``jumbulaya-view/1`` document of
its own seat (:func:`games.engine.jumbulaya.view.seat_view`, the robots' and hints' one
source), turned into a position with the other racks and the bag empty, on which
:func:`games.engine.legal_moves` lists its words.  Whose turn it is and the move
number come from the game row, as the game page shows them.

Every move is written in the :class:`Ledger` with its idempotency key; a move
whose answer did not come (a killed server worker, the database restarting) is
sent again with the same key, up to :data:`RETRIES` times.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from email.utils import format_datetime, make_msgid, parseaddr
from typing import Any
from urllib.parse import urlencode, urlsplit

from bench.inbound import CLIENT_DOMAIN, Credentials, mailgun, postmark
from bench.inbound import Reply as InboundReply
from bench.inbound import _quoted as quoted

from .client import Answer, Recorder, csrf_of, request
from .sink import Mail, Sink

#: Sends of one move before its outcome is left to the count at the end.
RETRIES = 40
#: Seconds a player waits for a reply's move to appear before going on.
REPLY_WAIT = 20.0
CHANNELS = ("web", "link", "postmark", "mailgun")
CHANNEL_WEIGHTS = (0.4, 0.2, 0.2, 0.2)


@dataclass
class Seat:
    index: int
    user_id: int
    name: str
    email: str
    session: str
    robot: bool
    sleeps: int  # turns this seat will leave to its deadline


@dataclass
class Table:
    """One game as the players know it."""

    pk: int
    seats: list[Seat]
    preset: str
    waiting_since: float = 0.0  # a sleeping seat's or a robot's turn: since when
    waiting_seq: int = -1
    window_closed_for: int = -1  # the seq at which a claim window was closed early
    finished: bool = False


@dataclass
class Entry:
    """One move a player sent: how, and what the service answered."""

    game: int
    seat: int
    expected: int
    notation: str
    channel: str
    key: str  # the idempotency key (a reply: its Message-ID)
    outcome: str = "unknown"  # accepted, duplicate, refused, unknown, posted
    tries: int = 0
    ms: float = 0.0


@dataclass
class Ledger:
    entries: list[Entry] = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    fallbacks: int = 0
    calls: dict[str, int] = field(default_factory=dict)
    sleeps: int = 0
    windows_closed: int = 0
    leaks: list[str] = field(default_factory=list)
    pages_scanned: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, entry: Entry) -> None:
        with self.lock:
            self.entries.append(entry)

    def time(self, channel: str, ms: float) -> None:
        with self.lock:
            self.latencies.setdefault(channel, []).append(ms)

    def count(self, what: str) -> None:
        with self.lock:
            self.calls[what] = self.calls.get(what, 0) + 1


def db_retry(fn: Any, tries: int = 60) -> Any:
    """``fn()`` on the database, again on a dropped connection (the database
    restarting) after a pause, up to ``tries`` times."""
    from django.db import InterfaceError, OperationalError, connection

    for k in range(tries):
        try:
            return fn()
        except (OperationalError, InterfaceError):
            connection.close()
            if k == tries - 1:
                raise
            time.sleep(1.0)
    return None


def scan_leaks(html: str, own: int | None, where: str, ledger: Ledger) -> None:
    """The leak scan of the tests (:func:`tests.markup.scan_html`): the only rack a
    page or email may show is its viewer's own."""
    from tests.markup import scan_html

    racks = set(scan_html(html).racks)
    allowed = {str(own)} if own is not None else set()
    with ledger.lock:
        ledger.pages_scanned += 1
        if racks - allowed:
            ledger.leaks.append(f"{where}: racks {sorted(racks - allowed)} shown to seat {own}")


class Player:
    """One driver thread's way of playing: it holds no state between turns but its RNG."""

    def __init__(
        self,
        port: int,
        sink: Sink,
        ledger: Ledger,
        recorder: Recorder,
        credentials: Credentials,
        seed: int,
    ) -> None:
        self.port, self.sink, self.ledger, self.recorder = port, sink, ledger, recorder
        self.credentials = credentials
        self.rng = random.Random(seed)

    # --- deciding -------------------------------------------------------------------

    def view(self, pk: int, seat: int) -> tuple[Any, Any]:
        """The seat's view of game ``pk`` and the word list (nothing else of the game)."""
        from games.core.projection import current_state, game_lexicon, kind_of, load_events
        from games.engine.jumbulaya.view import read_view
        from games.models import Game

        def read() -> tuple[Any, Any]:
            game = Game.objects.get(pk=pk)
            lexicon = game_lexicon(game)
            robots = kind_of(game).robots
            assert robots is not None
            doc = robots.seat_view(
                load_events(game), current_state(game), seat, lexicon=lexicon.name
            )
            return read_view(doc), lexicon

        result: tuple[Any, Any] = db_retry(read)
        return result

    def choose(self, pk: int, seat: int) -> str:
        """A legal word (one of the longest few), else a pass."""
        from games.engine.jumbulaya import legal_moves
        from games.engine.jumbulaya.view import view_state

        view, lexicon = self.view(pk, seat)
        moves = legal_moves(view_state(view), seat, lexicon)
        if not moves:
            return "pass"
        moves.sort(key=lambda m: -len(m.notation()))
        return str(self.rng.choice(moves[:3]).notation())

    def call(self, pk: int, seat: int) -> str | None:
        """A JUMBULAYA the seat could call on the public board, if any."""
        from games.engine import jumbulaya
        from games.engine.tiles import letters

        view, lexicon = self.view(pk, seat)
        found = jumbulaya.search([line.tiles for line in view.lines], lexicon, view.rules)
        if not found:
            return None
        return f"jumbulaya {letters(found[0].tiles)}"

    # --- the channels ---------------------------------------------------------------

    def _page(self, path: str, cookies: dict[str, str], own: int, what: str) -> Answer:
        for _ in range(RETRIES):
            answer = request(
                self.port, "GET", path, cookies=cookies, recorder=self.recorder, what=what
            )
            if answer.status == 200:
                scan_leaks(answer.body, own, f"{what} {path}", self.ledger)
                return answer
            time.sleep(1.0)
        return answer

    def _post(self, path: str, form: dict[str, Any], cookies: dict[str, str], what: str) -> Answer:
        body = urlencode(form).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return request(
            self.port,
            "POST",
            path,
            cookies=cookies,
            body=body,
            headers=headers,
            recorder=self.recorder,
            what=what,
        )

    def over_http(self, table: Table, seat: Seat, notation: str, seq: int, link: str) -> Entry:
        """A move on the game page (``link`` empty) or through a turn link: the
        page, the preview, then the move, sent again with the same key until
        an answer comes."""
        channel = "link" if link else "web"
        base = urlsplit(link).path if link else f"/games/{table.pk}/"
        cookies = {} if link else {"sessionid": seat.session}
        entry = Entry(table.pk, seat.index, seq, notation, channel, secrets.token_urlsafe(24))
        page = self._page(base, cookies, seat.index, channel)
        token = csrf_of(page)
        if token is None:
            entry.outcome = "no-page"
            self.ledger.add(entry)
            return entry
        cookies = cookies | {"csrftoken": token[0]}
        preview = f"{base}preview/"
        shown = self._post(
            preview,
            {"csrfmiddlewaretoken": token[1], "notation": notation},
            cookies,
            f"{channel}-preview",
        )
        if shown.status == 200:
            scan_leaks(shown.body, seat.index, f"{channel} preview", self.ledger)
        form = {
            "csrfmiddlewaretoken": token[1],
            "expected_seq": seq,
            "idempotency_key": entry.key,
            "confirmed": "yes",
        } | (
            {"jumbulaya_word": notation.split(" ", 1)[1]}
            if notation.startswith("jumbulaya ")
            else {"notation": notation}
        )
        move_path = base if link else f"{base}move/"
        for _ in range(RETRIES):
            entry.tries += 1
            answer = self._post(move_path, form, cookies, f"{channel}-move")
            if answer.status in (302, 303):
                entry.outcome, entry.ms = "accepted", answer.ms
                break
            if answer.status == 200:
                duplicate = "already received" in answer.body
                entry.outcome, entry.ms = ("duplicate" if duplicate else "accepted"), answer.ms
                scan_leaks(answer.body, seat.index, f"{channel} move", self.ledger)
                break
            if answer.status in (400, 403, 404, 409, 422):
                entry.outcome = f"refused-{answer.status}"
                break
            time.sleep(1.0 + self.rng.random())  # no answer, or 5xx: the same key again
        if entry.outcome in ("accepted", "duplicate"):
            self.ledger.time(channel, entry.ms)
        self.ledger.add(entry)
        return entry

    def by_reply(self, table: Table, seat: Seat, notation: str, mail: Mail, via: str) -> Entry:
        """A reply to ``mail`` posted to the ESP's inbound webhook (a third of them twice)."""
        from games.models import Game

        to = parseaddr(mail.reply_to)[1]
        date = format_datetime(_utc(mail.arrived))
        text, html = quoted(notation, mail.text, mail.html, date)
        reply = InboundReply(
            sender=(seat.name, seat.email),
            to=to,
            subject=f"Re: {mail.subject}",
            text=text,
            html=html,
            message_id=make_msgid(domain=CLIENT_DOMAIN),
            in_reply_to=mail.message_id,
            references=mail.message_id,
        )
        entry = Entry(table.pk, seat.index, mail.seq or 0, notation, via, reply.message_id)
        times = 2 if self.rng.random() < 0.33 else 1
        t0 = time.perf_counter()
        for _ in range(times):
            for _ in range(RETRIES):
                hook = (postmark if via == "postmark" else mailgun)(reply, "move", self.credentials)
                entry.tries += 1
                answer = request(
                    self.port,
                    "POST",
                    hook.path,
                    body=hook.body,
                    headers=hook.headers,
                    recorder=self.recorder,
                    what=f"{via}-webhook",
                )
                if answer.status == 200:
                    entry.outcome = "posted"
                    break
                time.sleep(1.0 + self.rng.random())  # the ESP posts again later
        end = time.monotonic() + REPLY_WAIT
        while time.monotonic() < end:
            seq = db_retry(lambda: Game.objects.values_list("last_seq", flat=True).get(pk=table.pk))
            if seq != entry.expected:
                self.ledger.time(via, (time.perf_counter() - t0) * 1e3)
                break
            time.sleep(0.3)
        self.ledger.add(entry)
        return entry


def _utc(ts: float) -> Any:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ts, UTC)


def play_turn(player: Player, table: Table) -> bool:
    """Play what is due in one game; whether the game is over."""
    from django.utils import timezone

    from games.models import Game

    game = db_retry(lambda: Game.objects.get(pk=table.pk))
    if game.status != Game.Status.PLAYING:
        table.finished = game.status == Game.Status.OVER
        return table.finished
    rng, ledger, seq = player.rng, player.ledger, game.last_seq
    if game.window_closes_at is not None and table.window_closed_for < 0 and rng.random() < 0.3:
        # A claim window lasts 12 hours: close it now (beat's sweep judges the calls).
        db_retry(
            lambda: Game.objects.filter(pk=table.pk, window_closes_at__isnull=False).update(
                window_closes_at=timezone.now() - timedelta(seconds=1)
            )
        )
        table.window_closed_for = seq
        with ledger.lock:
            ledger.windows_closed += 1
    humans = [s for s in table.seats if not s.robot]
    if rng.random() < 0.04 and humans:  # a JUMBULAYA call, in or out of turn
        caller = rng.choice(humans)
        call = player.call(table.pk, caller.index)
        if call is not None:
            ledger.count("in turn" if caller.index == game.turn_seat else "out of turn")
            player.over_http(table, caller, call, seq, "")
            return False
    if game.turn_seat is None:
        return False
    seat = table.seats[game.turn_seat]
    if seat.robot or table.waiting_seq == seq:
        if table.waiting_seq != seq:
            table.waiting_seq, table.waiting_since = seq, time.monotonic()
        return False  # a robot's task or beat's deadline sweep moves it
    if seat.sleeps > 0 and rng.random() < 0.5:
        seat.sleeps -= 1
        db_retry(
            lambda: Game.objects.filter(pk=table.pk, last_seq=seq).update(
                deadline_at=timezone.now() - timedelta(seconds=1)
            )
        )
        table.waiting_seq, table.waiting_since = seq, time.monotonic()
        with ledger.lock:
            ledger.sleeps += 1
        return False
    notation = player.choose(table.pk, seat.index)
    channel = rng.choices(CHANNELS, CHANNEL_WEIGHTS)[0]
    if channel != "web":
        mail = player.sink.newest_for(seat.email, table.pk)
        if mail is None or mail.seq != seq or not mail.turn_links:
            with ledger.lock:
                ledger.fallbacks += 1
            channel = "web"
        elif channel == "link":
            player.over_http(table, seat, notation, seq, mail.turn_links[0])
            return False
        else:
            player.by_reply(table, seat, notation, mail, channel)
            return False
    player.over_http(table, seat, notation, seq, "")
    return False
