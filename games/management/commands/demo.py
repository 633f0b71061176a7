"""``manage.py demo``: two demo players and a game between them, for a first look,
and a game of Ann's against a robot.

Idempotent: the users Ann (ann@example.com) and Bob (bob@example.com) are made
once, and a started two-player game between them only when they have no
unfinished one.  Prints a sign-in link for each so a newcomer can click straight
in (the links work once and expire like any sign-in link).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from accounts.models import User
from accounts.tokens import sign_in_url
from games import kinds
from games.core.lobby import create_game, join_game, play_against_robot
from games.mail_out.invitations import mark_invitations_sent
from games.models import Game

#: The command that prints fresh links, as typed in the repository on a fresh clone.
AGAIN = "make demo"

DEMO_USERS: tuple[tuple[str, str], ...] = (
    ("ann@example.com", "Ann"),
    ("bob@example.com", "Bob"),
)


def demo_user(email: str, name: str) -> tuple[User, bool]:
    user = User.objects.filter(email__iexact=email).first()
    if user is not None:
        return user, False
    return User.objects.create_user(username=email, email=email, display_name=name), True


def robot_game(ann: User) -> Game | None:
    """An unfinished game of Ann's against a robot, if there is one."""
    return (
        Game.objects.filter(seats__user=ann)
        .filter(seats__user__robot_level__gt="")
        .exclude(status=Game.Status.OVER)
        .order_by("pk")
        .first()
    )


def demo_game(ann: User, bob: User) -> Game | None:
    """An unfinished two-player game between the two, if there is one."""
    return (
        Game.objects.filter(seat_count=2, seats__user=ann)
        .filter(seats__user=bob)
        .exclude(status=Game.Status.OVER)
        .order_by("pk")
        .first()
    )


class Command(BaseCommand):
    help = "Create demo users Ann and Bob and a game between them; print sign-in links."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            users = []
            for email, name in DEMO_USERS:
                user, made = demo_user(email, name)
                users.append(user)
                self.stdout.write(f"{'Created' if made else 'Found'} demo user {name} <{email}>")
            ann, bob = users
            game = demo_game(ann, bob)
            if game is None:
                game = create_game(
                    ann,
                    seat_count=2,
                    rules=kinds.get(kinds.DEFAULT).presets["official"],
                    invite_emails=[bob.email],
                )
                join_game(game.pk, bob)
                mark_invitations_sent(game)  # Bob has joined: nothing to email
                self.stdout.write(f"Created demo game {game.pk} between Ann and Bob")
            else:
                self.stdout.write(f"Found demo game {game.pk} between Ann and Bob")
            robots = kinds.robot_levels(kinds.get(kinds.DEFAULT))
            against = robot_game(ann)
            if against is None and robots:
                against = play_against_robot(ann, robots[-1])
        minutes = settings.JUMBULAYA_SIGN_IN_MINUTES
        self.stdout.write("")
        self.stdout.write(f"Sign in with these links (each works once, for {minutes} minutes;")
        self.stdout.write(f"run `{AGAIN}` again for fresh ones):")
        for user in users:
            self.stdout.write(f"  {user.public_name}: {sign_in_url(user.email, user.last_login)}")
        game_url = settings.JUMBULAYA_SITE_URL + reverse("games:game", args=[game.pk])
        self.stdout.write(f"The demo game: {game_url}")
        if against is not None:
            url = settings.JUMBULAYA_SITE_URL + reverse("games:game", args=[against.pk])
            self.stdout.write(f"Ann against a robot: {url}")
        self.stdout.write("Anyone can play a robot now from the new-game page.")
