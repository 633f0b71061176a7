"""Production settings: HTTPS (the redirect and HSTS) on unless DEBUG, each from the
environment; ``check --deploy`` finds nothing with what deploy/README.md says to set;
a bad value stops the process at start."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

REPO = Path(__file__).resolve().parent.parent

#: A production environment as deploy/README.md describes it (each name is checked to
#: be there).
PRODUCTION = {
    "DJANGO_SECRET_KEY": "x7Qp2vL9sKd4mW8zR1tY6uN3bF5hJ0cG-aE_iO7lP2qS9wX4kM1nB8vZ3rT6yU",
    "DJANGO_ALLOWED_HOSTS": "jumbulaya.example.com",
    "DJANGO_SECURE_PROXY_SSL_HEADER": "1",
    "JUMBULAYA_SITE_URL": "https://jumbulaya.example.com",
    "ANYMAIL_WEBHOOK_SECRET": "inbound:h8Kq3Zr7Vt2Wm9Xp4Lc6",
}

#: The settings this file is about.
HTTPS_SETTINGS = [
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
]


def django(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``python *args`` in the repository, with ``env`` and nothing else of this
    process's environment but PATH (no DATABASE_URL, no DJANGO_DEBUG)."""
    base = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "jumbulaya_site.settings",
        "JUMBULAYA_VAR_DIR": str(tmp_path / "var"),
    }
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, env=base | env, capture_output=True, text=True
    )


def settings_in(tmp_path: Path, env: dict[str, str], names: list[str]) -> dict[str, Any]:
    """What the settings module makes of ``env``, for ``names``."""
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: getattr(settings, n) for n in {names!r}}}))"
    )
    done = django(tmp_path, env, "-c", code)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_check_deploy_finds_nothing_with_the_documented_production_settings(
    tmp_path: Path,
) -> None:
    documented = (REPO / "deploy" / "README.md").read_text()
    assert [name for name in PRODUCTION if name not in documented] == []
    done = django(tmp_path, PRODUCTION, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout, done.stdout + done.stderr


def test_https_is_on_by_default_in_production_and_off_in_debug(tmp_path: Path) -> None:
    assert settings_in(tmp_path, PRODUCTION, HTTPS_SETTINGS) == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 365 * 24 * 3600,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": False,  # a commitment: only when asked for
    }
    assert settings_in(tmp_path, {"DJANGO_DEBUG": "1"}, HTTPS_SETTINGS) == {
        "SECURE_SSL_REDIRECT": False,  # make run serves plain HTTP
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
    }


def test_each_https_setting_comes_from_the_environment(tmp_path: Path) -> None:
    chosen = PRODUCTION | {
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_HSTS_SECONDS": "3600",
        "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "false",
        "DJANGO_SECURE_HSTS_PRELOAD": "yes",
    }
    names = [*HTTPS_SETTINGS, "SILENCED_SYSTEM_CHECKS"]
    assert settings_in(tmp_path, chosen, names) == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 3600,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": True,
        "SILENCED_SYSTEM_CHECKS": [],  # preloading asked for: check --deploy says all
    }


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DJANGO_SECURE_HSTS_SECONDS", "abc"),
        ("DJANGO_SECURE_HSTS_SECONDS", "-1"),
        ("DJANGO_SECURE_SSL_REDIRECT", "ture"),
        ("DJANGO_DEBUG", "ture"),
        ("JUMBULAYA_WEBHOOK_MAX_MB", "0"),
        ("JUMBULAYA_ACCOUNT_MAILS_PER_HOUR", "0"),
        ("JUMBULAYA_VACATION_DAYS", "thirty"),
        ("EMAIL_USE_TLS", "maybe"),
        ("EMAIL_USE_SSL", "2"),
        ("EMAIL_TIMEOUT", "0"),
        ("EMAIL_TIMEOUT", "61"),
        ("EMAIL_TIMEOUT", "30s"),
        ("EMAIL_PORT", "smtp"),
        ("JUMBULAYA_MIN_MOVE_MINUTES", "0"),
        ("JUMBULAYA_MIN_MOVE_MINUTES", "20161"),
        ("JUMBULAYA_MIN_MOVE_MINUTES", "0.5"),
    ],
)
def test_a_bad_value_stops_the_start(tmp_path: Path, name: str, value: str) -> None:
    """Not a silent default: a typo must not turn HTTPS off."""
    done = django(tmp_path, PRODUCTION | {name: value}, "manage.py", "check")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"django.core.exceptions.ImproperlyConfigured: {name}={value!r}: ")


