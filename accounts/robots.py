"""Robot accounts, one a level name, made when a level is first needed.

A robot is a user row (``User.robot_level``) so that it can hold a seat, have
ratings and a player page like anyone.  Its account is made the first time its
level is asked for, so a game kind that brings new level names needs no
migration.  The accounts made before this (``accounts`` migrations 0004 and
0006) have the same address and are found as they are, ratings and all.

The account is keyed by its address, ``robot-<level>@robots.invalid``: no one
can sign up at that reserved domain (:func:`accounts.services.send_sign_in_link`),
whereas a person's handle may already be ``robot-<level>``.
"""

from __future__ import annotations

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction

from accounts.models import ROBOT_DOMAIN, User

#: How long a level name may be (``User.robot_level``'s length).
LEVEL_LENGTH = 16


def robot_email(level: str) -> str:
    """The reserved address of ``level``'s robot."""
    return f"robot-{level}@{ROBOT_DOMAIN}"


def robot_account(level: str) -> User:
    """The robot account of ``level``, made if it is not there yet.

    Safe when two transactions make it at once (on PostgreSQL as on SQLite):
    the one that loses the race meets the unique address, and fetches the row
    the other wrote, within a savepoint so that its own transaction goes on."""
    if not level or len(level) > LEVEL_LENGTH:
        raise ValueError(f"a robot level name has 1 to {LEVEL_LENGTH} characters, not {level!r}")
    found = User.objects.filter(robot_level=level).order_by("pk").first()
    if found is not None:
        return found
    email = robot_email(level)
    username = _free_username(f"robot-{level}")
    try:
        with transaction.atomic():
            return User.objects.create(
                username=username,
                email=email,
                display_name=f"Robot {level.title()}",
                robot_level=level,
                password=make_password(None),
                is_active=False,
                email_mode=User.EmailMode.NONE,
            )
    except IntegrityError:
        # Another transaction made it first (or took the handle meanwhile: then
        # there is no row at the address yet, and this raises as it should).
        return User.objects.get(email=email)


def _free_username(base: str) -> str:
    """``base``, or ``base2``, ``base3``… when a person's handle is ``base``."""
    taken = set(User.objects.filter(username__startswith=base).values_list("username", flat=True))
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}{n}"
    return candidate
