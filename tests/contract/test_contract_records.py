"""Every kind's record: refused while the game is played (it holds the
hidden hands), downloaded once it is over, replayed on the replay page and
by ``manage.py replay``, and uploaded (imported) to be replayed again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.kinds.base import GameKind
from games.models import Game

from .play import play_one, replayed, resign_all_but, seat_user, signed_in, text

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_record_downloads_once_over_replays_and_uploads(
    kind: GameKind,
    contract_game: Callable[..., Game],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = contract_game()
    mover, _ = play_one(game)
    client = signed_in(seat_user(game, 0))
    url = f"/games/{game.pk}/record.json"
    early = client.get(url)
    assert early.status_code == 409 and kind.record_secrets in text(early)
    resign_all_but(game, mover)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="{kind.name}-game-{game.pk}.json"'
    )
    record = json.loads(response.content)
    assert record["format"] == kind.record_format
    assert len(kind.read_record(record).players) == game.seat_count
    replay = client.get(f"/games/{game.pk}/replay/?step=1")
    assert replay.status_code == 200 and "Step 1 of" in text(replay)

    out = replayed(response.content, tmp_path, capsys)
    assert out["status"] == "over"

    upload = SimpleUploadedFile("record.json", response.content, "application/json")
    stored = client.post("/records/upload/", {"record": upload})
    assert stored.status_code == 302, text(stored)
    again = client.get(stored["Location"] + "?step=1")
    assert again.status_code == 200 and "Step 1 of" in text(again)
