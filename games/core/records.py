"""Game records: downloading a finished game as a record of its kind's format
(``jumbulaya-record/1``), storing a record a user uploads (its kind told by its
``format``), and stepping through either one move at a time.

A record holds everything hidden in play (JUMBULAYA's: every rack and the bag
in draw order), so a game's record is only given out once the game is over:
then nothing in it is secret any more, and its replay shows every rack at
every step.  An uploaded record belongs to whoever
uploaded it and is shown to nobody else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.http import Http404

from accounts.models import User
from games import kinds
from games.core import lexicons
from games.core.limits import OverLimit
from games.core.projection import engine_event, kind_of
from games.core.seat_names import names_now, renamed_events, shown_events
from games.core.upload_limits import check_room, kilobytes, take_upload
from games.engine.errors import BadRecord
from games.kinds import Replayed
from games.kinds.base import GameKind, KindEvent, RecordHeader
from games.models import Game, RecordUpload

#: The largest record file accepted for upload.
MAX_UPLOAD_BYTES = 1024 * 1024
#: The largest upload request read at all: the file and what the form sends with
#: it (the CSRF token, part headers, the file's name).  A larger request is refused
#: by its Content-Length, before its body is read.
MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024

#: The most words a record's own word list (``"lexicon": {"words": [...]}``) may
#: hold here.  A record needs only the words its game played, or failed to play:
#: the 200-event game of ``bench/`` plays 109 distinct words, its 30 seeded games
#: at most 57.  A game played with a larger list names an installed list instead.
MAX_INLINE_WORDS = 300
#: The most letters those words may hold together (the 200-event game's 109 words
#: hold 589).  Building a list's index costs time per letter, some 30 times more
#: for words made to have many tile spellings, so this bounds the work one record
#: can ask of a web worker (see ``python -m bench.uploads``).
MAX_INLINE_LETTERS = 2_000
#: Those limits in words, for the form and the refusal.
MAX_INLINE_LIST = f"{MAX_INLINE_WORDS:,} words of {MAX_INLINE_LETTERS:,} letters in all"

#: Why a game's record waits for its end, with what the kind's record holds
#: that play hides (:attr:`~games.kinds.base.GameKind.record_secrets`).
NOT_OVER_DOWNLOAD = "A record holds {secrets}, so it can be downloaded once the game is over."
NOT_OVER_REPLAY = "A record holds {secrets}, so this game can be replayed once it is over."
NOT_STARTED = "This game has not started yet: it is waiting for players, so it has no record."


class RecordError(Exception):
    """A request this area refuses, with a sentence for people, the HTTP
    status to answer with and, where the status does not say it, a code for
    programs (``over_limit``)."""

    def __init__(self, message: str, status: int = 409, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


# --- downloading ---------------------------------------------------------------


def check_finished(game: Game, *, replay: bool = False) -> None:
    """Refuse (409) a game whose record may not be given out yet."""
    if game.status == Game.Status.OPEN:
        raise RecordError(NOT_STARTED)
    if game.status != Game.Status.OVER:
        said = NOT_OVER_REPLAY if replay else NOT_OVER_DOWNLOAD
        raise RecordError(said.format(secrets=kind_of(game).record_secrets))


def export_record(game: Game) -> dict[str, Any]:
    """The record of a finished game, in its kind's format (``jumbulaya-record/1``)."""
    check_finished(game)
    return kind_of(game).write_record(shown_events(game), game.lexicon_name or None)


def export_json(game: Game) -> bytes:
    return (json.dumps(export_record(game), indent=1, ensure_ascii=False) + "\n").encode()


def download_filename(game: Game) -> str:
    """``jumbulaya-game-12.json``: the kind's name, then the game's."""
    return f"{game.kind}-game-{game.pk}.json"


