# The core's words for a game's off-turn window (JUMBULAYA's claim window is its
# kind's): whether it is on, when it closes, and the two emails it owes, whose
# stored kinds are renamed both ways.

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

KINDS = {"claims_open": "window_open", "claims_closed": "window_closed"}


def relabel(apps: StateApps, names: dict[str, str]) -> None:
    Notification = apps.get_model("games", "Notification")
    for old, new in names.items():
        Notification.objects.filter(kind=old).update(kind=new)


def rename_kinds(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    relabel(apps, KINDS)


def restore_kinds(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    relabel(apps, {new: old for old, new in KINDS.items()})


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0022_notification_taken_at'),
    ]

    operations = [
        migrations.RenameField(
            model_name='game',
            old_name='claim_window',
            new_name='window_on',
        ),
        migrations.RenameField(
            model_name='game',
            old_name='claims_close_at',
            new_name='window_closes_at',
        ),
        migrations.AlterField(
            model_name='game',
            name='window_on',
            field=models.BooleanField(default=True, help_text="moves off one's turn are sealed until the game's off-turn window closes"),
        ),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('your_turn', 'your turn'), ('started', 'game started'), ('game_over', 'game over'), ('invited', 'invitation'), ('warning', 'deadline warning'), ('timed_out', 'you were auto-passed'), ('removed', 'a seat was removed for timeouts'), ('window_open', 'off-turn window open'), ('window_closed', 'what became of your sealed moves'), ('reply_done', 'answer to an email reply: move made'), ('reply_refused', 'answer to an email reply: refused'), ('reply_hints', 'answer to an email reply: hints')], max_length=16),
        ),
        migrations.RunPython(rename_kinds, restore_kinds),
    ]
