# "Claim" is JUMBULAYA's call only: the outbox's rows and the robots' turns a
# worker takes say when they were taken (the outbox's index, on the renamed
# column, made again under its new name).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_claim_outcome_ended'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='notification',
            name='games_notif_sent_at_2002fe_idx',
        ),
        migrations.RenameField(
            model_name='notification',
            old_name='claimed_at',
            new_name='taken_at',
        ),
        migrations.AddIndex(
            model_name='notification',
            index=models.Index(fields=['sent_at', 'taken_at'], name='games_notif_sent_at_6a006a_idx'),
        ),
        migrations.RenameField(
            model_name='robotturn',
            old_name='claimed_at',
            new_name='taken_at',
        ),
    ]
