"""deploy/ says one thing everywhere: the Procfile, the compose file (with the
image's default command) and the systemd units run the same three commands with
the same options, and every environment variable they, .env.example and
deploy/README.md name is one the settings read (and the other way round)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"

#: Options that differ by host on purpose: where gunicorn listens, how many
#: workers it starts, and where beat keeps its schedule.
PER_HOST = {"--bind", "--workers", "--schedule"}
#: Read by the tests, not the settings (.env.example lists them as test-only).
TEST_ONLY = {"JUMBULAYA_REQUIRE_SERVICES", "JUMBULAYA_CHROMIUM"}


def settings_reads() -> set[str]:
    """Every variable jumbulaya_site/settings.py reads by name."""
    text = (REPO / "jumbulaya_site" / "settings.py").read_text()
    calls = r'(?:env(?:str|bool|int|list)|os\.environ\.get|os\.getenv)\(\s*"([A-Z][A-Z0-9_]*)"'
    return set(re.findall(calls, text))


def is_read(name: str) -> bool:
    """Read by name, or one of django-anymail's ``ANYMAIL_*`` (read by prefix)."""
    return name in settings_reads() or name.startswith("ANYMAIL_")


def env_example() -> set[str]:
    text = (REPO / ".env.example").read_text()
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", text, re.M))


def normalized(command: list[str]) -> tuple[str, ...]:
    """The program (without its directory) and its options, less the per-host ones."""
    words = [Path(command[0]).name, *command[1:]]
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        option = word.partition("=")[0]
        if option in PER_HOST:
            skip = "=" not in word
            continue
        kept.append(word)
    return tuple(kept)


def procfile() -> dict[str, tuple[str, ...]]:
    lines = (DEPLOY / "Procfile").read_text().splitlines()
    entries = dict(line.split(": ", 1) for line in lines if line.strip())
    return {name: normalized(shlex.split(entries[name])) for name in ("web", "worker", "beat")}


def _yaml_list(text: str) -> list[str]:
    """A command written as a flow list of double-quoted strings (JSON's syntax)."""
    return [str(word) for word in json.loads(text)]


def compose() -> tuple[dict[str, tuple[str, ...]], set[str]]:
    """The compose services' commands (web: the image's CMD) and the variables
    set in its ``environment``."""
    text = (DEPLOY / "compose.yaml").read_text()
    commands = {}
    for name in ("worker", "beat"):
        block = re.search(rf"^  {name}:\n((?:    .*\n|\s*\n)+)", text, re.M)
        assert block, name
        found = re.search(r"command: (\[[^\]]*\])", block.group(1), re.S)
        assert found, name
        commands[name] = normalized(_yaml_list(found.group(1)))
    assert not re.search(r"^  web:\n(?:    .*\n)*?    command:", text, re.M)
    cmd = re.search(r"^CMD (\[.*\])$", (DEPLOY / "Dockerfile").read_text(), re.M)
    assert cmd
    commands["web"] = normalized(_yaml_list(cmd.group(1)))
    app = re.search(r"^x-app: &app\n((?:  .*\n)+)", text, re.M)
    assert app
    env = re.search(r"^  environment:\n((?:    .*\n)+)", app.group(1), re.M)
    assert env
    names = set(re.findall(r"^    ([A-Z][A-Z0-9_]*):", env.group(1), re.M))
    return commands, names


def systemd() -> tuple[dict[str, tuple[str, ...]], set[str], set[str]]:
    """The units' commands, their ``Environment=`` variables and their
    ``EnvironmentFile=``s."""
    commands = {}
    names: set[str] = set()
    files: set[str] = set()
    for name in ("web", "worker", "beat"):
        unit = (DEPLOY / "systemd" / f"jumbulaya-{name}.service").read_text()
        start = re.search(r"^ExecStart=(.*)$", unit, re.M)
        assert start, name
        commands[name] = normalized(shlex.split(start.group(1)))
        for assignment in re.findall(r"^Environment=(.*)$", unit, re.M):
            names |= {word.partition("=")[0] for word in shlex.split(assignment)}
        files |= set(re.findall(r"^EnvironmentFile=(.*)$", unit, re.M))
    return commands, names, files