# --- replays -------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """A game to step through: its kind, its log (``events[0]`` is the deal,
    step ``n`` is the state after ``events[n]``) and, for an uploaded record,
    the turn that was refused.  The replay page draws each step through the
    kind's presentation (:meth:`~games.kinds.base.KindPresentation.replay_step`)."""

    kind: GameKind
    events: tuple[KindEvent, ...]
    moves: tuple[str, ...]  # each turn in the notation; moves[n - 1] made step n
    refused: str | None = None
    #: Where each event came from (an ``Event.Source`` value; a game's only).
    sources: tuple[str, ...] | None = None

    @property
    def last_step(self) -> int:
        return len(self.events) - 1


def game_replay(game: Game) -> Replay:
    """The replay of a finished game (409 for one that is not)."""
    check_finished(game, replay=True)
    rows = list(game.events.order_by("seq"))
    kind = kind_of(game)
    events = renamed_events(kind, [engine_event(row) for row in rows], names_now(game))
    sources = tuple(row.source for row in rows)
    return Replay(kind, tuple(events), kind.record_moves(events), sources=sources)


def _refusal_sentence(kind: GameKind, record: RecordHeader, result: Replayed) -> str | None:
    error = result.error
    if error is None:
        return None
    if result.error_turn is None:
        return f"This record cannot be replayed: {error.message}."
    number = result.error_turn + 1
    try:
        seat, move = kind.record_turn(record, result.error_turn)
    except BadRecord:
        return f"Turn {number} of the record is malformed: {error.message}."
    who = record.players[seat]
    return (
        f"Turn {number} of the record, {who} playing “{move}”, was refused "
        f"({error.code}): {error.message}. The replay stops before it."
    )


def inline_list_problem(record: RecordHeader) -> str | None:
    """Why the word list a record carries is too large to build here, or None."""
    lexicon = record.lexicon
    if lexicon is None or isinstance(lexicon, str):
        return None
    words = len(lexicon)
    letters = sum(map(len, lexicon))
    if words <= MAX_INLINE_WORDS and letters <= MAX_INLINE_LETTERS:
        return None
    return (
        f"its own word list holds {words:,} words ({letters:,} letters), and a record may "
        f"list at most {MAX_INLINE_LIST}: enough for the words a game plays. A game played "
        'with a larger list names it (such as "default", the ENABLE list) instead of '
        "listing its words"
    )


def upload_replay(upload: RecordUpload) -> Replay:
    """The replay of an uploaded record, replayed again from what was stored
    (409 if it no longer can be, say because its word list was removed)."""
    try:
        kind = kinds.kind_of_record(upload.record)
        record = kind.read_record(upload.record)
    except BadRecord as e:
        raise RecordError(f"This record can no longer be replayed: {e.message}.") from None
    problem = inline_list_problem(record)
    if problem is not None:
        raise RecordError(f"This record can no longer be replayed: {problem}.")
    result = kind.replay_record(record, lexicons.resolver(kind))
    if result.state is None or not result.events:
        message = result.error.message if result.error else "it holds no game"
        raise RecordError(f"This record can no longer be replayed: {message}.")
    events = tuple(result.events)
    refused = _refusal_sentence(kind, record, result)
    return Replay(kind, events, kind.record_moves(events), refused)


# --- one step of a replay ------------------------------------------------------


def parse_step(raw: str | None, last: int) -> int:
    """The step asked for in ``?step=``: absent means the deal, a number out of
    range is brought into range, anything else is refused (400)."""
    if raw is None or not raw.strip():
        return 0
    try:
        step = int(raw.strip())
    except ValueError:
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        raise RecordError(
            f"“{shown}” is not a step number: a step is a whole number from 0 (the deal) "
            f"to {last} (the last move).",
            400,
        ) from None
    return max(0, min(step, last))


# --- uploads -------------------------------------------------------------------


def _text(value: str) -> str:
    """A string the database can store (PostgreSQL refuses NUL in JSON)."""
    return value.replace("\x00", "\ufffd")


#: The limit in words, for the form and the refusal.
MAX_UPLOAD_WORDS = f"1 MB ({kilobytes(MAX_UPLOAD_BYTES)})"


