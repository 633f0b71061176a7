"""The service benchmark: a real gunicorn server on PostgreSQL, driven over HTTP.

A fresh database (``jumbulaya_bench``) is migrated by ``manage.py migrate``, then
filled in this process (Django is set up here, pointed at that database): users,
:data:`GAMES` started 2-player games, and one user with :data:`BUSY_GAMES` active
games.  Players are signed in by writing their sessions straight into the
database.  gunicorn then serves the site (plus ``/bench/hello``, see
:mod:`bench.hello_urls`) with :data:`WORKERS` uvicorn workers (deploy's command,
through ASGI), and clients on ``http.client`` connections post passes, the
cheapest legal move, which the official preset accepts forever.

Figures: one client's move latency against the same client's hello-world latency,
the same move through the JSON API (``POST /api/v1/games/<id>/moves`` with a
personal access token) beside the game page's, moves per second from
:data:`THREADS` clients on each path, the dashboard of the busy user, and the
game page of a Tumble-Words game with hints on (:data:`HINTS_PAGE_RUNS` views
after its first; the hints stored once beforehand, as the task stores them).
Afterwards each game's log is replayed and compared with its cached state.

``python -m bench service --profile`` also runs a move (on the page and through
the API), the dashboard and the hello-world view through Django's test client in
this process and prints, on stderr, their wall, CPU and database time and the top
functions under cProfile.
"""

from __future__ import annotations

import cProfile
import http.client
import io
import json
import os
import pstats
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from .databases import BenchDatabase, admin_url, shown, unavailable
from .stats import note, summary

REPO = Path(__file__).resolve().parent.parent
BENCH_DB = "jumbulaya_bench"

GAMES = 60
BUSY_GAMES = 50
#: gunicorn's uvicorn workers (``JUMBULAYA_BENCH_WEB_WORKERS``: how moves per second
#: scale with web processes on this machine; docs/performance.md's scale table).
WORKERS = int(os.environ.get("JUMBULAYA_BENCH_WEB_WORKERS", "2"))
LATENCY_MOVES = 360  # six rounds over the games
THREADS = 8
THROUGHPUT_SECONDS = 10.0
DASHBOARD_RUNS = 150
#: Views of the game page with hints on, after its first (issue 33's goal is on these).
HINTS_PAGE_RUNS = 100
WARMUP = 20
SECRET_KEY = "bench"

_CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


# --- the database ------------------------------------------------------------


def _wordlist_dir() -> str:
    """The installed word lists (and their cached indexes), as the settings find them."""
    var = os.environ.get("JUMBULAYA_VAR_DIR") or str(REPO / "var")
    return os.environ.get("JUMBULAYA_WORDLIST_DIR") or str(Path(var) / "wordlists")


def _server_env(db_url: str, var_dir: Path) -> dict[str, str]:
    """The environment of the server, of ``migrate`` and of this process's Django.

    Moves queue notification tasks: they go to a filesystem broker in a scratch
    ``var_dir``, never to the tree's queue or a configured broker, where a worker
    would take them for rows of its own database."""
    return {
        "DATABASE_URL": db_url,
        "JUMBULAYA_VAR_DIR": str(var_dir),
        "JUMBULAYA_WORDLIST_DIR": _wordlist_dir(),
        "CELERY_BROKER_URL": "filesystem://localhost/",
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "DJANGO_SECRET_KEY": SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_SECURE_SSL_REDIRECT": "0",  # the clients speak plain HTTP
        "DJANGO_ROOT_URLCONF": "bench.hello_urls",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_DEBUG": "0",
        # No beat nor worker runs beside the bench's server: /healthz (its
        # readiness check) judges the database only, whatever the broker.
        "JUMBULAYA_HEALTH_EXPECT_WORKERS": "0",
        # One bench player creates 50 games: no daily limits on games or invitations.
        "JUMBULAYA_GAMES_PER_DAY": "0",
        "JUMBULAYA_INVITATIONS_PER_DAY": "0",
        # The API's clients pass as fast as they can: no token's rate limit may stop them.
        "JUMBULAYA_API_REQUESTS_PER_MINUTE": "100000000",
    }


