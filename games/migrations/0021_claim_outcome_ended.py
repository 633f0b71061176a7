# The outcomes of a sealed JUMBULAYA call: "ended" (a resignation ended the game
# before the window closed), and "withdrawn" said of any way of leaving the game.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0020_mail_events_checked'),
    ]

    operations = [
        migrations.AlterField(
            model_name='jumbulayaclaim',
            name='outcome',
            field=models.CharField(blank=True, choices=[('made', 'verified: it ended the game'), ('failed', 'not verified: it cost a turn'), ('free', 'not verified, but the game ended before it cost a turn'), ('overtaken', 'valid, but a longer or earlier call was made'), ('withdrawn', 'withdrawn: the caller left the game'), ('ended', 'not judged: the game ended first')], max_length=10),
        ),
    ]
