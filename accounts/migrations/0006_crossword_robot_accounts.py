"""The robot account that the strongest level of the crossword game and of
Blockers needs, ``robot-strong``: their levels are ``beginner``, ``casual``,
``greedy`` and ``strong`` (:data:`games.kinds.crossword.robots.LEVELS`) and
``beginner``, ``greedy`` and ``strong`` (``games.engine.blockers.robots.LEVELS``),
written out here (a migration must not change with the code); the others share
JUMBULAYA's accounts of the same names.  A robot account plays each game at its
level of that game's kind."""

from django.contrib.auth.hashers import make_password
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db import migrations

LEVELS = ("strong",)
DOMAIN = "robots.invalid"


def make_robots(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    User = apps.get_model("accounts", "User")
    for level in LEVELS:
        User.objects.update_or_create(
            username=f"robot-{level}",
            defaults={
                "email": f"robot-{level}@{DOMAIN}",
                "display_name": f"Robot {level.title()}",
                "robot_level": level,
                "password": make_password(None),
                "is_active": False,
                "email_mode": "none",
            },
        )


def remove_robots(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    User = apps.get_model("accounts", "User")
    User.objects.filter(robot_level__in=LEVELS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_bots_and_access_tokens"),
    ]

    operations = [
        migrations.RunPython(make_robots, remove_robots),
    ]
