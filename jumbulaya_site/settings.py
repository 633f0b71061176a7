"""Settings for Jumbulaya by mail.

One plain file, read from the environment (see .env.example for every variable).
SQLite under var/ by default; PostgreSQL (or anything dj-database-url parses) via DATABASE_URL.
"""

import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str = "0") -> bool:
    """1/true/yes/on or 0/false/no/off (any case); unset or empty is the default.
    Anything else stops the process: a typo must not quietly turn a setting off."""
    value = (os.environ.get(name) or default).strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={os.environ.get(name)!r}: expected 1 or 0 (or true/false)")


def envstr(name: str, default: str = "") -> str:
    """The variable's value, or the default when it is unset or empty."""
    return os.environ.get(name) or default


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in envstr(name, default).split(",") if item.strip()]


def envint(name: str, default: str, minimum: int = 0, maximum: int | None = None) -> int:
    """A whole number, ``minimum`` or more (and ``maximum`` or less, when given); unset or
    empty is the default. Anything else stops the process."""
    value = envstr(name, default).strip()
    if (
        not re.fullmatch(r"[0-9]+", value)
        or int(value) < minimum
        or (maximum is not None and int(value) > maximum)
    ):
        bounds = f"{minimum} or more" if maximum is None else f"{minimum} to {maximum}"
        raise ImproperlyConfigured(f"{name}={value!r}: expected a whole number, {bounds}")
    return int(value)


DEBUG = envbool("DJANGO_DEBUG")

# Without a key, Django refuses whatever needs one (sessions, signed links) the moment it is
# used, while commands that need none (migrate, replay, wordlist) still run. DEBUG runs get a
# fixed development key; `manage.py check --deploy` reports a missing key.
SECRET_KEY = envstr("DJANGO_SECRET_KEY") or (
    "insecure-development-key-do-not-use-in-production" if DEBUG else ""
)
# Rotating the key: the old keys, comma-separated, still verify what they signed (sessions,
# sign-in and turn links, reply addresses) until they are dropped from this list.
SECRET_KEY_FALLBACKS = envlist("DJANGO_SECRET_KEY_FALLBACKS", "")

ALLOWED_HOSTS = envlist("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")

JUMBULAYA_VAR_DIR = Path(envstr("JUMBULAYA_VAR_DIR", str(BASE_DIR / "var")))
JUMBULAYA_WORDLIST_DIR = Path(
    envstr("JUMBULAYA_WORDLIST_DIR", str(JUMBULAYA_VAR_DIR / "wordlists"))
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "anymail",
    # django-ninja's own templates and static files: the API's docs page is served
    # from them (Swagger UI from this site, never from a CDN).
    "ninja",
    "games",
    "accounts",
    "devmail",
    "ops",
    "api",
    "ratings",
]

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:sign_in"
LOGIN_REDIRECT_URL = "games:dashboard"

MIDDLEWARE = [
    # Every failure under /api/ answered as JSON, whoever made it (api/middleware.py).
    "api.middleware.JsonAnswersMiddleware",
    "jumbulaya_site.middleware.RequestSizeLimitMiddleware",
    # While the database is away: 503s, and the log says so once (jumbulaya_site/outage.py).
    "jumbulaya_site.middleware.DatabaseOutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.sessions.RenewSessionsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = envstr("DJANGO_ROOT_URLCONF", "jumbulaya_site.urls")
WSGI_APPLICATION = "jumbulaya_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "games.web.mail_banner.mail_stopped",
            ],
        },
    },
]

# Database: DATABASE_URL, else SQLite at $JUMBULAYA_VAR_DIR/db.sqlite3.
DATABASE_URL = envstr("DATABASE_URL")
#: Set by jumbulaya_site/asgi.py: this process is the ASGI server's.
SERVING_ASGI = envbool("JUMBULAYA_SERVING_ASGI")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=600)}
    if SERVING_ASGI and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI each request runs its code in a thread of its own, so a
        # connection kept per thread would be one per request: connections come
        # from psycopg's pool instead, given back when each request ends.  (Celery's
        # processes and commands keep their persistent connections.)
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        # A pooled connection broken by a database restart is found and replaced
        # when it is taken (psycopg's check), not by the request it would fail with
        # a 503 after the database is back.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": envint("JUMBULAYA_DB_POOL_SIZE", "8", minimum=1),
            "timeout": 10,
        }
