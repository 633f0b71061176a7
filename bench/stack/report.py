"""The count at the end: the ledger against the event log, the outbox against the
sink, the 5xx against the database's outage, latencies per channel."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from typing import Any

from .client import Recorder
from .driver import Ledger, Table, scan_leaks
from .faults import AFTERMATH_S, Window
from .sink import Mail
from .topology import Proc

#: Seconds after the database is back during which errors still count as its outage.
OUTAGE_GRACE = 5.0


def percentiles(values: list[float]) -> dict[str, Any]:
    """p50/p95/p99 (nearest rank, ms) and the count."""
    if not values:
        return {"count": 0, "p50": None, "p95": None, "p99": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1], 1)

    return {"count": len(ordered), "p50": at(50), "p95": at(95), "p99": at(99)}


def _letters(word: str) -> str:
    """A word's letters, whatever its spelling's brackets and hyphens."""
    return "".join(c for c in word.upper() if c.isalpha())


def moves(ledger: Ledger) -> dict[str, Any]:
    """Every move a player sent against the log: none lost, none made twice."""
    from games.kinds.jumbulaya.models import JumbulayaClaim
    from games.models import Event

    events = list(
        Event.objects.filter(source__in=["web", "link", "email"]).values_list(
            "game_id", "seq", "seat", "source", "idempotency_key"
        )
    )
    by_key = Counter(key for *_, key in events)
    keys = {}
    for entry in ledger.entries:
        if entry.channel in ("postmark", "mailgun"):
            keys["email:" + hashlib.sha256(entry.key.encode()).hexdigest()[:48]] = entry
        else:
            keys[entry.key] = entry
    # A call made while a claim window is open is sealed, not yet a move: it is a
    # claim row (the same word from a seat stored once) until the window closes.
    sealed = {
        (game, seat, _letters(word))
        for game, seat, word in JumbulayaClaim.objects.values_list("game_id", "seat", "word")
    }
    lost = [
        f"game {e.game} seat {e.seat} at {e.expected}: {e.notation} ({e.channel})"
        for e in ledger.entries
        if e.outcome in ("accepted", "duplicate")
        and e.key not in by_key
        and not (
            e.notation.startswith("jumbulaya ")
            and (e.game, e.seat, _letters(e.notation.split(" ", 1)[1])) in sealed
        )
    ]
    unknown = [f"game {g} seq {s} ({src})" for g, s, _, src, key in events if key not in keys]
    twice = [key for key, n in by_key.items() if n > 1]
    outcomes = Counter(e.outcome for e in ledger.entries)
    made = Counter(keys[key].channel for *_, key in events if key in keys)
    return {
        "sent": len(ledger.entries),
        "outcomes": dict(outcomes),
        "made_by_channel": dict(made),
        "lost": len(lost),
        "lost_samples": lost[:5],
        "made_twice": len(twice),
        "not_in_ledger": len(unknown),
        "not_in_ledger_samples": unknown[:5],
    }


def resent_after_a_kill(copies: list[Mail], kills: list[Window]) -> bool:
    """Whether a row's copies are the one case docs/performance.md allows: the first handed to
    the mail server by a worker SIGKILLed before it could record the send (it
    arrived at most 5 s before the kill), the row sent again once its claim's
    lease ran out, every copy with the same Message-ID."""
    first = min(copies, key=lambda m: m.arrived)
    return len({m.message_id for m in copies}) == 1 and any(
        k.start - 5 <= first.arrived <= k.start + 1 for k in kills
    )


def emails(
    mails: list[Mail],
    seats_by_email: dict[tuple[int, str], int],
    ledger: Ledger,
    kills: list[Window],
) -> dict[str, Any]:
    """Every row owed against what arrived: one delivery per row, but for a row
    whose sender was killed between the hand-over and its mark (``kills``: the
    worker SIGKILLs' windows); rows unsent listed."""
    from games.mail_out.emails import message_for
    from games.models import Notification

    by_row = Counter(m.row for m in mails if m.row is not None)
    copies_of: dict[int, list[Mail]] = {}
    for m in mails:
        if m.row is not None:
            copies_of.setdefault(m.row, []).append(m)
    resent: list[str] = []
    started = Counter((m.game, m.to) for m in mails if m.kind == "game_started")
    delays: list[float] = []
    duplicates, lost, skipped, retrying = [], [], 0, []
    rows = Notification.objects.select_related("user").order_by("pk")
    arrived_at = {m.row: m.arrived for m in mails if m.row is not None}
    for row in rows:
        address = (row.user.email if row.user is not None else row.email).lower()
        if row.kind == Notification.Kind.GAME_STARTED and row.user is not None:
            n = sum(c for (g, to), c in started.items() if g == row.game_id and address in to)
        else:
            n = by_row.get(row.pk, 0)
        copies = copies_of.get(row.pk, [])
        if n > 1 and copies and resent_after_a_kill(copies, kills):
            resent.append(f"row {row.pk} ({row.kind}, game {row.game_id}): {n} copies, one ID")
        elif n > 1:
            duplicates.append(f"row {row.pk} ({row.kind}, game {row.game_id}): {n} deliveries")
        if row.sent_at is None:
            if n == 0:
                retrying.append(
                    f"row {row.pk} ({row.kind}): {row.attempts} tries, "
                    f"claimed {row.taken_at}, last error {row.last_error[:80]!r}"
                )
            continue
        if n == 0:
            if message_for(row) is None:
                skipped += 1  # nothing to send (a turn already played, muted)
            else:
                lost.append(f"row {row.pk} ({row.kind}, game {row.game_id})")
        elif row.pk in arrived_at:
            delays.append((arrived_at[row.pk] - row.created_at.timestamp()) * 1e3)
    for mail in mails:
        if mail.game is not None:
            own = seats_by_email.get((mail.game, mail.to))
            scan_leaks(mail.html, own, f"email {mail.message_id}", ledger)
    return {
        "rows": rows.count(),
        "arrived": len(mails),
        "delivered_twice": len(duplicates),
        "delivered_twice_samples": duplicates[:5],
        "sent_again_after_a_sender_was_killed_mid_send": resent,
        "sent_but_not_arrived": len(lost),
        "lost_samples": lost[:5],
        "nothing_to_send": skipped,
        "still_retrying": retrying,
        "owed_to_arrival_ms": percentiles(delays),
    }


def server_errors(recorder: Recorder, down: list[tuple[float, float]]) -> dict[str, Any]:
    """5xx answers (and answers that never came), inside and outside the outage."""

    def during(at: float) -> bool:
        return any(a - 1 <= at <= b + OUTAGE_GRACE for a, b in down)

    fives = [(at, s, w) for at, s, w in recorder.rows if s >= 500]
    none = [(at, s, w) for at, s, w in recorder.rows if s == 0]
    outside = [f"{w}: {s}" for at, s, w in fives if not during(at)]
    return {
        "requests": len(recorder.rows),
        "5xx": len(fives),
        "5xx_by_status": dict(Counter(s for _, s, _ in fives)),
        "5xx_outside_db_outage": len(outside),
        "5xx_outside_samples": outside[:5],
        "no_answer": len(none),
        "no_answer_outside_db_outage": sum(1 for at, *_ in none if not during(at)),
    }


def games(tables: list[Table]) -> dict[str, Any]:
    from games.models import Game

    status = Counter(
        Game.objects.filter(pk__in=[t.pk for t in tables]).values_list("status", flat=True)
    )
    ends = Counter(
        Game.objects.filter(pk__in=[t.pk for t in tables]).values_list("end_reason", flat=True)
    )
    return {"games": len(tables), "status": dict(status), "ends": dict(ends)}


def _log_counts(window: Window, processes: list[Proc]) -> dict[str, int]:
    """Tracebacks and error lines each process logged from the fault's start to
    the end of its aftermath, and the database's away/back warnings."""
    counts: Counter[str] = Counter()
    for proc in processes:
        start = window.logs_before.get(proc.name, 0)
        stop = window.logs_after.get(proc.name)
        try:
            with proc.log_path.open("rb") as f:
                f.seek(start)
                text = f.read() if stop is None else f.read(max(0, stop - start))
        except OSError:
            continue
        counts["tracebacks"] += text.count(b"Traceback (most recent call last)")
        counts["error_lines"] += sum(
            1 for line in text.splitlines() if b'"level": "ERROR"' in line or b"ERROR/" in line
        )
        counts["database_away_lines"] += text.count(b"The database is away")
        counts["database_back_lines"] += text.count(b"The database is back")
    return dict(counts)


def fault_windows(
    windows: list[Window], recorder: Recorder, mails: list[Mail], processes: list[Proc]
) -> list[dict[str, Any]]:
    """Each fault: the answers given while it lasted (and ``AFTERMATH_S`` after),
    what the logs said, and the emails owed from ``AFTERMATH_S`` before it began
    (a send it may have cut) to ``AFTERMATH_S`` after it ended — the slowest of
    them from owed to arrived at the sink, and any not arrived."""
    from games.models import Notification

    arrived: dict[int, float] = {}
    for mail in mails:
        if mail.row is not None:
            arrived.setdefault(mail.row, mail.arrived)
    rows = list(Notification.objects.values_list("pk", "kind", "created_at", "sent_at"))
    out = []
    for w in windows:
        end = w.end or w.start
        answers = [s for at, s, _ in recorder.rows if w.start - 1 <= at <= end + AFTERMATH_S]
        owed, slowest, unsent = 0, (0.0, ""), 0
        for pk, kind, created, sent in rows:
            made = created.timestamp()
            if not w.start - AFTERMATH_S <= made <= end + AFTERMATH_S:
                continue
            got = arrived.get(pk)
            owed += 1
            if got is None:
                unsent += sent is None
                continue
            slowest = max(slowest, (got - made, f"row {pk} ({kind})"))
        out.append(
            {
                "fault": w.fault,
                "at": round(w.start, 1),
                "seconds": round(end - w.start, 1),
                "rows_made_during": sum(
                    1 for _, _, c, _ in rows if w.start <= c.timestamp() <= end
                ),
                "answers": len(answers),
                "5xx": sum(1 for s in answers if s >= 500),
                "5xx_by_status": dict(Counter(s for s in answers if s >= 500)),
                "no_answer": sum(1 for s in answers if s == 0),
                "logs": _log_counts(w, processes),
                "emails_owed_during": owed,
                "slowest_owed_to_arrived_s": round(slowest[0], 1),
                "slowest_email": slowest[1],
                "owed_during_not_arrived": unsent,
            }
        )
    return out
