"""RecordUpload.size: the uploaded file's size, counted in its owner's room
(games.core.upload_limits).  The records kept before it are counted by the size
of their stored JSON: their files were not kept."""

import json

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def stored_sizes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    RecordUpload = apps.get_model("games", "RecordUpload")
    batch = []
    for upload in RecordUpload.objects.only("pk", "record").iterator(chunk_size=200):
        upload.size = len(json.dumps(upload.record, ensure_ascii=False).encode())
        batch.append(upload)
        if len(batch) >= 200:
            RecordUpload.objects.bulk_update(batch, ["size"])
            batch = []
    RecordUpload.objects.bulk_update(batch, ["size"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_seat_hints"),
    ]

    operations = [
        migrations.AddField(
            model_name="recordupload",
            name="size",
            field=models.PositiveIntegerField(
                default=0, help_text="the file's size in bytes, counted in its owner's room"
            ),
        ),
        migrations.RunPython(stored_sizes, migrations.RunPython.noop),
    ]