def _migrate(env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        env=os.environ | env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py migrate failed:\n{done.stderr[-2000:]}")


def _setup_django(env: dict[str, str]) -> None:
    """Django in this process, on the bench database (before any model import)."""
    import django
    from django.conf import settings

    if settings.configured:
        name = settings.DATABASES["default"].get("NAME")
        if name != BENCH_DB:
            raise RuntimeError(f"Django is already set up on database {name!r}")
        return
    os.environ.update(env)
    django.setup()


# --- the data ----------------------------------------------------------------


@dataclass
class BenchGame:
    """A game as the client tracks it: who plays, whose turn, the last seq."""

    pk: int
    sessions: tuple[str, str]  # by seat
    tokens: tuple[str, str]  # the players' API tokens, by seat
    turn: int
    seq: int


@dataclass
class HintedGame:
    """A Tumble-Words game with hints on (the kind whose hints cost most: the
    strong robot's crossword), the first seat's hints stored as the task
    stores them after the deal."""

    pk: int
    session: str  # the first seat's, whose hints are stored
    prepare_ms: float  # the task's time to find and store them, once (this process)


@dataclass
class Data:
    games: list[BenchGame]
    busy_session: str
    users: int
    hinted: HintedGame


def _session(user: Any) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def _populate() -> Data:
    from accounts import access_tokens
    from accounts.models import User
    from games.core import lobby
    from games.engine.jumbulaya import PRESETS
    from games.models import Game

    rules = PRESETS["official"]
    players = [
        User.objects.create_user(
            username=f"bench{i}", email=f"bench{i}@bench.test", display_name=f"Bench {i}"
        )
        for i in range(2 * GAMES)
    ]
    busy = User.objects.create_user(username="busy", email="busy@bench.test", display_name="Busy")
    sessions = {u.pk: _session(u) for u in [*players, busy]}
    tokens = {u.pk: access_tokens.make(u, "bench").token for u in players}

    def started(creator: Any, other: Any) -> Game:
        game = lobby.create_game(
            creator, seat_count=2, rules=rules, move_hours=72, invite_emails=[other.email]
        )
        lobby.join_game(game.pk, other)
        return Game.objects.get(pk=game.pk)

    games = []
    for i in range(GAMES):
        a, b = players[2 * i], players[2 * i + 1]
        g = started(a, b)
        assert g.status == Game.Status.PLAYING and g.turn_seat is not None
        games.append(
            BenchGame(
                g.pk,
                (sessions[a.pk], sessions[b.pk]),
                (tokens[a.pk], tokens[b.pk]),
                g.turn_seat,
                g.last_seq,
            )
        )
    for i in range(BUSY_GAMES):
        started(busy, players[i % len(players)])
    return Data(games, sessions[busy.pk], len(sessions), _hinted_game())


def _hinted_game() -> HintedGame:
    """:class:`HintedGame`: its hints found by the task's own function (no
    worker runs beside the bench's server)."""
    from accounts.models import User
    from games.coach import hints
    from games.core import lobby
    from games.kinds.tumble.kind import TUMBLE

    ann, bob = (
        User.objects.create_user(
            username=f"hinted{i}", email=f"hinted{i}@bench.test", display_name=f"Hinted {i}"
        )
        for i in range(2)
    )
    game = lobby.create_game(
        ann,
        kind=TUMBLE.name,
        seat_count=2,
        rules=TUMBLE.presets["standard"],
        invite_emails=[bob.email],
        hints=True,
    )
    lobby.join_game(game.pk, bob)
    game.refresh_from_db()
    t0 = time.perf_counter()
    if not hints.prepare(game.pk, 0, game.last_seq):
        raise RuntimeError(f"the hints of game {game.pk}'s first seat were not stored")
    took = round((time.perf_counter() - t0) * 1000, 1)
    return HintedGame(game.pk, _session(ann), took)


# --- the server --------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The site as deploy/ serves it (gunicorn's uvicorn workers, through ASGI), in its
    own process group, stopped on exit."""

    def __init__(self, env: dict[str, str], workers: int) -> None:
        from .stack.topology import deploy_command

        self.port = _free_port()
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed by stop())
        argv = deploy_command("web", PORT=str(self.port), WEB_CONCURRENCY=str(workers))
        self.proc = subprocess.Popen(
            [
                *(a.replace("0.0.0.0:", "127.0.0.1:") for a in argv),
                "--log-level",
                "warning",
                "--no-control-socket",
            ],
            cwd=REPO,
            env=os.environ | env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )

    def log_tail(self, chars: int = 2000) -> str:
        self.log.seek(0)
        return self.log.read()[-chars:]

    def wait_ready(self, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.proc.returncode}):\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz")
                resp = conn.getresponse()
                resp.read()
                conn.close()
                if resp.status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer /healthz in {timeout} s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.log.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- the client --------------------------------------------------------------


@dataclass
class Client:
    """One keep-alive connection (reopened when the server closes it) and one CSRF
    token, with the timings and errors of its moves."""

    port: int
    csrf_cookie: str = ""
    csrf_field: str = ""
    errors: list[str] = field(default_factory=list)
    accepted: int = 0

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def request(
        self,
        method: str,
        path: str,
        session: str,
        body: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[http.client.HTTPResponse, bytes]:
        if headers is None:
            cookie = f"sessionid={session}"
            if self.csrf_cookie:
                cookie += f"; csrftoken={self.csrf_cookie}"
            headers = {"Cookie": cookie}
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # A keep-alive connection the server closed while idle: once more.
            self.conn.close()
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
        return resp, resp.read()

    def sign_csrf(self, game: BenchGame) -> None:
        """Load a game page once: the CSRF cookie and the form's token."""
        resp, body = self.request("GET", f"/games/{game.pk}/", game.sessions[game.turn])
        if resp.status != 200:
            raise RuntimeError(f"GET /games/{game.pk}/ answered {resp.status}")
        jar: SimpleCookie = SimpleCookie()
        for header in resp.msg.get_all("Set-Cookie") or []:
            jar.load(header)
        found = _CSRF_FIELD.search(body.decode())
        if "csrftoken" not in jar or found is None:
            raise RuntimeError("the game page set no CSRF cookie or form token")
        self.csrf_cookie = jar["csrftoken"].value
        self.csrf_field = found.group(1)

    def pass_move(self, game: BenchGame) -> int:
        """Post a pass for the player whose turn it is; the time in ns."""
        body = urlencode(
            {
                "csrfmiddlewaretoken": self.csrf_field,
                "notation": "pass",
                # A pass is asked about first ("Pass your turn?"); the bench answers yes.
                "confirmed": "yes",
                "expected_seq": game.seq,
                "idempotency_key": secrets.token_urlsafe(24),
            }
        )
        t0 = time.perf_counter_ns()
        resp, text = self.request("POST", f"/games/{game.pk}/move/", game.sessions[game.turn], body)
        ns = time.perf_counter_ns() - t0
        if resp.status in (302, 303) and resp.getheader("Location") == f"/games/{game.pk}/":
            self.accepted += 1
            game.seq += 1
            game.turn = 1 - game.turn
        else:
            self.errors.append(f"game {game.pk}: {resp.status} {text[:120]!r}")
            _resync(game)
        return ns

    def api_pass(self, game: BenchGame) -> int:
        """Post a pass through the JSON API with the player's token; the time in ns."""
        body = json.dumps({"move": "pass", "expected_seq": game.seq})
        headers = {
            "Authorization": f"Bearer {game.tokens[game.turn]}",
            "Content-Type": "application/json",
            "Idempotency-Key": secrets.token_urlsafe(24),
        }
        path = f"/api/v1/games/{game.pk}/moves"
        t0 = time.perf_counter_ns()
        resp, text = self.request("POST", path, "", body, headers)
        ns = time.perf_counter_ns() - t0
        if resp.status == 200:
            self.accepted += 1
            game.seq += 1
            game.turn = 1 - game.turn
        else:
            self.errors.append(f"API game {game.pk}: {resp.status} {text[:120]!r}")
            _resync(game)
        return ns

    def move(self, game: BenchGame, api: bool) -> int:
        return self.api_pass(game) if api else self.pass_move(game)

    def get(self, path: str, session: str) -> int:
        t0 = time.perf_counter_ns()
        resp, text = self.request("GET", path, session)
        ns = time.perf_counter_ns() - t0
        if resp.status != 200:
            self.errors.append(f"GET {path}: {resp.status} {text[:120]!r}")
        return ns

    def close(self) -> None:
        self.conn.close()


def _resync(game: BenchGame) -> None:
    """After a refused move: the game's turn and seq as the database has them."""
    from django.db import connection

    from games.models import Game

    row = Game.objects.get(pk=game.pk)
    game.seq, game.turn = row.last_seq, row.turn_seat if row.turn_seat is not None else game.turn
    connection.close()


def _errors(errors: list[str]) -> dict[str, Any]:
    """Refused or failed requests of one part: counted, with a few samples."""
    return {"count": len(errors), "samples": errors[:3]}


# --- the figures -------------------------------------------------------------


def _warm_up(port: int, data: Data) -> None:
    """Each worker loads the word list on its first move: make sure both have,
    with as many concurrent clients as workers (each on its own games)."""

    def run(games: list[BenchGame]) -> None:
        client = Client(port)
        client.sign_csrf(games[0])
        for i in range(WARMUP):
            client.pass_move(games[i % len(games)])
            client.get("/bench/hello", games[0].sessions[0])
        client.get("/dashboard/", data.busy_session)
        client.close()
        if client.errors:
            raise RuntimeError(f"warm-up moves refused: {client.errors[:3]}")

    threads = [
        threading.Thread(target=run, args=(data.games[i :: 2 * WORKERS],))
        for i in range(2 * WORKERS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def latency(port: int, data: Data) -> dict[str, Any]:
    """One client, sequentially: a move on the game page, a hello-world GET and a
    move through the API, in turn (so the two moves meet the same conditions)."""
    client = Client(port)
    client.sign_csrf(data.games[0])
    moves: list[float] = []
    hellos: list[float] = []
    api_moves: list[float] = []
    for i in range(LATENCY_MOVES):
        game = data.games[i % len(data.games)]
        moves.append(client.pass_move(game))
        hellos.append(client.get("/bench/hello", game.sessions[0]))
        api_moves.append(client.api_pass(data.games[(i + len(data.games) // 2) % len(data.games)]))
    client.close()
    move, hello = summary(moves, "ms"), summary(hellos, "ms")
    api_move = summary(api_moves, "ms")
    return {
        "move_latency_ms": move,
        "api_move_latency_ms": api_move,
        "hello_latency_ms": hello,
        "ratio": round(move["median"] / hello["median"], 2),
        "api_ratio": round(api_move["median"] / hello["median"], 2),
        "errors": _errors(client.errors),
    }


def throughput(port: int, data: Data, api: bool = False) -> dict[str, Any]:
    """:data:`THREADS` clients, each on its own games, passing as fast as they can
    (``api``: through the JSON API)."""
    clients = [Client(port) for _ in range(THREADS)]
    owned = [data.games[i::THREADS] for i in range(THREADS)]
    for client, games in zip(clients, owned, strict=True):
        client.sign_csrf(games[0])
    start = threading.Barrier(THREADS + 1)
    timings: list[list[float]] = [[] for _ in range(THREADS)]
    until = [0.0]

    def run(k: int) -> None:
        client, games = clients[k], owned[k]
        start.wait()
        i = 0
        while time.perf_counter() < until[0]:
            timings[k].append(client.move(games[i % len(games)], api))
            i += 1
        client.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    t0 = time.perf_counter()
    until[0] = t0 + THROUGHPUT_SECONDS
    start.wait()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    accepted = sum(c.accepted for c in clients)
    prefix = "api_" if api else ""
    return {
        f"{prefix}moves_per_second": round(accepted / elapsed, 1),
        f"{prefix}throughput": {
            "accepted": accepted,
            "elapsed_s": round(elapsed, 2),
            "client_threads": THREADS,
            "move_latency_under_load_ms": summary([ns for t in timings for ns in t], "ms"),
        },
        "errors": _errors([e for c in clients for e in c.errors]),
    }


def dashboard(port: int, data: Data) -> dict[str, Any]:
    client = Client(port)
    times = [client.get("/dashboard/", data.busy_session) for _ in range(DASHBOARD_RUNS)]
    client.close()
    return {
        "dashboard_ms": summary(times, "ms"),
        "dashboard_active_games": BUSY_GAMES,
        "errors": _errors(client.errors),
    }


def hints_page(port: int, data: Data) -> dict[str, Any]:
    """The game page with hints on, for the seat whose hints are stored: its
    first view, then :data:`HINTS_PAGE_RUNS` more, and one last that must show
    the hints (read from their row: the request never finds them)."""
    client = Client(port)
    path = f"/games/{data.hinted.pk}/"
    first = client.get(path, data.hinted.session)
    times = [client.get(path, data.hinted.session) for _ in range(HINTS_PAGE_RUNS)]
    _, body = client.request("GET", path, data.hinted.session)
    if b"Show a hint" not in body:
        client.errors.append(f"GET {path}: no hints shown")
    client.close()
    return {
        "hints_page_ms": summary(times, "ms"),
        "hints_page_first_ms": round(first / 1e6, 1),
        "hints_prepare_ms": data.hinted.prepare_ms,
        "errors": _errors(client.errors),
    }


def consistency(data: Data) -> dict[str, Any]:
    """Every bench game: as many events as its last seq, the seq the client
    tracked, and a replay equal to the cached state."""
    from games.core import rebuild
    from games.models import Event, Game

    problems: list[str] = []
    events = 0
    for bench_game in data.games:
        game = Game.objects.get(pk=bench_game.pk)
        count = Event.objects.filter(game=game).count()
        events += count
        if count != game.last_seq:
            problems.append(f"game {game.pk}: {count} events, last_seq {game.last_seq}")
        if bench_game.seq != game.last_seq:
            problems.append(f"game {game.pk}: client saw {bench_game.seq}, db {game.last_seq}")
        if rebuild.rebuild_projection(game, write=False):
            problems.append(f"game {game.pk}: cached state differs from the replay")
    return {
        "consistent": not problems,
        "consistency": {
            "games_checked": len(data.games),
            "events": events,
            "problems": problems[:5],
        },
    }


# --- profiling (python -m bench service --profile) ---------------------------


@dataclass
class _QueryClock:
    """A database execute wrapper: how many queries, and their wall time."""

    count: int = 0
    ns: int = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t0 = time.perf_counter_ns()
        try:
            return execute(sql, params, many, context)
        finally:
            self.ns += time.perf_counter_ns() - t0
            self.count += 1


def _measure(label: str, fn: Any, runs: int, top: int, out: io.StringIO) -> None:
    """``fn(i)`` ``runs`` times: wall, CPU and database time per call, then again
    under cProfile for the top functions."""
    from django.db import connection

    for i in range(10):  # the word list, connections, templates
        fn(i)
    clock = _QueryClock()
    with connection.execute_wrapper(clock):
        wall0, cpu0 = time.perf_counter_ns(), time.process_time_ns()
        for i in range(runs):
            fn(i)
        wall = (time.perf_counter_ns() - wall0) / runs / 1e6
        cpu = (time.process_time_ns() - cpu0) / runs / 1e6
    out.write(
        f"\n=== {label}: {wall:.2f} ms wall, {cpu:.2f} ms CPU per request in-process; "
        f"{clock.count / runs:.1f} queries taking {clock.ns / runs / 1e6:.2f} ms "
        f"(their wall time, round trips included)\n"
    )
    if not top:
        return
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(runs):
        fn(i)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def profile_server(data: Data, runs: int = 200, top: int = 30) -> str:
    """A move (on the page and through the API), the dashboard and the hello-world
    view through Django's test client in this process (no network): the server's
    side of each, with the database time apart and the top functions under cProfile."""
    from django.conf import settings
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import Client as TestClient

    client = TestClient(HTTP_HOST="127.0.0.1")

    def move(i: int) -> None:
        game = data.games[i % len(data.games)]
        client.cookies[settings.SESSION_COOKIE_NAME] = game.sessions[game.turn]
        resp = client.post(
            f"/games/{game.pk}/move/",
            {
                "notation": "pass",
                "confirmed": "yes",
                "expected_seq": game.seq,
                "idempotency_key": secrets.token_hex(),
            },
        )
        if resp.status_code != 302:
            raise RuntimeError(f"profiled move answered {resp.status_code}")
        # A browser's next page shows "Your move was made." and clears it; the HTTP
        # clients never send it back: neither does this one.
        client.cookies.pop(CookieStorage.cookie_name, None)
        game.seq += 1
        game.turn = 1 - game.turn

    def api_move(i: int) -> None:
        game = data.games[i % len(data.games)]
        resp = client.post(
            f"/api/v1/games/{game.pk}/moves",
            {"move": "pass", "expected_seq": game.seq},
            content_type="application/json",
            headers={
                "Authorization": f"Bearer {game.tokens[game.turn]}",
                "Idempotency-Key": secrets.token_hex(),
            },
        )
        if resp.status_code != 200:
            raise RuntimeError(f"profiled API move answered {resp.status_code}")
        game.seq += 1
        game.turn = 1 - game.turn

    def dashboard(i: int) -> None:
        client.cookies[settings.SESSION_COOKIE_NAME] = data.busy_session
        if client.get("/dashboard/").status_code != 200:
            raise RuntimeError("the profiled dashboard did not answer 200")

    def hello(i: int) -> None:
        client.get("/bench/hello")

    out = io.StringIO()
    _measure("hello", hello, runs, 0, out)
    _measure("move (pass)", move, runs, top, out)
    _measure("API move (pass)", api_move, runs, top, out)
    _measure("dashboard", dashboard, runs // 4, top, out)
    return out.getvalue()


# --- all of it ---------------------------------------------------------------


def run(profile: bool = False) -> dict[str, Any]:
    """The service figures, or why they were skipped."""
    db = BenchDatabase(BENCH_DB, admin_url())
    why = unavailable(db)
    if why is not None:
        return {"skipped": why}
    db_url = db.url
    began = time.perf_counter()
    out: dict[str, Any] = {
        "database": shown(db_url),
        "workers": WORKERS,
        "worker_class": "uvicorn (ASGI)",
    }
    var_dir = Path(tempfile.mkdtemp(prefix="jumbulaya-bench-"))
    env = _server_env(db_url, var_dir)
    try:
        note(f"creating and migrating {BENCH_DB}")
        db.recreate()
        t0 = time.perf_counter()
        _migrate(env)
        out["migrate_s"] = round(time.perf_counter() - t0, 1)
        _setup_django(env)
        note(f"creating {GAMES} games and a user with {BUSY_GAMES}")
        t0 = time.perf_counter()
        data = _populate()
        out["setup_s"] = round(time.perf_counter() - t0, 1)
        out["data"] = {"users": data.users, "games": GAMES, "busy_user_games": BUSY_GAMES}
        from django.db import connections

        connections.close_all()
        with Server(env, WORKERS) as server:
            server.wait_ready()
            note(f"gunicorn on port {server.port} with {WORKERS} uvicorn workers; warming up")
            _warm_up(server.port, data)
            note(f"{LATENCY_MOVES} moves and hellos, one client")
            errors: dict[str, Any] = {}
            part = latency(server.port, data)
            errors["latency"] = part.pop("errors")
            out |= part
            note(f"{THREADS} clients passing for {THROUGHPUT_SECONDS:.0f} s")
            part = throughput(server.port, data)
            errors["throughput"] = part.pop("errors")
            out |= part
            note(f"{THREADS} clients passing through the API for {THROUGHPUT_SECONDS:.0f} s")
            part = throughput(server.port, data, api=True)
            errors["api_throughput"] = part.pop("errors")
            out |= part
            note(f"dashboard x{DASHBOARD_RUNS}")
            part = dashboard(server.port, data)
            errors["dashboard"] = part.pop("errors")
            out |= part
            note(f"a game page with hints on x{HINTS_PAGE_RUNS}")
            part = hints_page(server.port, data)
            errors["hints_page"] = part.pop("errors")
            out |= part
            out["errors"] = errors
            out["server_log_tail"] = server.log_tail(500) or None
        note("checking the logs against the cached states")
        out |= consistency(data)
        if profile:
            note("profiling the server side in-process (stderr)")
            sys.stderr.write(profile_server(data))
        connections.close_all()
    finally:
        db.drop()
        shutil.rmtree(var_dir, ignore_errors=True)
    out["runtime_s"] = round(time.perf_counter() - began, 1)
    return out


#: Goals of the service figures.
GOALS: dict[str, str] = {
    "service_move_ratio": "move median / hello-world median ≤ 3 (one client)",
    "service_moves_per_second": f"≥ 300 accepted passes/s ({WORKERS} uvicorn workers, "
    f"{THREADS} clients)",
    "service_dashboard_ms": f"p95 ≤ 50 ms ({BUSY_GAMES} active games)",
    "service_hints_page_ms": "a game page with hints on (Tumble-Words): p95 ≤ 50 ms after "
    "its first view",
    "service_correct": "no refused request, and every log replays to its cached state",
}


def goals(service: dict[str, Any]) -> dict[str, bool]:
    """Which service goals are met (none when the figures were skipped)."""
    if "consistent" not in service:
        return {}
    errors = sum(part["count"] for part in service["errors"].values())
    return {
        "service_move_ratio": service["ratio"] <= 3,
        "service_moves_per_second": service["moves_per_second"] >= 300,
        "service_dashboard_ms": service["dashboard_ms"]["p95"] <= 50,
        "service_hints_page_ms": service["hints_page_ms"]["p95"] <= 50,
        "service_correct": errors == 0 and service["consistent"],
    }
