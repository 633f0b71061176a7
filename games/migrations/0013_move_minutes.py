"""The time per move in minutes (it was whole hours): an operator may allow games shorter
than an hour (JUMBULAYA_MIN_MOVE_MINUTES), so the database's bound becomes the absolute
floor, a minute. Each game keeps its time: hours times 60 (back: minutes rounded up to
whole hours)."""

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import F, Q


def hours_to_minutes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Game.objects.update(move_minutes=F("move_hours") * 60)


def minutes_to_hours(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Game.objects.update(move_hours=(F("move_minutes") + 59) / 60)  # type: ignore[misc]


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_hints_and_analysis"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="game", name="move_hours_bounds"),
        migrations.AddField(
            model_name="game",
            name="move_minutes",
            field=models.PositiveIntegerField(
                default=4320, help_text="time allowed per move, in minutes"
            ),
        ),
        migrations.RunPython(hours_to_minutes, minutes_to_hours, elidable=False),
        migrations.RemoveField(model_name="game", name="move_hours"),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=Q(move_minutes__gte=1, move_minutes__lte=20160),
                name="move_minutes_bounds",
            ),
        ),
    ]
