"""What ``make run`` starts: web, a Celery worker and beat under honcho
(``Procfile.dev``), on SQLite and kombu's filesystem broker under the var
directory, with no Redis and mail kept in the local mailbox.  A move made in one
process is mailed by the worker in another and shows in the web's mailbox, and
Ctrl-C stops every process."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

REPO = Path(__file__).resolve().parents[2]
#: How long the processes get to start, to deliver a mail and to stop.
WAIT = 90.0

#: Made in a process of its own, like a move from another browser: the demo game's
#: player to move passes; prints the game and the address of the player to move next.
MOVE = """
from games.core import door
from games.models import Event, Game
game = Game.objects.filter(status=Game.Status.PLAYING).order_by("pk").first()
seat = game.turn_seat
following = game.seats.get(index=1 - seat).user.email
door.submit(game.pk, seat, "pass", game.last_seq, Event.Source.WEB)
print("moved", game.pk, following)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def descendants(root: int) -> set[int]:
    """The processes below ``root`` (honcho starts each in a session of its own, so
    a process group does not find them)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # not a process, or gone
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def running(pids: set[int]) -> set[int]:
    """Those of ``pids`` that still run (a zombie has stopped)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:  # gone
        return ""


def stop(process: subprocess.Popen[bytes], pids: set[int]) -> None:
    """After a failure: Ctrl-C for honcho, then SIGKILL for whatever still runs."""
    pids = pids | descendants(process.pid)
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for pid in running(pids):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def wait_for(what: str, check: object, log: Path) -> object:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            found = check()  # type: ignore[operator]
        except OSError:
            found = None
        if found:
            return found
        time.sleep(0.5)
    pytest.fail(f"{what}: not within {WAIT:.0f} s. Processes' output:\n{log.read_text()[-4000:]}")


@pytest.fixture
def embedded_env(tmp_path: Path) -> dict[str, str]:
    """``make run``'s environment on a fresh var directory (the word list's cached
    index is reused)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "JUMBULAYA_MAILBOX"}
    }
    port = free_port()
    return env | {
        "DJANGO_DEBUG": "1",
        "JUMBULAYA_VAR_DIR": str(tmp_path / "var"),
        "JUMBULAYA_WORDLIST_DIR": str(settings.JUMBULAYA_WORDLIST_DIR),
        "JUMBULAYA_SITE_URL": f"http://127.0.0.1:{port}",
        "RUN_HOST": "127.0.0.1",
        "RUN_PORT": str(port),
        "PYTHONUNBUFFERED": "1",
    }


@pytest.fixture
def honcho(
    embedded_env: dict[str, str], tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], Path, set[int]]]:
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "--noinput"], ["demo"]):
        subprocess.run(
            manage + command, cwd=REPO, env=embedded_env, check=True, capture_output=True
        )
    log = tmp_path / "honcho.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "honcho"), "-f", "Procfile.dev", "start"],
            cwd=REPO,
            env=embedded_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, as in a terminal
        )
    #: The processes honcho started, as the test finds them.
    started: set[int] = set()
    try:
        yield process, log, started
    finally:
        stop(process, started)


def test_make_runs_processes_mail_a_move_and_stop_on_ctrl_c(
    honcho: tuple[subprocess.Popen[bytes], Path, set[int]], embedded_env: dict[str, str]
) -> None:
    process, log, started = honcho
    site = embedded_env["JUMBULAYA_SITE_URL"]

    def page(path: str) -> str:
        with urllib.request.urlopen(site + path, timeout=5) as response:
            return str(response.read().decode())

    wait_for("the web process answers", lambda: page("/healthz"), log)
    wait_for(
        "the worker and beat are up",
        lambda: (
            re.search(r"worker\.1 .*ready", log.read_text())
            and re.search(r"beat\.1 .*[Ss]tarting", log.read_text())
        ),
        log,
    )

    moved = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MOVE],
        cwd=REPO,
        env=embedded_env,
        check=True,
        capture_output=True,
        text=True,
    )
    made = re.search(r"^moved (\d+) (\S+)$", moved.stdout, re.M)
    assert made, moved.stdout
    game_id, following = made.groups()
    subject = f"Game {game_id}: your turn"
    mailbox = f"/dev/mailbox/?to={urllib.parse.quote(following)}"
    wait_for(f"{subject!r} to {following} in the mailbox", lambda: subject in page(mailbox), log)

    started |= descendants(process.pid)
    lines = " ".join(command_line(pid) for pid in running(started))
    served = "gunicorn jumbulaya_site.asgi:application --worker-class uvicorn_worker.UvicornWorker"
    for program in (served, "celery -A jumbulaya_site worker", "beat"):
        assert program in lines, (program, lines)

    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's process group
    try:
        process.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"honcho still runs after Ctrl-C:\n{log.read_text()[-4000:]}")
    wait_for("every process has stopped", lambda: not running(started), log)
    with pytest.raises(OSError):
        page("/healthz")