def test_old_keys_and_the_vacation_allowance_come_from_the_environment(tmp_path: Path) -> None:
    chosen = PRODUCTION | {
        "DJANGO_SECRET_KEY_FALLBACKS": "old-key-one, old-key-two",
        "JUMBULAYA_VACATION_DAYS": "12",
    }
    names = ["SECRET_KEY_FALLBACKS", "JUMBULAYA_VACATION_DAYS"]
    assert settings_in(tmp_path, chosen, names) == {
        "SECRET_KEY_FALLBACKS": ["old-key-one", "old-key-two"],
        "JUMBULAYA_VACATION_DAYS": 12,
    }
    assert settings_in(tmp_path, PRODUCTION, names) == {
        "SECRET_KEY_FALLBACKS": [],
        "JUMBULAYA_VACATION_DAYS": 30,
    }


def test_the_shortest_time_per_move_comes_from_the_environment(tmp_path: Path) -> None:
    names = ["JUMBULAYA_MIN_MOVE_MINUTES"]
    assert settings_in(tmp_path, PRODUCTION, names) == {"JUMBULAYA_MIN_MOVE_MINUTES": 60}
    chosen = PRODUCTION | {"JUMBULAYA_MIN_MOVE_MINUTES": "5"}
    assert settings_in(tmp_path, chosen, names) == {"JUMBULAYA_MIN_MOVE_MINUTES": 5}