def check_upload_length(content_length: str | None) -> None:
    """Refuse (413) an upload request whose body is too large to be a record,
    by the length it declares, before any of it is read."""
    try:
        size = int(content_length or 0)
    except ValueError:
        return  # Django reads no body of an unreadable length
    if size > MAX_UPLOAD_REQUEST_BYTES:
        raise RecordError(
            f"This upload is {kilobytes(size)}; a record file may be at most {MAX_UPLOAD_WORDS}.",
            413,
        )


def _not_a_record(message: str, turn: int | None) -> RecordError:
    where = "" if turn is None else f" (turn {turn + 1})"
    return RecordError(
        f"This file is not a game record that can be replayed{where}: {message}. "
        "Nothing was stored.",
        400,
    )


def _over_limit(error: OverLimit) -> RecordError:
    return RecordError(error.message, 409, error.code)


def store_upload(owner: User, upload: UploadedFile[bytes] | None) -> RecordUpload:
    """Check an uploaded record and keep it for ``owner``.  A malformed record
    (``bad_record``) or one whose own word list is too large is refused (400) and
    nothing is stored; one whose replay stops at a refused turn is kept, and its
    replay says so.  An upload past the owner's limits (:mod:`games.core.upload_limits`)
    is refused (409 ``over_limit``) before it is parsed or replayed."""
    if upload is None:
        raise RecordError("Choose a record file (a .json file) to upload.", 400)
    limit = f"a record file may be at most {MAX_UPLOAD_WORDS}"
    if upload.size is not None and upload.size > MAX_UPLOAD_BYTES:
        raise RecordError(f"This file is {kilobytes(upload.size)}; {limit}.", 400)
    raw = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(raw) > MAX_UPLOAD_BYTES:
        raise RecordError(f"This file is larger than that; {limit}.", 400)
    try:
        check_room(owner, len(raw))
        take_upload(owner)
    except OverLimit as e:
        raise _over_limit(e) from None
    try:
        kind = kinds.record_kind(raw)
        record = kind.read_record_json(raw)
    except BadRecord as e:
        raise _not_a_record(e.message, None) from None
    problem = inline_list_problem(record)
    if problem is not None:
        raise RecordError(
            f"This record cannot be replayed here: {problem}. Nothing was stored.", 400
        )
    result = kind.replay_record(record, lexicons.resolver(kind))
    if result.exit_code == 2:
        assert result.error is not None
        raise _not_a_record(result.error.message, result.error_turn)
    turns = len(record.turns) if result.error_turn is None else result.error_turn + 1
    state = result.state
    assert state is not None
    with transaction.atomic():
        # The owner's row locked: two uploads at once cannot both take the last room.
        User.objects.select_for_update().filter(pk=owner.pk).exists()
        try:
            check_room(owner, len(raw))
        except OverLimit as e:
            raise _over_limit(e) from None
        return RecordUpload.objects.create(
            owner=owner,
            name=_text(upload.name or "record.json")[:200],
            record=kind.stored_record(record, turns, _text),
            players=[_text(p) for p in record.players],
            turn_count=len(result.events) - 1,
            end=kind.progress(state).end or "",
            refusal=_refusal_sentence(kind, record, result) or "",
            size=len(raw),
        )


def upload_or_404(record_id: int, user: User) -> RecordUpload:
    """An upload its owner asks for; anyone else gets 404."""
    try:
        return RecordUpload.objects.get(pk=record_id, owner=user)
    except RecordUpload.DoesNotExist:
        raise Http404("No such record.") from None


def uploads_of(user: User, limit: int = 20) -> list[RecordUpload]:
    return list(RecordUpload.objects.filter(owner=user)[:limit])


def delete_upload(owner: User, record_id: int) -> RecordUpload:
    """Delete ``owner``'s upload ``record_id`` (404 for anyone else's), making
    room for others; the day's count of uploads stays as it was."""
    upload = upload_or_404(record_id, owner)
    upload.delete()
    return upload
