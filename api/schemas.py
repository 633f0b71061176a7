"""The API's request and answer bodies, as Pydantic models: django-ninja
checks requests against them and writes the OpenAPI document from them.

A seat view, a move's preview and a record are given as the documents their
kinds define (seat-view.md, game-record.md), typed here as JSON objects."""

from __future__ import annotations

from typing import Any

from ninja import Field, Schema
from pydantic import ConfigDict

#: The longest move accepted, as on the game page: no move is that long.
MAX_NOTATION = 200
#: The largest number a game's seq can be (the database's 64-bit integers).
MAX_SEQ = 2**63 - 1


class InputSchema(Schema):
    """A request's body: a JSON object with these fields and no others (a
    misspelt field is refused, not ignored; an array or a string is no body)."""

    model_config = ConfigDict(extra="forbid")


class ErrorOut(Schema):
    code: str = Field(description="what went wrong, for programs: 'stale', 'bad_line'…")
    message: str = Field(description="what went wrong, for people")


class TokenOut(Schema):
    name: str
    requests_per_minute: int


class MeOut(Schema):
    id: int
    name: str = Field(description="the name other players see ('(bot)' after a bot's)")
    bot: bool
    robot: bool
    time_zone: str
    token: TokenOut


class PlayerOut(Schema):
    seat: int
    name: str | None = Field(description="null: a free seat")
    bot: bool
    robot: bool


class GameOut(Schema):
    id: int
    kind: str
    status: str = Field(description="open (gathering players), playing or over")
    seq: int = Field(description="the number of the game's last event")
    turn: int | None = Field(description="the seat to move (the first, when several may)")
    movers: list[int] = Field(
        description="every seat that may move now: the seat to move, or both players of a "
        "sealed round of Tumble-Words until each has submitted"
    )
    your_seat: int | None = Field(description="null: you watch the game")
    your_turn: bool
    left: str | None = Field(
        default=None,
        description="you left the game and a robot took your seat: how, in words (you may "
        "still read it, but no longer move); null otherwise",
    )
    players: list[PlayerOut]
    scores: list[int] | None
    deadline: str | None = Field(description="ISO 8601: when the seat to move runs out of time")
    claims_close: str | None
    end: str | None
    public: bool
    open: bool
    lexicon: str
    move_minutes: int
    rated: bool = Field(description="the game changes its players' ratings when it ends")
    hints: bool = Field(description="the players may ask for hints")
    created_at: str | None
    finished_at: str | None


class InvitationOut(Schema):
    game: int
    by: str
    kind: str
    players: list[PlayerOut]


class GamesOut(Schema):
    games: list[GameOut]
    invitations: list[InvitationOut]


class EventOut(Schema):
    seq: int
    type: str
    seat: int | None
    source: str
    at: str | None
    payload: dict[str, Any] = Field(description="the event's public fields only")


class LogLineOut(Schema):
    seq: int
    words: str


class EventsOut(Schema):
    seq: int
    status: str
    turn: int | None
    movers: list[int] = Field(description="every seat that may move now")
    events: list[EventOut]
    log: list[LogLineOut] = Field(description="the game page's log, in words")


class MoveIn(InputSchema):
    move: str = Field(
        min_length=1,
        max_length=MAX_NOTATION,
        description="in the game's notation: '3 FACTS', 'pass', 'exchange Q X', "
        "'jumbulaya SPRINTS'…",
    )
    expected_seq: int = Field(ge=0, le=MAX_SEQ, description="the game's seq the move was chosen at")


class MoveOut(Schema):
    seq: int
    status: str
    turn: int | None
    movers: list[int] = Field(description="every seat that may move now")
    sealed: bool = Field(description="a JUMBULAYA call kept sealed until the claim window closes")
    overtaken: bool = Field(description="a sealed call ended the game first: the move was not made")
    message: str


class PreviewIn(InputSchema):
    move: str = Field(min_length=1, max_length=MAX_NOTATION)


class ResignIn(InputSchema):
    expected_seq: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SEQ,
        description="the game's seq you saw; default: the current one",
    )


class CreateIn(InputSchema):
    kind: str = "jumbulaya"
    seats: int = Field(default=2, description="players, counting you")
    preset: str | None = Field(default=None, description="default: the kind's first preset")
    options: dict[str, Any] = Field(
        default_factory=dict, description="the kind's options changed from the preset"
    )
    lexicon: str = Field(
        default="default", description="the word list; send it only for a kind that has one"
    )
    move_hours: float = 72
    public: bool = False
    open: bool = False
    invite: list[str] = Field(default_factory=list, description="addresses to invite")
    robots: list[str] = Field(default_factory=list, description="robot levels to seat")
    claim_window: bool = Field(
        default=True,
        description="sealed calls (JUMBULAYA's); send it only for a kind that has them",
    )
    skip_weekends: bool = False
    timeout_limit: int = 3
    robot_pace: str = "now"
    takeover_level: str = ""
    hints: bool = False
    rated: bool = Field(
        default=False,
        description="rated games change the players' ratings when they end; hints are off in them",
    )


class InviteIn(InputSchema):
    emails: list[str] = Field(description="addresses to invite to the game's free seats")


class RecordOut(Schema):
    id: int
    name: str
    players: list[str]
    turns: int
    end: str | None
    refusal: str | None = Field(description="the turn the replay refused, in words")
    replay_url: str
    size: int = Field(description="the file's size in bytes, counted in your room")
    uploaded_at: str | None = Field(description="ISO 8601")


class RecordsOut(Schema):
    records: list[RecordOut] = Field(description="your uploads, the newest first (100 at most)")
    stored_bytes: int = Field(description="what your uploads take in all")
    room_bytes: int = Field(description="what one account may keep (0: no limit)")
    uploads_per_day: int = Field(
        description="uploads one account may make a day, that many at once, then one every "
        "24 h / N (0: no limit)"
    )