else:
    JUMBULAYA_VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(JUMBULAYA_VAR_DIR / "db.sqlite3"),
        }
    }

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run alongside the one writer; IMMEDIATE takes the write lock at
    # BEGIN so concurrent writers wait (busy timeout) instead of failing mid-transaction.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    # Tests use a file too: the in-memory default cannot serve several threads'
    # connections the way the real database does. One file per process, so test
    # runs side by side do not share one.
    DATABASES["default"]["TEST"] = {"NAME": str(JUMBULAYA_VAR_DIR / f"test-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = envstr("DJANGO_STATIC_URL", "/static/")
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(envstr("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))

# Mail. DEBUG runs keep every message in the local mailbox; production uses SMTP
# settings (EMAIL_HOST and friends) unless EMAIL_BACKEND names another backend.
#: The local mailbox page (/dev/mailbox): on in DEBUG, or by setting.
JUMBULAYA_MAILBOX = envbool("JUMBULAYA_MAILBOX", "1" if DEBUG else "0")
#: The mailbox answers this machine only (loopback clients, and a run bound to a loopback
#: RUN_HOST): 1 shows it to everyone who can reach the server (devmail/loopback.py).
JUMBULAYA_DEV_MAILBOX_PUBLIC = envbool("JUMBULAYA_DEV_MAILBOX_PUBLIC")
# Mail goes through django-anymail to any ESP it supports, chosen by EMAIL_BACKEND
# (e.g. anymail.backends.postmark.EmailBackend) with its ANYMAIL_* variables; the
# embedded default keeps every message in the local mailbox.
_MAIL_BACKEND = envstr(
    "EMAIL_BACKEND",
    "devmail.backend.EmailBackend"
    if JUMBULAYA_MAILBOX
    else "django.core.mail.backends.smtp.EmailBackend",
)
ANYMAIL = {
    name.removeprefix("ANYMAIL_"): value
    for name, value in os.environ.items()
    if name.startswith("ANYMAIL_") and value
}
# SMTP: the server, its credentials, STARTTLS (EMAIL_USE_TLS, usually port 587) or TLS
# from the first byte (EMAIL_USE_SSL, usually port 465), never both.
_SMTP_USE_TLS = envbool("EMAIL_USE_TLS")
_SMTP_USE_SSL = envbool("EMAIL_USE_SSL")
if _SMTP_USE_TLS and _SMTP_USE_SSL:
    raise ImproperlyConfigured(
        f"EMAIL_USE_SSL={os.environ.get('EMAIL_USE_SSL')!r}: EMAIL_USE_TLS is on too; "
        "set one of them (SSL: TLS from the start, usually port 465; TLS: STARTTLS, 587)"
    )
_SMTP_OPTIONS = {
    "host": envstr("EMAIL_HOST", "localhost"),
    "port": envint("EMAIL_PORT", "25", minimum=1),
    "username": envstr("EMAIL_HOST_USER"),
    "password": envstr("EMAIL_HOST_PASSWORD"),
    "use_tls": _SMTP_USE_TLS,
    "use_ssl": _SMTP_USE_SSL,
    # Seconds an SMTP connection waits on the server. A send gives up long before the
    # outbox's claim on its row lapses, so no other sender takes a row still being sent.
    "timeout": envint("EMAIL_TIMEOUT", "30", minimum=1, maximum=60),
}
MAILERS = {
    "default": {
        "BACKEND": _MAIL_BACKEND,
        "OPTIONS": _SMTP_OPTIONS if _MAIL_BACKEND.endswith("smtp.EmailBackend") else {},
    }
}
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "Jumbulaya <jumbulaya@localhost>")
#: The sender of the site's own error reports (Django's mail to ADMINS).
SERVER_EMAIL = envstr("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
#: Who is emailed when an alarm of ours is raised (ops/alarms.py: the mail server refusing
#: our password, an ESP saying our domain fails DMARC), at most once an hour per alarm.
ADMINS = envlist("DJANGO_ADMINS", "")
#: Where the site is reached, for links in emails.
JUMBULAYA_SITE_URL = envstr("JUMBULAYA_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Replies by email: game emails carry Reply-To <local>+<token>@<inbound domain>;
# the ESP's inbound route for that domain posts to /anymail/<esp>/inbound/
# (credentials: ANYMAIL_WEBHOOK_SECRET, and for Mailgun
# ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY, checked by django-anymail).
JUMBULAYA_INBOUND_DOMAIN = envstr("JUMBULAYA_INBOUND_DOMAIN", "reply.localhost").lower()
JUMBULAYA_INBOUND_LOCAL = envstr("JUMBULAYA_INBOUND_LOCAL", "play")
#: The ESPs whose inbound webhooks answer (postmark, mailgun); the others are 404s.
#: Default: the ESP of an anymail EMAIL_BACKEND, when it is one of those.
_BACKEND_ESP = _MAIL_BACKEND.removeprefix("anymail.backends.").partition(".")[0]
JUMBULAYA_INBOUND_ESPS = envlist(
    "JUMBULAYA_INBOUND_ESPS",
    _BACKEND_ESP if _BACKEND_ESP in {"postmark", "mailgun"} else "",
)
#: The largest post an inbound webhook takes.  Postmark posts a message's
#: attachments (up to 35 MB) base64-encoded in its JSON, about 47 MB; Mailgun
#: messages are at most 25 MB.  Django's bound on a body is set to this, and
#: RequestSizeLimitMiddleware holds every other path to the ordinary bound.
JUMBULAYA_WEBHOOK_MAX_BYTES = envint("JUMBULAYA_WEBHOOK_MAX_MB", "64", minimum=1) * 1024 * 1024
JUMBULAYA_REQUEST_MAX_BYTES = 2_621_440  # Django's default: 2.5 MB
DATA_UPLOAD_MAX_MEMORY_SIZE = JUMBULAYA_WEBHOOK_MAX_BYTES
#: Mail to an address stops after this many soft bounces, deferrals or failed sends
#: (a temporary 4xx that kept failing) within this many days (games/mail_out/tracking.py);
#: a hard bounce, a rejection or a spam complaint stops it at once.
JUMBULAYA_SOFT_BOUNCES = envint("JUMBULAYA_SOFT_BOUNCES", "3", minimum=1)
JUMBULAYA_SOFT_BOUNCE_DAYS = envint("JUMBULAYA_SOFT_BOUNCE_DAYS", "7", minimum=1)
#: Replies one sender may send in an hour; more are dropped unanswered.
JUMBULAYA_INBOUND_PER_HOUR = envint("JUMBULAYA_INBOUND_PER_HOUR", "30")
#: The longest message a player may send to a game, in characters, and how many
#: messages one player may send to one game in an hour (counted in the database).
JUMBULAYA_MESSAGE_MAX_CHARS = envint("JUMBULAYA_MESSAGE_MAX_CHARS", "500", minimum=1)
JUMBULAYA_MESSAGES_PER_HOUR = envint("JUMBULAYA_MESSAGES_PER_HOUR", "20", minimum=1)
#: How long a sign-in link works.
JUMBULAYA_SIGN_IN_MINUTES = envint("JUMBULAYA_SIGN_IN_MINUTES", "30", minimum=1)
# Account mails (sign-in links and address confirmations) the site sends an hour, counted in
# the database (accounts/limits.py): to one mailbox (the address in lower case, without a +tag
# or dots before the @), asked for by one client (an IPv4 address or an IPv6 /64, from
# REMOTE_ADDR), and in all. Each allows that many at once, then refills evenly over the hour.
JUMBULAYA_ACCOUNT_MAILS_PER_ADDRESS = envint("JUMBULAYA_ACCOUNT_MAILS_PER_ADDRESS", "5", minimum=1)
JUMBULAYA_ACCOUNT_MAILS_PER_CLIENT = envint("JUMBULAYA_ACCOUNT_MAILS_PER_CLIENT", "20", minimum=1)
JUMBULAYA_ACCOUNT_MAILS_PER_HOUR = envint("JUMBULAYA_ACCOUNT_MAILS_PER_HOUR", "200", minimum=1)
#: Games one account may create, and invitation emails its games may send, in any
#: 24 hours (counted in the database; staff are exempt; 0: no limit).
JUMBULAYA_GAMES_PER_DAY = envint("JUMBULAYA_GAMES_PER_DAY", "20")
JUMBULAYA_INVITATIONS_PER_DAY = envint("JUMBULAYA_INVITATIONS_PER_DAY", "10")
#: Records one account may upload to replay in a day (that many at once, then one every
#: 24 h / N; each counts, stored or refused), and the megabytes of record files it may keep
#: at once (deleting one makes room). Counted in the database; staff are exempt; 0: no limit.
JUMBULAYA_RECORD_UPLOADS_PER_DAY = envint("JUMBULAYA_RECORD_UPLOADS_PER_DAY", "20")
JUMBULAYA_RECORD_STORAGE_MB = envint("JUMBULAYA_RECORD_STORAGE_MB", "10")
#: The shortest time per move a game may have, in minutes: an hour unless the operator
#: chooses less (down to a minute: the database's own bound) or more (up to two weeks).
JUMBULAYA_MIN_MOVE_MINUTES = envint("JUMBULAYA_MIN_MOVE_MINUTES", "60", minimum=1, maximum=20160)
#: Days of absence (vacation) each player may declare per calendar year.
JUMBULAYA_VACATION_DAYS = envint("JUMBULAYA_VACATION_DAYS", "30")
#: Requests one API token may make a minute (that many at once, then one every 60/N
#: seconds), counted in the database so the limit holds across processes: 429 past it.
JUMBULAYA_API_REQUESTS_PER_MINUTE = envint("JUMBULAYA_API_REQUESTS_PER_MINUTE", "120", minimum=1)
#: The longest an API long poll (/api/v1/games/<id>/events?wait=N) holds its request.
#: It sleeps on the ASGI server's event loop (games/live/), holding no worker.
JUMBULAYA_API_MAX_WAIT_SECONDS = envint(
    "JUMBULAYA_API_MAX_WAIT_SECONDS", "20", minimum=0, maximum=60
)
#: How many waits (long polls) one account may hold at once; past it, 429.
JUMBULAYA_WAITS_PER_ACCOUNT = envint("JUMBULAYA_WAITS_PER_ACCOUNT", "10", minimum=1)
#: Behind one proxy that appends the client's address to X-Forwarded-For (the nginx
#: recipe in deploy/), read the client from there; else every client is the proxy.
JUMBULAYA_PROXY_FORWARDED_FOR = envbool("JUMBULAYA_PROXY_FORWARDED_FOR")
# Passwordless sign-in: a session lasts 30 days after the account last used it (renewed
# at the first request of each day, accounts.sessions.RenewSessionsMiddleware), so a
# browser left behind stops being signed in; signing in again is one email away.
SESSION_COOKIE_AGE = 30 * 24 * 3600

# Redis: the production broker. Empty means not configured.
REDIS_URL = envstr("REDIS_URL")

# The cache in front of the sessions: Redis when there is one, so every process
# sees the same sessions (a sign-out in one is a sign-out in all); else each
# process keeps its own.  The sessions live in the database: while Redis is
# away they are read from there (accounts/sessions.py).
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
SESSION_ENGINE = "accounts.sessions"

# Celery. Without a broker URL (and no Redis), the embedded default is kombu's
# filesystem transport under var/: it works between the processes of one machine.
# (It ignores the host; naming one spares every process kombu's "no hostname" warning.)
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL") or REDIS_URL or "filesystem://localhost/"
if CELERY_BROKER_URL.startswith("filesystem:"):
    _QUEUE_DIR = JUMBULAYA_VAR_DIR / "celery" / "queue"
    _QUEUE_DIR.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_QUEUE_DIR),
        "data_folder_out": str(_QUEUE_DIR),
        "control_folder": str(JUMBULAYA_VAR_DIR / "celery" / "control"),
        "store_processed": False,
    }
else:
    # A move must never wait long on a broker that is down: short timeouts, and
    # no reconnection attempts when the nudge is published (max_retries=0).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": 2,
        "socket_timeout": 5,
        "max_retries": 0,
    }
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker and beat wait for a broker that is away however long it stays away (Celery's
# default gives up after 100 attempts, and the process stops consuming). The worker runs
# --without-gossip --without-mingle --without-heartbeat (deploy/): the usual with Redis.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "jumbulaya_site.celery:PromptConsumer"  # back soon after the broker
CELERY_BEAT_SCHEDULER = "jumbulaya_site.celery:OutageScheduler"  # a broker away said once
CELERY_TASK_PUBLISH_RETRY = False  # the sweeps send what a lost nudge missed
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
# A send in progress when the broker goes away runs to its end (its outbox row records
# it): cancelling it mid-SMTP could deliver an email whose sending is never recorded.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(JUMBULAYA_VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "send-the-outbox": {"task": "games.tasks.sweep_outbox", "schedule": 30.0},
    "pass-late-players": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
    "close-claim-windows": {"task": "games.tasks.sweep_claim_windows", "schedule": 60.0},
    "send-digests": {"task": "games.tasks.send_digests", "schedule": 300.0},
    "play-robot-turns": {"task": "games.tasks.sweep_robot_turns", "schedule": 60.0},
    "prepare-seats-hints": {"task": "games.tasks.sweep_hints", "schedule": 60.0},
    "analyse-finished-games": {"task": "games.tasks.sweep_analyses", "schedule": 600.0},
}

# Security defaults for anything that is not a local DEBUG run.
if not DEBUG:
    SESSION_COOKIE_SECURE = envbool("DJANGO_SECURE_COOKIES", "1")
    CSRF_COOKIE_SECURE = envbool("DJANGO_SECURE_COOKIES", "1")
if envbool("DJANGO_SECURE_PROXY_SSL_HEADER"):
    # Only behind a proxy that sets X-Forwarded-Proto itself.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = envlist("DJANGO_CSRF_TRUSTED_ORIGINS", "")

# HTTPS, behind a proxy as in deploy/README.md. Unless DEBUG is on, plain-HTTP requests are
# redirected to HTTPS, and HTTPS responses tell browsers to use nothing else for a year
# (HSTS). /healthz answers over plain HTTP too: health checks reach gunicorn directly,
# without the proxy's X-Forwarded-Proto, and would take the redirect for a failure.
SECURE_SSL_REDIRECT = envbool("DJANGO_SECURE_SSL_REDIRECT", "0" if DEBUG else "1")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = envint("DJANGO_SECURE_HSTS_SECONDS", "0" if DEBUG else str(365 * 24 * 3600))
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool(
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", "0" if DEBUG else "1"
)
# Preloading binds every browser for months even after it is withdrawn: the operator must
# ask for it. Until then check --deploy's reminder that it is off (W021) is silenced.
SECURE_HSTS_PRELOAD = envbool("DJANGO_SECURE_HSTS_PRELOAD")
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

# Content-Security-Policy, in DEBUG runs too: scripts, styles and images from the site
# itself (STATIC_URL is a path on it), nothing inline (htmx is told in base.html to need
# neither a <style> nor eval), no plugins, no framing. The nonce serves Django's own pages
# that carry one (the CSRF failure page's <style>); its debug pages go without a policy.
# An email in the local mailbox has a policy of its own (devmail.views.EMAIL_CSP).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Operations: /healthz (ops/health.py) and the log lines (ops/logs.py).
#: Judge the heartbeats of beat, the workers and the sweeps, and the ages of the outbox and
#: the robot turns: by default wherever the broker is not the embedded default's
#: filesystem transport (there they are reported, not judged).
JUMBULAYA_HEALTH_EXPECT_WORKERS = envbool(
    "JUMBULAYA_HEALTH_EXPECT_WORKERS", "0" if CELERY_BROKER_URL.startswith("filesystem:") else "1"
)
#: A heartbeat (beat, worker, a sweep) older than this is late (a sweep: or twice its interval).
JUMBULAYA_HEALTH_SWEEP_MINUTES = envint("JUMBULAYA_HEALTH_SWEEP_MINUTES", "5", minimum=1)
#: The oldest email owed, or robot turn due, older than this is late.
JUMBULAYA_HEALTH_OUTBOX_MINUTES = envint("JUMBULAYA_HEALTH_OUTBOX_MINUTES", "10", minimum=1)
JUMBULAYA_HEALTH_ROBOT_MINUTES = envint("JUMBULAYA_HEALTH_ROBOT_MINUTES", "10", minimum=1)
#: "json": every log line a JSON object (ops.logs.JsonFormatter), for a collector;
#: "plain" (the default): text for people.
JUMBULAYA_LOG_FORMAT = envstr("JUMBULAYA_LOG_FORMAT", "plain")
if JUMBULAYA_LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured(f"JUMBULAYA_LOG_FORMAT={JUMBULAYA_LOG_FORMAT!r}: plain or json")
# In JSON, a worker's own lines go through the same handler as everything else.
CELERY_WORKER_HIJACK_ROOT_LOGGER = JUMBULAYA_LOG_FORMAT == "plain"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
        "json": {"()": "ops.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": JUMBULAYA_LOG_FORMAT},
    },
    "root": {"handlers": ["console"], "level": envstr("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": envstr("DJANGO_LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}
