"""The robot account Blockers' strongest level needs: ``robot-strong``.

Robot accounts are found by their level's name (``User.robot_level``), and a
level's name means the same in every kind that has it: Blockers' levels are
``beginner``, ``greedy`` and ``strong`` (``games.engine.blockers.robots.LEVELS``,
written out here: a migration must not change with the code), and the first
two have their accounts from migration 0004.  A test checks every level of
every kind has its account.
"""

from django.contrib.auth.hashers import make_password
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

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
        ("accounts", "0004_robot_accounts"),
    ]

    operations = [migrations.RunPython(make_robots, remove_robots)]