def test_the_three_ways_to_deploy_run_the_same_commands() -> None:
    from_procfile = procfile()
    from_compose, _ = compose()
    from_systemd, _, _ = systemd()
    assert from_compose == from_procfile
    assert from_systemd == from_procfile
    assert from_procfile["web"][:4] == (
        "gunicorn",
        "jumbulaya_site.asgi:application",
        "--worker-class",
        "uvicorn_worker.UvicornWorker",
    )
    assert from_procfile["worker"][:4] == ("celery", "-A", "jumbulaya_site", "worker")
    assert from_procfile["beat"][:4] == ("celery", "-A", "jumbulaya_site", "beat")
    # deploy/README.md's table names each command with the options that change
    # what it does (the log level and where it binds are the host's choice).
    readme = (DEPLOY / "README.md").read_text()
    shown = {
        name: " ".join(a for a in args if not a.startswith(("--loglevel", "--bind", "--workers")))
        for name, args in from_procfile.items()
        if name in ("worker", "beat")
    }
    web = "gunicorn jumbulaya_site.asgi:application --worker-class uvicorn_worker.UvicornWorker"
    for command in (web, *shown.values()):
        assert f"`{command}`" in readme, command


def test_every_unit_reads_one_environment_file() -> None:
    _, names, files = systemd()
    assert files == {"/etc/jumbulaya.env"}
    assert {n for n in names if not is_read(n)} == set()


def test_every_variable_deploy_names_is_one_the_settings_read() -> None:
    _, compose_env = compose()
    assert compose_env and {n for n in compose_env if not is_read(n)} == set()
    readme = (DEPLOY / "README.md").read_text() + (DEPLOY / "mail.md").read_text()
    documented = set(re.findall(r"^([A-Z][A-Z0-9_]*)=", readme, re.M))
    assert documented and {n for n in documented if not is_read(n)} == set()


def test_env_example_lists_exactly_what_the_settings_read() -> None:
    read = settings_reads()
    listed = env_example()
    assert read - listed == set(), "read by the settings, missing from .env.example"
    extra = {n for n in listed - read - TEST_ONLY if not n.startswith("ANYMAIL_")}
    assert extra == set(), "in .env.example, read by no setting"


def test_the_parsers_see_the_settings() -> None:
    """The checks above compare something: the settings read these, at least."""
    assert {"DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "JUMBULAYA_LOG_FORMAT"} <= (
        settings_reads()
    )
    assert normalized(["/x/.venv/bin/celery", "beat", "--schedule", "/s", "--loglevel=INFO"]) == (
        "celery",
        "beat",
        "--loglevel=INFO",
    )


def test_the_stack_test_runs_what_deploy_runs(tmp_path: Path) -> None:
    """``python -m bench stack`` starts deploy's commands, changing only what is per
    host (its loopback port, its number of web workers, its node names, the
    worker's processes and beat's schedule file)."""
    from bench.stack.topology import celery_beat, celery_worker, gunicorn

    web = gunicorn({}, 8123, 3, tmp_path).argv
    assert "127.0.0.1:8123" in web and "0.0.0.0:8123" not in web
    worker = celery_worker({}, 1, tmp_path, concurrency=4).argv
    assert worker[-3:] == ["-n", "worker1@%h", "--concurrency=4"]
    ran = {
        "web": normalized(web),
        "worker": normalized(worker[:-3]),
        "beat": normalized(celery_beat({}, 1, tmp_path).argv),
    }
    assert ran == procfile()


def test_a_worker_stop_lets_its_tasks_end_within_a_bound() -> None:
    """systemd's default sends SIGTERM to every process of the unit (a send cut
    mid-SMTP) and waits 90 s; the worker's unit sends it to the main process
    alone, whose warm shutdown lets the tasks running end, then SIGKILL to what
    is left after its TimeoutStopSec.  Compose's grace before SIGKILL is the
    same (Docker signals the main process alone)."""
    unit = (DEPLOY / "systemd" / "jumbulaya-worker.service").read_text()
    assert re.search(r"^KillMode=mixed$", unit, re.M)
    stop = re.search(r"^TimeoutStopSec=(\d+)$", unit, re.M)
    assert stop and 30 <= int(stop.group(1)) <= 120  # a send ends within EMAIL_TIMEOUT (30 s)
    assert not re.search(r"^(SendSIGKILL=no|TimeoutStopSec=infinity)", unit, re.M)
    block = re.search(
        r"^  worker:\n((?:    .*\n|\s*\n)+)", (DEPLOY / "compose.yaml").read_text(), re.M
    )
    assert block
    assert f"stop_grace_period: {stop.group(1)}s" in block.group(1)
