"""Users: signed in by email, known to other players by their display name."""

from __future__ import annotations

import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models

from accounts.names import shown_name

#: Robot accounts' addresses are at this reserved domain (RFC 2606): mail never goes there.
ROBOT_DOMAIN = "robots.invalid"


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
    #: A robot player's level (``games.engine.robots.LEVELS``); blank for people.
    #: Robot accounts are made by a migration, get no email and never sign in.
    robot_level = models.CharField(max_length=16, blank=True, db_index=True)

    def __str__(self) -> str:
        return self.public_name

    @property
    def is_robot(self) -> bool:
        return bool(self.robot_level)

    @property
    def public_name(self) -> str:
        """The display name, or ``player <id>`` while there is none or it is one
        the name rules refuse (stored before they did): what reaches other
        players' pages and emails is always a name the rules accept."""
        return shown_name(self.display_name) or f"player {self.pk}"


class MailAllowance(models.Model):
    """How much of one key's hourly allowance of account mails is in use (see
    :mod:`accounts.limits`).  In the database so that every process counts
    the same sends, with or without Redis.

    ``key`` names what is limited by a keyed hash (never a raw address or IP).
    ``full_at`` is when the allowance is whole again: each send moves it a
    share of the hour on, from now if it had passed.  A row whose ``full_at``
    has passed says no more than no row: rows an hour past it are deleted
    whenever a new row is made."""

    key = models.CharField(max_length=80, unique=True)
    full_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} (whole at {self.full_at:%Y-%m-%d %H:%M:%S})"
