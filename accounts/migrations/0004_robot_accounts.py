"""Robot players: ``User.robot_level``, and one robot account per level.

The levels are written out here (a migration must not change with the code):
they are :data:`games.engine.robots.LEVELS`' names, weakest first, and a test
checks every level has its account.  Robots have no usable password, are
inactive (so no sign-in link is ever honoured) and want no game email.
"""

from django.contrib.auth.hashers import make_password
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db import migrations, models

LEVELS = ("beginner", "casual", "greedy", "club", "expert")
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
        ("accounts", "0003_mail_allowance"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="robot_level",
            field=models.CharField(blank=True, db_index=True, max_length=16),
        ),
        migrations.RunPython(make_robots, remove_robots),
    ]
