"""Users: signed in by email, known to other players by their display name."""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.crypto import salted_hmac

from accounts.names import shown_name, shown_site_name

#: Robot accounts' addresses are at this reserved domain (RFC 2606): mail never goes there.
ROBOT_DOMAIN = "robots.invalid"
#: What follows a bot account's name wherever it is shown.
BOT_MARK = "(bot)"
#: Django's salt for the session hash: an account that never signed out everywhere
#: keeps the hash Django gives it, so no session ends by this code's arrival.
SESSION_HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not a time zone name such as Europe/Paris.")


class User(AbstractUser):
    """``username`` is an internal handle; people sign in with ``email`` and
    other players see ``display_name``, never the address."""

    email = models.EmailField(unique=True)
    display_name = models.CharField(max_length=40, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])

    class EmailMode(models.TextChoices):
        EVERY_TURN = "every", "an email for every turn"
        DIGEST = "digest", "one daily digest of the games awaiting me"
        NONE = "none", "no game emails"

    email_mode = models.CharField(max_length=8, choices=EmailMode, default=EmailMode.EVERY_TURN)
    #: The hour (0-23, in the user's time zone) the daily digest goes out.
    digest_hour = models.PositiveSmallIntegerField(default=8)
    #: When the last digest went out.
    digest_sent_at = models.DateTimeField(null=True, blank=True)
    #: A robot player's level (``games.engine.jumbulaya.robots.LEVELS``); blank for people.
    #: A level's account is made when it is first needed (:mod:`accounts.robots`);
    #: robots get no email and never sign in.
    robot_level = models.CharField(max_length=16, blank=True, db_index=True)
    #: A bot: an account its owner marked as played by a program through the API
    #: (as Lichess's bot accounts).  Its name is shown with "(bot)" after it.
    is_bot = models.BooleanField(default=False)
    #: How many times the account signed out everywhere: part of the hash every
    #: session keeps of its account (:meth:`get_session_auth_hash`), so moving it
    #: on ends every session signed in before.  API tokens do not depend on it.
    session_generation = models.PositiveIntegerField(default=0)
    #: Until when the account counts as here, on the site (a game page open and
    #: used in the last few minutes): "your turn" emails wait until it is away
    #: (:mod:`games.live.presence`).
    present_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.public_name

    def _session_hash(self, secret: str | None) -> str:
        held = self.password
        if self.session_generation:
            held = f"{held}\n{self.session_generation}"
        return salted_hmac(SESSION_HASH_SALT, held, secret=secret, algorithm="sha256").hexdigest()

    def get_session_auth_hash(self) -> str:
        """Django's hash of the password field, and of :attr:`session_generation`
        once the account has signed out everywhere: a session whose hash no
        longer matches is signed out at its next request."""
        return self._session_hash(None)

    def get_session_auth_fallback_hash(self) -> Iterator[str]:
        """:meth:`get_session_auth_hash` under each of ``SECRET_KEY_FALLBACKS``."""
        for secret in settings.SECRET_KEY_FALLBACKS:
            yield self._session_hash(secret)

    @property
    def is_robot(self) -> bool:
        return bool(self.robot_level)

    @property
    def public_name(self) -> str:
        """The display name, or ``player <id>`` while there is none or it is one
        the name rules refuse (stored before they did): what reaches other
        players' pages and emails is always a name the rules accept.  A bot's
        name says so: ``Ann's bot (bot)``.  A robot's name ("Robot Greedy",
        given by a migration) is one the rules keep from people, not from the
        site."""
        shown = shown_site_name if self.is_robot else shown_name
        name = shown(self.display_name) or f"player {self.pk}"
        return f"{name} {BOT_MARK}" if self.is_bot else name


class MailAllowance(models.Model):
    """How much of one key's allowance is in use (see :mod:`accounts.limits`:
    account mails an hour, API requests a minute, and the other limits counted
    there).  In the database so that every process counts the same sends, with
    or without Redis.

    ``key`` names what is limited by a keyed hash (never a raw address or IP).
    ``full_at`` is when the allowance is whole again: each send moves it a
    share of its period on, from now if it had passed.  A row whose ``full_at``
    has passed says no more than no row: rows an hour past it are deleted
    whenever a new row is made."""

    key = models.CharField(max_length=80, unique=True)
    full_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} (whole at {self.full_at:%Y-%m-%d %H:%M:%S})"


class AccessToken(models.Model):
    """A personal access token for the API (``Authorization: Bearer <token>``),
    made and revoked by its owner on the profile page and shown once.

    The token is ``jmb_<prefix>_<secret>``: ``prefix`` finds the row, and only
    the SHA-256 of the secret is kept (compared in constant time), so the
    table gives nobody a usable token.  Its requests count against its
    account's rate limit (:mod:`accounts.access_tokens`)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=16, unique=True)
    secret_sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} (jmb_{self.prefix}_…)"