@pytest.mark.django_db
def test_plain_http_is_redirected_to_https_but_healthz_answers(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 365 * 24 * 3600
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client()
    plain = client.get("/account/sign-in/?next=/dashboard/")
    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/account/sign-in/?next=/dashboard/"
    assert "Strict-Transport-Security" not in plain  # HSTS is only heard over HTTPS
    # A health check that reaches gunicorn directly, without the proxy's header.
    settings.JUMBULAYA_HEALTH_EXPECT_WORKERS = False  # no beat or worker in this test
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    # Through the proxy of deploy/README.md: HTTPS, and browsers are told to keep to it.
    proxied = client.get("/account/sign-in/", headers={"X-Forwarded-Proto": "https"})
    assert proxied.status_code == 200
    assert proxied["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


def test_the_benchmark_server_serves_production_settings_over_plain_http(tmp_path: Path) -> None:
    """``make bench`` drives gunicorn with production settings over plain HTTP."""
    from bench.service import Server, _migrate, _server_env

    env = _server_env(f"sqlite:///{tmp_path / 'bench.sqlite3'}", tmp_path / "var")
    _migrate(env)  # /healthz, which the server is waited on by, reads the heartbeats' table
    with Server(env, workers=1) as server:
        server.wait_ready()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/bench/hello")
        response = connection.getresponse()
        assert (response.status, response.read()) == (200, b"hello")
        connection.close()


#: The worker options usual with a Redis broker: without them the worker logs "Error on
#: restarting Gossip" once Redis is back after an outage.
WORKER_OPTIONS = ["--without-gossip", "--without-mingle", "--without-heartbeat"]


@pytest.mark.parametrize(
    "path",
    [
        "deploy/Procfile",
        "deploy/compose.yaml",
        "deploy/systemd/jumbulaya-worker.service",
        "deploy/README.md",
        "Procfile.dev",
    ],
)
def test_every_worker_command_runs_without_gossip_mingle_and_heartbeat(path: str) -> None:
    text = (REPO / path).read_text()
    # The worker's command, to the end of its line (compose: to the end of its list).
    at = text.index("jumbulaya_site" + ('", "worker"' if path.endswith(".yaml") else " worker"))
    command = text[at : text.index("]" if path.endswith(".yaml") else "\n", at)]
    for option in WORKER_OPTIONS:
        assert option in command, (path, command)


def test_the_worker_waits_for_the_broker_however_long_it_is_away(tmp_path: Path) -> None:
    assert settings_in(
        tmp_path,
        PRODUCTION | {"REDIS_URL": "redis://127.0.0.1:6379/0"},
        ["CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP", "CELERY_BROKER_CONNECTION_MAX_RETRIES"],
    ) == {
        "CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP": True,
        "CELERY_BROKER_CONNECTION_MAX_RETRIES": None,
    }


#: What the SMTP backend is built with (``mail.mailers["default"]``), printed as JSON.
SMTP_BACKEND = (
    "import json, django; django.setup(); from django.core import mail; "
    "from django.conf import settings; b = mail.mailers['default']; "
    "print(json.dumps([type(b).__module__, b.host, b.port, b.username, b.password, "
    "b.use_tls, b.use_ssl, b.timeout, settings.SERVER_EMAIL]))"
)


def test_the_smtp_server_its_credentials_tls_and_timeout_come_from_the_environment(
    tmp_path: Path,
) -> None:
    chosen = PRODUCTION | {
        "EMAIL_HOST": "smtp.example.com",
        "EMAIL_PORT": "587",
        "EMAIL_HOST_USER": "jumbulaya",
        "EMAIL_HOST_PASSWORD": "s3cret pass",
        "EMAIL_USE_TLS": "1",
        "EMAIL_TIMEOUT": "10",
        "SERVER_EMAIL": "errors@jumbulaya.example.com",
    }
    done = django(tmp_path, chosen, "-c", SMTP_BACKEND)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "django.core.mail.backends.smtp",
        "smtp.example.com",
        587,
        "jumbulaya",
        "s3cret pass",
        True,
        False,
        10,
        "errors@jumbulaya.example.com",
    ]
    ssl = chosen | {"EMAIL_USE_TLS": "", "EMAIL_USE_SSL": "yes", "EMAIL_PORT": "465"}
    done = django(tmp_path, ssl, "-c", SMTP_BACKEND)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[5:7] == [False, True]


def test_the_smtp_defaults(tmp_path: Path) -> None:
    done = django(tmp_path, PRODUCTION, "-c", SMTP_BACKEND)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "django.core.mail.backends.smtp",
        "localhost",
        25,
        "",
        "",
        False,
        False,
        30,
        "Jumbulaya <jumbulaya@localhost>",  # the error reports' sender: DEFAULT_FROM_EMAIL
    ]


def test_tls_and_ssl_together_stop_the_start(tmp_path: Path) -> None:
    both = PRODUCTION | {"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "true"}
    done = django(tmp_path, both, "manage.py", "check")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "django.core.exceptions.ImproperlyConfigured: EMAIL_USE_SSL='true': EMAIL_USE_TLS is on too"
    )


def test_check_deploy_finds_nothing_with_every_https_and_smtp_setting_chosen(
    tmp_path: Path,
) -> None:
    """An operator's production environment, each HTTPS and mail setting set explicitly."""
    chosen = PRODUCTION | {
        "DJANGO_SECURE_SSL_REDIRECT": "1",
        "DJANGO_SECURE_HSTS_SECONDS": "63072000",
        "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
        "EMAIL_HOST": "smtp.example.com",
        "EMAIL_PORT": "465",
        "EMAIL_HOST_USER": "jumbulaya",
        "EMAIL_HOST_PASSWORD": "s3cret",
        "EMAIL_USE_SSL": "1",
        "EMAIL_TIMEOUT": "20",
        "SERVER_EMAIL": "errors@jumbulaya.example.com",
    }
    done = django(tmp_path, chosen, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout, done.stdout + done.stderr
