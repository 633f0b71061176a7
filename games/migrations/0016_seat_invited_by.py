"""Who invited a seat's address and when; the invitations made so far are the
games' creators', made with their games."""

from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db.models import OuterRef, Subquery


def inviters_of_old_invitations(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Seat = apps.get_model("games", "Seat")
    Game = apps.get_model("games", "Game")
    game = Game.objects.filter(pk=OuterRef("game_id"))
    Seat.objects.exclude(invited_email="").update(
        invited_by=Subquery(game.values("created_by")[:1]),
        invited_at=Subquery(game.values("created_at")[:1]),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_messages_and_rated"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="invited_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="invited_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(inviters_of_old_invitations, migrations.RunPython.noop),
    ]
