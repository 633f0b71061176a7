"""Starting and stopping the processes of the stack, each in its own process group.

PostgreSQL runs as the ``postgres`` OS user (it refuses root) from a cluster made
by ``initdb`` in a scratch directory; redis-server keeps nothing on disk.  Every
process listens on a free loopback port, and :meth:`Topology.close` kills every
process this module started, whatever happened before.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import redis

PG_BIN = Path("/usr/lib/postgresql/15/bin")
REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float) -> bool:
    """Whether something accepts connections on ``port`` within ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


class Proc:
    """One long-running command in a process group of its own, logging to a file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name, self.argv, self.env = name, argv, env
        self.log_path = log_dir / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.starts = 0
        #: Kept down on purpose (a fault, the end of the run): not restarted.
        self.held = False

    def start(self) -> None:
        """Start it (again); its log is appended to."""
        self._log = self.log_path.open("ab")  # closed by stop()
        self.proc = subprocess.Popen(
            self.argv,
            cwd=REPO,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            start_new_session=True,
        )
        self.starts += 1

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def children(self) -> list[int]:
        """The process's direct children (gunicorn's or Celery's workers)."""
        if not self.alive():
            return []
        out: list[int] = []
        task_dir = Path(f"/proc/{self.pid}/task")
        for task in task_dir.iterdir() if task_dir.exists() else []:
            try:
                out += [int(p) for p in (task / "children").read_text().split()]
            except OSError:
                continue
        return out

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole process group (a SIGKILL takes the workers too)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM, then SIGKILL to the group after ``grace`` s."""
        if self.proc is not None:
            self.kill(signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.kill(signal.SIGKILL)
                self.proc.wait(5)
            # Whatever the group still holds (a worker that outlived its parent).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


class Postgres:
    """A PostgreSQL 15 cluster of its own in ``root``, run by the ``postgres`` user."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "pgdata"
        self.port = free_port()
        self.log = root / "postgres.log"
        shutil.chown(root, "postgres")
        self._as_postgres(
            [str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"],
            timeout=120,
        )

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _as_postgres(self, argv: list[str], timeout: float) -> None:
        done = subprocess.run(
            ["runuser", "-u", "postgres", "--", *argv],
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed: {done.stderr[-1500:]}")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c max_connections=200 -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off"
        )
        pg_ctl = str(PG_BIN / "pg_ctl")
        argv = [pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.log), "-w"]
        self._as_postgres([*argv, "-t", "60", "start"], timeout=90)

    def stop(self) -> None:
        """A fast shutdown (open connections are cut); no error if it is not running."""
        pg_ctl = str(PG_BIN / "pg_ctl")
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                pg_ctl,
                "-D",
                str(self.data),
                "-m",
                "fast",
                "-w",
                "-t",
                "60",
                "stop",
            ],
            capture_output=True,
            timeout=90,
        )

    def kill(self) -> None:
        """The postmaster and its children, whatever state they are in."""
        pid_file = self.data / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().split()[0])
            os.kill(pid, signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass


class Redis:
    """A redis-server of its own: no RDB snapshots, no AOF."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        argv += ["--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", str(log_dir)]
        self.proc = Proc("redis", argv, dict(os.environ), log_dir)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (again, on the same port) and make sure the server answering
        there is this one: another process on the machine may have taken the
        port while it was down."""
        self.proc.start()
        if not wait_port(self.port, 20):
            raise RuntimeError(f"redis-server did not listen:\n{self.proc.log_tail()}")
        client = redis.Redis(port=self.port, socket_connect_timeout=5, socket_timeout=5)
        try:
            answering = client.info("server")["process_id"]
        finally:
            client.close()
        if answering != self.proc.pid:
            raise RuntimeError(
                f"port {self.port} is another redis-server's (pid {answering}) now:\n"
                f"{self.proc.log_tail()}"
            )

    def stop(self) -> None:
        self.proc.stop()


PROCFILE = REPO / "deploy" / "Procfile"


def deploy_command(name: str, **values: str) -> list[str]:
    """The command ``deploy/Procfile`` gives process ``name``, its program run
    from this virtualenv and each ``${VAR:-default}`` set from ``values`` (or
    its default), so the stack runs exactly what an operator deploys."""
    entries = dict(
        line.split(": ", 1) for line in PROCFILE.read_text().splitlines() if line.strip()
    )

    def value(m: re.Match[str]) -> str:
        return values.get(m.group(1), m.group(2) or "")

    argv = shlex.split(re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", value, entries[name]))
    return [str(VENV_BIN / argv[0]), *argv[1:]]


def gunicorn(env: dict[str, str], port: int, workers: int, log_dir: Path) -> Proc:
    """deploy/'s web command, bound to a loopback port."""
    argv = deploy_command("web", PORT=str(port), WEB_CONCURRENCY=str(workers))
    return Proc("web", [a.replace("0.0.0.0:", "127.0.0.1:") for a in argv], env, log_dir)


def celery_worker(
    env: dict[str, str], n: int, log_dir: Path, concurrency: int | None = None
) -> Proc:
    """deploy/'s worker command, with a node name of its own (two run at once) and,
    when given, its number of processes (Celery's default: one per core)."""
    argv = [*deploy_command("worker"), "-n", f"worker{n}@%h"]
    if concurrency is not None:
        argv.append(f"--concurrency={concurrency}")
    return Proc(f"worker{n}", argv, env, log_dir)


def celery_beat(env: dict[str, str], n: int, log_dir: Path) -> Proc:
    """deploy/'s beat command, with a schedule file of its own."""
    argv = [*deploy_command("beat"), "--schedule", str(log_dir / f"celerybeat-schedule-{n}")]
    return Proc(f"beat{n}", argv, env, log_dir)


class Topology:
    """The whole stack: PostgreSQL, Redis, gunicorn, two workers, beat (and a second
    beat the faults start for a while), with the environment they share."""

    def __init__(self, root: Path, env: dict[str, str], web_workers: int = 2) -> None:
        self.root = root
        self.postgres = Postgres(root)
        self.redis = Redis(root)
        self.web_port = free_port()
        self.env = dict(env)
        self.env |= {"DATABASE_URL": self.postgres.url, "REDIS_URL": self.redis.url}
        self.env["JUMBULAYA_SITE_URL"] = f"http://127.0.0.1:{self.web_port}"
        self.web = gunicorn(self.env, self.web_port, web_workers, root)
        self.workers = [celery_worker(self.env, n, root) for n in (1, 2)]
        self.beat = celery_beat(self.env, 1, root)
        self.extra_beat = celery_beat(self.env, 2, root)
        #: The processes :meth:`supervise` started again, with their exit codes.
        self.restarts: list[dict[str, object]] = []

    def supervise(self, stop: threading.Event) -> None:
        """What systemd's ``Restart=always`` does for deploy/'s units: start again,
        after a moment, a process of the stack that exited unbidden, noting it in
        :attr:`restarts` (a thread; it returns when ``stop`` is set)."""
        while not stop.wait(1.0):
            for proc in [self.web, *self.workers, self.beat]:
                if proc.held or proc.proc is None or proc.proc.poll() is None:
                    continue
                code = proc.proc.returncode
                proc.start()
                self.restarts.append(
                    {"process": proc.name, "exit_code": code, "at": round(time.time(), 1)}
                )

    def processes(self) -> list[Proc]:
        """Every process of the stack but the data stores, each with its log."""
        return [self.web, *self.workers, self.beat, self.extra_beat]

    def manage(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """``manage.py`` with the stack's environment."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def start(self) -> None:
        """The data stores, the migrations, then the processes deploy/ runs."""
        self.postgres.start()
        self.redis.start()
        done = self.manage("migrate", "--noinput", "-v", "0")
        if done.returncode != 0:
            raise RuntimeError(f"migrate failed:\n{done.stderr[-2000:]}")
        self.web.start()
        if not wait_port(self.web_port, 60):
            raise RuntimeError(f"gunicorn did not listen:\n{self.web.log_tail()}")
        for proc in [*self.workers, self.beat]:
            proc.start()

    def close(self) -> None:
        """Stop everything this topology started, the data stores last."""
        for proc in self.processes():
            proc.held = True
        for proc in [self.extra_beat, self.beat, *self.workers, self.web]:
            try:
                proc.stop(grace=5)
            except Exception:  # stopping the rest matters more
                proc.kill()
        self.redis.proc.stop(grace=5)
        self.postgres.stop()
        self.postgres.kill()
