"""The waits benchmark: how many API long polls the site as deploy/ serves it
(gunicorn, :data:`WORKERS` uvicorn workers, PostgreSQL, through ASGI) holds at once,
what they cost, and how a normal request fares meanwhile; then how soon 1,000 open
game pages (their live streams) hear of a move.

A fresh database gets :data:`GAMES` started games and their players' tokens.  A
normal request (``GET /api/v1/me``, a token's account) is timed :data:`PROBES`
times before any wait; then :data:`WAITS` long polls are opened, a player's
``JUMBULAYA_WAITS_PER_ACCOUNT`` (10) on each game's seat, each waiting up to 60 s
for its game to move; while they are held the normal request is timed again, and
the server's memory (the RSS of gunicorn and its workers) and its database
connections are read.  Then one move is made in each of :data:`MOVES` games, and
every wait on those games must answer with the move: the time from the move's
commit to each answer is the wake-up latency.  The rest are let go.

Then :data:`WAITS` game pages' live streams are opened (signed-in sessions, each
seat's player with :data:`PER_ACCOUNT` pages of their game), and a move is made in
every game in turn: the time from each move's commit to the ``changed`` event on
each of its game's pages is the live page's delay.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg

from .databases import BenchDatabase, admin_url, shown, unavailable
from .service import Server, _migrate, _server_env, _session, _setup_django
from .stats import note, percentile

BENCH_DB = "jumbulaya_bench_waits"
#: A game, its seq, its seats' API tokens and their signed-in sessions.
Bench = tuple[int, int, tuple[str, str], tuple[str, str]]
WORKERS = 2
PER_ACCOUNT = 10
GAMES = 50
WAITS = 2 * GAMES * PER_ACCOUNT  # every seat of every game waits its 10
PROBES = 200
MOVES = 10
WAIT_SECONDS = 60
#: Opening a thousand waits is a burst of a thousand authenticated requests: the
#: normal request is timed once they are all asleep.
SETTLE_SECONDS = 10.0

#: Goals of the waits figures.
GOALS: dict[str, str] = {
    "waits_held": f"{WAITS:,} long polls held at once by {WORKERS} workers on 2 cores",
    "waits_normal_request_p95_ms": "a normal request's p95 while they are held ≤ 50 ms",
    "waits_woken": "every wait on a game that moves answers with the move",
    "live_pages_p95_ms": f"{WAITS:,} open pages: p95 from a move's commit to its event ≤ 2,000 ms",
}


def _populate() -> list[Bench]:
    """(game, seq, the seats' tokens, their sessions) for :data:`GAMES` started games."""
    from accounts import access_tokens
    from accounts.models import User
    from games.core import lobby
    from games.engine.jumbulaya import PRESETS
    from games.models import Game

    out = []
    for i in range(GAMES):
        a, b = (
            User.objects.create_user(
                username=f"w{i}{s}", email=f"w{i}{s}@bench.test", display_name=f"W {i}{s}"
            )
            for s in "ab"
        )
        made = lobby.create_game(
            a, seat_count=2, rules=PRESETS["official"], invite_emails=[b.email]
        )
        lobby.join_game(made.pk, b)
        game = Game.objects.get(pk=made.pk)
        tokens = (access_tokens.make(a, "w").token, access_tokens.make(b, "w").token)
        out.append((game.pk, game.last_seq, tokens, (_session(a), _session(b))))
    return out


async def _pages(port: int, games: list[Bench]) -> dict[str, Any]:
    """Every seat's player with :data:`PER_ACCOUNT` pages of their game open, then a
    move in each game in turn: the delay from each move's commit to its event on
    each of the game's pages."""
    from tqdm import tqdm

    from games.core.door import submit
    from games.live.streams import current_version
    from games.models import Game

    def now_of(game: int) -> tuple[str, int, int]:
        seq, turn = Game.objects.values_list("last_seq", "turn_seat").get(pk=game)
        assert turn is not None
        return current_version(game), seq, turn

    opened: dict[int, list[tuple[asyncio.StreamReader, Any]]] = {}
    for game, _, _, sessions in tqdm(games, desc="opening pages", unit="game"):
        version, _, _ = await asyncio.to_thread(now_of, game)
        for session in sessions:
            for _ in range(PER_ACCOUNT):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(
                    f"GET /games/{game}/live/?seen={version}&active=1 HTTP/1.1\r\n"
                    f"Host: 127.0.0.1\r\nCookie: sessionid={session}\r\n\r\n".encode()
                )
                opened.setdefault(game, []).append((reader, writer))
    statuses: Counter[int] = Counter()
    for streams in opened.values():
        for reader, _ in streams:
            head = await asyncio.wait_for(reader.readline(), 30)
            statuses[int(head.split()[1]) if head else 0] += 1
    pages = sum(len(v) for v in opened.values())
    await asyncio.sleep(SETTLE_SECONDS)
    note(f"{pages} pages follow their games; a move in each game in turn")
    delays: list[float] = []
    missed = 0

    async def changed(reader: asyncio.StreamReader) -> bool:
        while line := await reader.readline():
            if line.startswith(b"event: changed"):
                return True
        return False

    for game, _, _, _ in tqdm(games, desc="moving", unit="game"):
        _, seq, turn = await asyncio.to_thread(now_of, game)
        await asyncio.to_thread(submit, game, turn, "pass", seq, "web", f"live-{game}")
        t0 = time.perf_counter()

        async def timed(reader: asyncio.StreamReader, t0: float = t0) -> float | None:
            try:
                if await asyncio.wait_for(changed(reader), 10):
                    return (time.perf_counter() - t0) * 1e3
            except TimeoutError:
                pass
            return None

        for took in await asyncio.gather(*(timed(r) for r, _ in opened[game])):
            if took is None:
                missed += 1
            else:
                delays.append(took)
    for streams in opened.values():
        for _, writer in streams:
            writer.close()
    return {
        "pages": pages,
        "statuses": dict(statuses),
        "told": len(delays),
        "missed": missed,
        "median_ms": round(percentile(delays, 50), 1) if delays else None,
        "p95_ms": round(percentile(delays, 95), 1) if delays else None,
        "max_ms": round(max(delays), 1) if delays else None,
    }


def _rss_mb(pid: int) -> float:
    """The resident memory of ``pid`` and its children, in MB."""
    total = 0
    pids = [pid]
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            pids += [int(p) for p in (task / "children").read_text().split()]
    for p in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return round(total / 1024, 1)


def _connections(db: BenchDatabase) -> int:
    with psycopg.connect(db.admin, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (db.name,)
        ).fetchone()
    return int(row[0]) if row else 0


def _probe(port: int, token: str) -> dict[str, Any]:
    """:data:`PROBES` normal requests, one after another, on one connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times, bad = [], 0
    for _ in range(PROBES):
        t0 = time.perf_counter()
        conn.request("GET", "/api/v1/me", headers={"Authorization": f"Bearer {token}"})
        resp = conn.getresponse()
        resp.read()
        times.append((time.perf_counter() - t0) * 1e3)
        bad += resp.status != 200
    conn.close()
    return {
        "median_ms": round(percentile(times, 50), 2),
        "p95_ms": round(percentile(times, 95), 2),
        "max_ms": round(max(times), 2),
        "errors": bad,
    }


async def _open(port: int, path: str, token: str) -> tuple[asyncio.StreamReader, Any]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        "Connection: close\r\n\r\n".encode()
    )
    await writer.drain()
    return reader, writer


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    data = await reader.read()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]) if head else 0, body


def _body_json(body: bytes) -> Any:
    with contextlib.suppress(ValueError):
        return json.loads(body)
    size, _, rest = body.partition(b"\r\n")  # chunked
    return json.loads(rest[: int(size, 16)])


def _answered(reader: asyncio.StreamReader) -> bool:
    """Whether the server has sent anything on a wait's connection (read nothing)."""
    buffered: bytearray = getattr(reader, "_buffer", bytearray())
    return reader.at_eof() or len(buffered) > 0


async def _hold(port: int, games: list[Bench], server: Server, db: BenchDatabase) -> dict[str, Any]:
    from tqdm import tqdm

    opened: list[tuple[int, asyncio.StreamReader, Any]] = []
    for game, seq, tokens, _ in tqdm(games, desc="opening waits", unit="game"):
        for token in tokens:
            for _ in range(PER_ACCOUNT):
                path = f"/api/v1/games/{game}/events?after={seq}&wait={WAIT_SECONDS}"
                reader, writer = await _open(port, path, token)
                opened.append((game, reader, writer))
    await asyncio.sleep(SETTLE_SECONDS)  # every request has reached its wait
    answered_early = sum(1 for _, reader, _ in opened if _answered(reader))
    out: dict[str, Any] = {"opened": len(opened), "answered_before_any_move": answered_early}
    out["server_rss_mb_held"] = _rss_mb(server.proc.pid)
    out["db_connections_held"] = _connections(db)
    note(f"{len(opened)} waits open; timing {PROBES} normal requests meanwhile")
    out["normal_request_while_held"] = await asyncio.to_thread(_probe, port, games[0][2][0])
    still = sum(1 for _, reader, _ in opened if not _answered(reader))
    out["held_after_probes"] = still
    # One move in each of MOVES games: every wait on them answers with it.
    moved = {g for g, _, _, _ in games[:MOVES]}
    from games.core.door import submit
    from games.models import Game

    woken: list[float] = []
    wrong = 0

    def turn_of(game: int) -> int:
        turn = Game.objects.values_list("turn_seat", flat=True).get(pk=game)
        assert turn is not None
        return turn

    for game, seq, _, _ in games[:MOVES]:
        turn = await asyncio.to_thread(turn_of, game)
        await asyncio.to_thread(submit, game, turn, "pass", seq, "web", f"bench-{game}")
        t0 = time.perf_counter()
        readers = [r for g, r, _ in opened if g == game]
        for status, body in await asyncio.gather(*(_answer(r) for r in readers)):
            woken.append((time.perf_counter() - t0) * 1e3)
            log = _body_json(body) if status == 200 else {}
            wrong += status != 200 or log.get("seq") != seq + 1
    out["woken"] = {
        "waits": len(woken),
        "expected": 2 * PER_ACCOUNT * MOVES,
        "wrong_answers": wrong,
        "median_ms": round(percentile(woken, 50), 1),
        "p95_ms": round(percentile(woken, 95), 1),
        "max_ms": round(max(woken), 1),
    }
    for game, _, writer in opened:
        if game not in moved:
            writer.close()
    return out


def run() -> dict[str, Any]:
    """The waits figures, or why they were skipped."""
    db = BenchDatabase(BENCH_DB, admin_url())
    why = unavailable(db)
    if why is not None:
        return {"skipped": why}
    began = time.perf_counter()
    var_dir = Path(tempfile.mkdtemp(prefix="jumbulaya-bench-waits-"))
    env = _server_env(db.url, var_dir) | {
        "JUMBULAYA_API_MAX_WAIT_SECONDS": str(WAIT_SECONDS),
        # Each account's waits, then its pages, each PER_ACCOUNT at once.
        "JUMBULAYA_WAITS_PER_ACCOUNT": str(2 * PER_ACCOUNT),
    }
    out: dict[str, Any] = {
        "database": shown(db.url),
        "workers": WORKERS,
        "worker_class": "uvicorn (ASGI)",
        "waits": WAITS,
    }
    try:
        note(f"creating and migrating {BENCH_DB}")
        db.recreate()
        _migrate(env)
        _setup_django(env)
        games = _populate()
        from django.db import connections

        connections.close_all()
        with Server(env, WORKERS) as server:
            server.wait_ready()
            token = games[0][2][0]
            _probe(server.port, token)  # warm up
            out["server_rss_mb_idle"] = _rss_mb(server.proc.pid)
            out["db_connections_idle"] = _connections(db)
            note(f"timing {PROBES} normal requests with no wait held")
            out["normal_request_idle"] = _probe(server.port, token)
            out |= asyncio.run(_hold(server.port, games, server, db))
            out["live_pages"] = asyncio.run(_pages(server.port, games))
            out["server_log_tail"] = server.log_tail(500) or None
        connections.close_all()
    finally:
        db.drop()
        shutil.rmtree(var_dir, ignore_errors=True)
    out["runtime_s"] = round(time.perf_counter() - began, 1)
    return out


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    if "woken" not in figures:
        return {}
    woken = figures["woken"]
    return {
        "waits_held": figures["opened"] == WAITS
        and figures["answered_before_any_move"] == 0
        and figures["held_after_probes"] == WAITS,
        "waits_normal_request_p95_ms": figures["normal_request_while_held"]["p95_ms"] <= 50
        and figures["normal_request_while_held"]["errors"] == 0,
        "waits_woken": woken["waits"] == woken["expected"] and woken["wrong_answers"] == 0,
        "live_pages_p95_ms": figures.get("live_pages", {}).get("missed") == 0
        and figures["live_pages"]["p95_ms"] <= 2000,
    }
