"""The lobby's forms, and the rules put into words for pages and emails."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import DatabaseError
from django.http import QueryDict

from games import kinds, models
from games.core import lexicons
from games.kinds import presentation
from games.kinds.base import SERVICE_OPTIONS, GameKind, OptionField, Options
from games.robots import owed


def _kind(kind: GameKind | None) -> GameKind:
    return kind if kind is not None else kinds.get(kinds.DEFAULT)


def preset_label(name: str, kind: GameKind | None = None) -> str:
    return _kind(kind).preset_labels.get(name, name.title())


def lexicon_label(name: str) -> str:
    return "ENABLE (the default)" if name == lexicons.DEFAULT_NAME else name


def rules_in_words(rules: Options, kind: GameKind | None = None) -> list[str]:
    """One sentence per rule, for the pages and the invitation email (the
    kind's presentation says them; ``kind``: JUMBULAYA unless given)."""
    return presentation.of(_kind(kind)).rules_in_words(rules)


def preset_options(kind: GameKind | None = None) -> dict[str, dict[str, Any]]:
    """Each preset's option values (for the page's script that refills the form)."""
    kind = _kind(kind)
    return {name: kind.option_values(options) for name, options in kind.presets.items()}


def every_kind_preset_options() -> dict[str, dict[str, dict[str, Any]]]:
    """:func:`preset_options` of every kind, by the kind's name."""
    return {kind.name: preset_options(kind) for kind in kinds.all()}


def seat_choices() -> list[tuple[int, str]]:
    """Every number of players some kind seats (each kind's own range is
    checked when the form is sent)."""
    low = min(kind.min_players for kind in kinds.all())
    high = max(kind.max_players for kind in kinds.all())
    return [(n, f"{n} players") for n in range(low, high + 1)]


def service_options(kind: GameKind) -> tuple[str, ...]:
    """The service's options (:data:`~games.kinds.base.SERVICE_OPTIONS`) that a
    game of ``kind`` has: its preset, and the word list, hints and claim window
    where the kind has what they need."""
    has = {
        "preset": True,
        "lexicon_name": kind.uses_word_list,
        "hints": kind.robots is not None,
        "claim_window": kind.window is not None,
    }
    return tuple(name for name in SERVICE_OPTIONS if has[name])


#: The button that shows another kind's options without the page's script.
SHOW_KIND = "show_kind"
#: The create form's fields every kind shares, kept when another kind is shown.
SHARED_FIELDS = (
    "kind", "seat_count", "invite_emails", "robots", "robot_pace", "is_open", "is_public",
    "move_hours", "skip_weekends", "timeout_limit", "takeover_level", "rated",
)  # fmt: skip


def showing_kind(post: QueryDict) -> tuple[GameKind, dict[str, Any]]:
    """What the create form shows when its kind was changed without the page's
    script (:data:`SHOW_KIND`): the kind chosen, and the form's first values:
    the shared fields as they were sent (unchecked, so nothing is said to be
    wrong yet), the kind's options as its first preset has them."""
    try:
        kind = kinds.get(str(post.get("kind") or kinds.DEFAULT))
    except kinds.UnknownKind:
        kind = kinds.get(kinds.DEFAULT)
    initial: dict[str, Any] = {}
    for name in SHARED_FIELDS:
        if name in post:
            initial[name] = post.getlist(name) if name == "robots" else post.get(name)
    for name in ("is_open", "is_public", "skip_weekends", "rated"):
        initial[name] = name in post
    return kind, initial


@dataclass(frozen=True)
class OptionsGroup:
    """One fieldset of a kind's options on the create page, its fields bound."""

    legend: str
    help: str
    help_id: str
    fields: list[forms.BoundField]


def option_groups(form: CreateGameForm) -> list[OptionsGroup]:
    """The fieldsets of ``form``'s kind's options, as the kind groups them
    (:attr:`~games.kinds.base.GameKind.option_groups`); the service's options
    the kind places nowhere end its first group."""
    kind = form.game_kind
    offered = set(service_options(kind)) | {o.name for o in kind.option_fields}
    placed = [name for group in kind.option_groups for name in group.options]
    rest = [name for name in service_options(kind) if name not in placed]
    out = []
    for i, group in enumerate(kind.option_groups):
        names = [n for n in group.options if n in offered] + (rest if i == 0 else [])
        slug = re.sub(r"[^a-z0-9]+", "-", group.legend.lower()).strip("-")
        help_id = "group-" + (slug if kind.name == kinds.DEFAULT else f"{kind.name}-{slug}")
        out.append(OptionsGroup(group.legend, group.help, help_id, [form[n] for n in names]))
    return out


@dataclass(frozen=True)
class KindSection:
    """A kind's options on the create page: shown and sent for the kind chosen,
    hidden and disabled for the others (the page's script switches them)."""

    kind: GameKind
    chosen: bool
    groups: list[OptionsGroup]

    @property
    def players(self) -> str:
        low, high = self.kind.min_players, self.kind.max_players
        return f"{low} players" if low == high else f"{low} to {high} players"


def kind_sections(form: CreateGameForm) -> list[KindSection]:
    """Every kind's options for the create page: ``form``'s kind's from the
    form itself, the others' from forms of their own, their ids apart."""
    sections = []
    for kind in kinds.all():
        if kind.name == form.game_kind.name:
            sections.append(KindSection(kind, True, option_groups(form)))
        else:
            other = CreateGameForm(kind=kind, auto_id=f"id_{kind.name}-%s")
            sections.append(KindSection(kind, False, option_groups(other)))
    return sections


def option_field(option: OptionField) -> forms.Field:
    """The create form's field for one of a kind's options."""
    if option.type == "int":
        return forms.IntegerField(
            label=option.label,
            min_value=option.minimum,
            max_value=option.maximum,
            help_text=option.help,
        )
    if option.type == "radio":
        return forms.ChoiceField(
            label=option.label,
            choices=option.choices,
            widget=forms.RadioSelect,
            help_text=option.help,
        )
    return forms.BooleanField(label=option.label, required=False, help_text=option.help)


_SPLIT = re.compile(r"[\s,;]+")


def split_addresses(raw: str) -> list[str]:
    """The addresses typed in an invitation box: one a line, or between commas,
    semicolons or spaces."""
    return [item for item in _SPLIT.split(raw) if item]


def move_hours_field() -> forms.Field:
    """Hours per move, from the operator's shortest (``JUMBULAYA_MIN_MOVE_MINUTES``: whole
    hours unless it is less than an hour or not a whole number of them, then hundredths of
    an hour) to two weeks."""
    least = settings.JUMBULAYA_MIN_MOVE_MINUTES
    most = models.MAX_MOVE_HOURS
    passes = "a player who runs out of time passes."
    if least % 60 == 0:
        return forms.IntegerField(
            label="Hours per move",
            min_value=least // 60,
            max_value=most,
            initial=72,
            help_text=f"{least // 60} to {most} (two weeks); {passes}",
        )
    lowest = Decimal(math.ceil(least * 100 / 60)) / 100  # hundredths of an hour, rounded up
    return forms.DecimalField(
        label="Hours per move",
        min_value=lowest,
        max_value=most,
        decimal_places=2,
        initial=72,
        help_text=f"{lowest} ({models.move_time_in_words(least)}) to {most} (two weeks), "
        f"in hours: 0.5 is half an hour; {passes}",
    )


class CreateGameForm(forms.Form):
    """A new game.  The rules options are the kind's (:attr:`GameKind.option_fields`),
    shown filled in from a preset; the hidden ``options_from`` names the preset
    they were filled from, so that an option left as it was shown follows the
    chosen preset even when the preset was changed without the page's script
    refilling the options."""

    kind = forms.ChoiceField(
        label="Game",
        choices=kinds.choices,
        initial=kinds.DEFAULT,
        required=False,  # a form posted without it (as before there were kinds): the default
        # Radio buttons when there is a choice (set in __init__); else it goes unseen.
        widget=forms.HiddenInput,
        help_text="Which game to play; each has its own rules below.",
    )
    seat_count = forms.TypedChoiceField(
        label="Players",
        choices=seat_choices,
        coerce=int,
        initial=2,
        help_text="Counting you.",
    )
    preset = forms.ChoiceField(
        label="Rules",
        help_text="The options below start from these rules; change any you like.",
    )
    options_from = forms.ChoiceField(widget=forms.HiddenInput, required=False)
    claim_window = forms.BooleanField(
        label="JUMBULAYA claim window",
        required=False,
        initial=True,
        help_text="Calls off one's turn stay sealed until the deadline (12 h or more), then the "
        "longest valid wins.",
    )
    hints = forms.BooleanField(
        label="Hints",
        required=False,
        help_text="Players may see the best word moves for their rack, on the page or by "
        "replying “hint”.",
    )
    lexicon_name = forms.ChoiceField(
        label="Word list",
        help_text="The words the game accepts: every word played must be in it.",
    )
    move_hours = forms.IntegerField(label="Hours per move")  # move_hours_field(), at each form
    skip_weekends = forms.BooleanField(
        label="Weekends do not count",
        required=False,
        help_text="Saturdays and Sundays, in each player's own time zone, stop the clock.",
    )
    timeout_limit = forms.IntegerField(
        label="Remove a player after this many missed turns in a row",
        required=False,
        min_value=models.MIN_TIMEOUT_LIMIT,
        max_value=models.MAX_TIMEOUT_LIMIT,
        initial=3,
        help_text="The game goes on without them while two or more players remain.",
    )
    is_public = forms.BooleanField(
        label="Public: anyone signed in may watch",
        required=False,
        help_text="Spectators see the board and the scores, never a player's tiles.",
    )
    is_open = forms.BooleanField(
        label="Open: anyone signed in may take a free seat",
        required=False,
        help_text="The game is listed under Open games until its seats are full.",
    )
    rated = forms.BooleanField(
        label="Rated",
        required=False,
        initial=True,
        help_text="The result changes each player's rating, robots' too. No hints; untick "
        "for casual.",
    )
    invite_emails = forms.CharField(
        label="Invite friends by email",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
        help_text="One address per line; each gets an email with a link to join.",
    )
    # Robots (issue 12): their choices are the robot accounts there are.
    robots = forms.MultipleChoiceField(
        label="Robots to play with",
        required=False,
        # Each box is described by the help (Django describes a group of boxes by none).
        widget=forms.CheckboxSelectMultiple(attrs={"aria-describedby": "id_robots_helptext"}),
        help_text="Each robot chosen takes a seat at once; the others are for your invitations.",
    )
    robot_pace = forms.ChoiceField(
        label="Robots answer",
        required=False,
        choices=models.Game.RobotPace.choices,
        initial=models.Game.RobotPace.NOW,
        help_text="At once, or after a few minutes, as a person might.",
    )
    takeover_level = forms.ChoiceField(
        label="When a player leaves",
        required=False,
        help_text="A robot can take the seat of one who resigns or times out; the score stays.",
    )

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        user: Any = None,
        initial: dict[str, Any] | None = None,
        kind: GameKind | None = None,
        **kwargs: Any,
    ) -> None:
        if kind is None:
            try:
                kind = kinds.get(str((data or {}).get("kind") or kinds.DEFAULT))
            except kinds.UnknownKind:  # the kind field says so
                kind = kinds.get(kinds.DEFAULT)
        self.game_kind = kind
        first = next(iter(kind.preset_labels))
        initial = {
            **kind.option_values(kind.presets[first]),
            "kind": kind.name,
            **(initial or {}),
        }
        super().__init__(data, initial=initial, **kwargs)
        if len(kinds.all()) > 1:
            self.fields["kind"].widget = forms.RadioSelect(
                choices=kinds.choices(), attrs={"data-kind-choice": ""}
            )
        for name in SERVICE_OPTIONS:
            if name not in service_options(kind) and name != "preset":
                del self.fields[name]
        self.user = user
        self.fields["move_hours"] = move_hours_field()
        presets = [(name, preset_label(name, kind)) for name in kind.presets]
        for name, choices in (
            ("preset", presets),
            ("options_from", [(n, n) for n in kind.presets]),
        ):
            preset = self.fields[name]
            assert isinstance(preset, forms.ChoiceField)
            preset.choices = choices
            preset.initial = first
        for option in kind.option_fields:
            self.fields[option.name] = option_field(option)
        if "lexicon_name" in self.fields:
            field = self.fields["lexicon_name"]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [(n, lexicon_label(n)) for n in lexicons.store().names()]
            field.initial = lexicons.DEFAULT_NAME
        levels = robot_levels()
        robots, takeover = self.fields["robots"], self.fields["takeover_level"]
        assert isinstance(robots, forms.ChoiceField) and isinstance(takeover, forms.ChoiceField)
        robots.choices = levels
        takeover.choices = [("", "the seat drops out")]
        takeover.choices += [(level, f"{name} takes the seat") for level, name in levels]

    def clean_kind(self) -> str:
        return str(self.cleaned_data["kind"] or kinds.DEFAULT)

    def clean_robot_pace(self) -> str:
        return str(self.cleaned_data.get("robot_pace") or models.Game.RobotPace.NOW)

    def clean_timeout_limit(self) -> int:
        return self.cleaned_data.get("timeout_limit") or 3

    def clean_invite_emails(self) -> list[str]:
        raw = self.cleaned_data.get("invite_emails") or ""
        emails: list[str] = []
        for item in split_addresses(raw):
            try:
                validate_email(item)
            except ValidationError:
                raise ValidationError(
                    f"“{item}” is not an email address. Put one address on each line."
                ) from None
            email = item.lower()
            if email in emails:
                raise ValidationError(f"{email} is listed twice.")
            emails.append(email)
        own = (getattr(self.user, "email", "") or "").lower()
        if own and own in emails:
            raise ValidationError(
                "That list includes your own address: you are already in the game."
            )
        return emails

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats = data.get("seat_count")
        kind = self.game_kind
        if seats is not None and not kind.min_players <= seats <= kind.max_players:
            self.add_error(
                "seat_count",
                f"A game of {kind.label} has {kind.min_players} to {kind.max_players} players.",
            )
            seats = None
        levels = kinds.robot_levels(kind)
        for field in ("robots", "takeover_level"):
            wanted = data.get(field) or []
            chosen = [wanted] if isinstance(wanted, str) else list(wanted)
            missing = [level for level in chosen if level not in levels]
            if missing:
                self.add_error(field, no_such_robot(kind, missing[0]))
        if data.get("rated") and data.get("hints"):
            self.add_error(
                "hints", "Hints are off in rated games: untick Rated for a casual game with hints."
            )
        emails = data.get("invite_emails")
        if seats is not None and emails is not None:
            others = seats - 1 - len(data.get("robots") or [])
            if len(emails) > others:
                self.add_error(
                    "invite_emails",
                    f"A {seats}-player game has room for {others} other "
                    f"player{'s' if others != 1 else ''}, but {len(emails)} addresses "
                    "are listed.",
                )
            elif len(emails) < others and not data.get("is_open"):
                missing = others - len(emails)
                self.add_error(
                    "invite_emails",
                    f"Nobody could take the {missing} seat{'s' if missing != 1 else ''} "
                    "left without an invitation: invite more friends, choose fewer "
                    "players, or make the game open.",
                )
        return data

    @property
    def option_names(self) -> tuple[str, ...]:
        """The kind's rules options, in the order shown."""
        return tuple(option.name for option in self.game_kind.option_fields)

    def rules(self) -> Options:
        """The rules chosen: the preset, with each option the player changed from
        the values shown (those of ``options_from``)."""
        kind = self.game_kind
        data = self.cleaned_data
        preset = data["preset"]
        shown = kind.option_values(kind.presets[data.get("options_from") or preset])
        changed = {
            name: data[name]
            for name in self.option_names
            if name in data and data[name] is not None and data[name] != shown[name]
        }
        return kind.with_options(preset, changed)

    def game_arguments(self) -> dict[str, Any]:
        """What :func:`games.core.lobby.create_game` takes for this valid
        form, after the creator.  A kind's form lacks the options its games do
        not have (:func:`service_options`): those are the default word list and
        no claim window or hints."""
        data = self.cleaned_data
        return {
            "kind": data["kind"],
            "seat_count": data["seat_count"],
            "rules": self.rules(),
            "lexicon_name": data.get("lexicon_name") or lexicons.DEFAULT_NAME,
            "move_minutes": round(data["move_hours"] * 60),
            "is_public": data["is_public"],
            "is_open": data["is_open"],
            "invite_emails": data["invite_emails"],
            "claim_window": data.get("claim_window", False),
            "skip_weekends": data["skip_weekends"],
            "timeout_limit": data["timeout_limit"],
            "robots": data["robots"],
            "robot_pace": data["robot_pace"],
            "takeover_level": data["takeover_level"],
            "hints": data.get("hints", False),
            "rated": data.get("rated", False),
        }

    def redisplay(self) -> None:
        """After errors, show the options as they would be applied (so a preset
        changed without the script shows its own values), when they are valid."""
        data = getattr(self, "cleaned_data", {})
        if not all(name in data for name in (*self.option_names, "preset")):
            return
        options = self.game_kind.option_values(self.rules())
        new: dict[str, Any] = {key: self.data.get(key) for key in self.data}
        for name in self.option_names:
            value = options[name]
            if isinstance(value, bool):
                if value:
                    new[name] = "on"
                else:
                    new.pop(name, None)
            else:
                new[name] = str(value)
        new["options_from"] = data["preset"]
        self.data = new


def robot_levels() -> list[tuple[str, str]]:
    """``(level, name)`` of the robots a game can seat: the rungs of the one
    ladder (:data:`games.kinds.LADDER`), weakest first, that some kind offers
    and that have their account (a kind's own are checked when the form is
    sent)."""
    offered = {level for kind in kinds.all() for level in kinds.robot_levels(kind)}
    return owed.levels_offered(tuple(level for level in kinds.LADDER if level in offered))


def no_such_robot(kind: GameKind, level: str) -> str:
    """Why ``kind`` cannot seat a robot of ``level``, naming the levels it has."""
    rungs = kinds.robot_levels(kind)
    if not rungs:
        return f"{kind.label} has no robots."
    listed = ", ".join(r.title() for r in rungs[:-1]) + f" and {rungs[-1].title()}"
    return (
        f"{kind.label} has no {level.title()} robot: its robots are {listed}. Choose one of them."
    )


@dataclass(frozen=True)
class RobotRung:
    """One rung of the ladder as a game plays it: what its robot does there."""

    level: str
    name: str  # the robot's name: "Robot Casual"
    description: str


@dataclass(frozen=True)
class KindRobots:
    """A game's robots on the create page: each rung it offers, and those it has not."""

    kind: GameKind
    rungs: list[RobotRung]
    missing: list[str]  # rungs' names the game leaves empty: "Club"


def robots_by_kind() -> list[KindRobots]:
    """What each level of the ladder means in each game (the create page
    says it): the kind's own level's description, for every kind with robots."""
    names = dict(robot_levels())
    out = []
    for kind in kinds.all():
        if kind.robots is None:
            continue
        rungs = [
            RobotRung(
                level, names[level], kind.robots.levels[kind.robots.ladder[level]].description
            )
            for level in kinds.robot_levels(kind)
            if level in names
        ]
        taken = {r.level for r in rungs}
        missing = [level.title() for level in kinds.LADDER if level not in taken]
        out.append(KindRobots(kind, rungs, missing))
    return out


@dataclass(frozen=True)
class PlayNow:
    """A one-click game against a robot: the game, the level of the robot
    it is played against (:data:`games.kinds.DEFAULT_RUNG`), and the names
    of the robots seated ("Robot Casual"; a game of three players or more
    seats the nearest levels too)."""

    kind: str
    label: str
    level: str
    robots: list[str]

    @property
    def others(self) -> list[str]:
        """The robots seated beside the one of :attr:`level`."""
        return self.robots[1:]


def play_now() -> list[PlayNow]:
    """The one-click games against a robot the home page and the dashboard
    offer: one for each game whose robots stand on the default rung.  None while
    the database is away: the home page still answers then (they could start
    nothing), as it did before it offered them."""
    try:
        names = dict(robot_levels())
    except DatabaseError:
        return []
    level = kinds.DEFAULT_RUNG
    out = []
    for kind in kinds.all():
        if level not in kinds.robot_levels(kind):
            continue
        seated = kinds.robot_opponents(kind, level)
        if all(other in names for other in seated):
            out.append(PlayNow(kind.name, kind.label, level, [names[r] for r in seated]))
    return out


class PlayRobotForm(forms.Form):
    """ "Play against a robot now": the game, and the level of the one robot
    (the default level when the form does not say: the one-click buttons)."""

    kind = forms.ChoiceField(label="Game", widget=forms.RadioSelect)
    level = forms.ChoiceField(
        label="Robot",
        required=False,
        help_text="The same levels in every game; below, what each means in each game.",
    )

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        # Its ids apart from the create form's on the same page.
        super().__init__(data, **{"auto_id": "id_robot_%s", **kwargs})
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [(k.name, k.label) for k in kinds.all() if kinds.robot_levels(k)]
        kind.initial = kinds.DEFAULT
        if len(kind.choices) == 1:
            kind.widget = forms.HiddenInput()  # no choice to offer
        level = self.fields["level"]
        assert isinstance(level, forms.ChoiceField)
        level.choices = robot_levels()
        level.initial = kinds.DEFAULT_RUNG

    def clean_level(self) -> str:
        return str(self.cleaned_data.get("level") or kinds.DEFAULT_RUNG)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "kind" in data and "level" in data:
            kind = kinds.get(data["kind"])
            if data["level"] not in kinds.robot_levels(kind):
                self.add_error("level", no_such_robot(kind, data["level"]))
        return data


def typed(value: object) -> str:
    """A move as typed in a form, trimmed: blank lines and spaces around it go,
    but a move of several lines (a crossword's rows) keeps the spaces that
    begin its first row, which place that row's letters."""
    lines = str(value).rstrip().splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    if len(lines) <= 1:
        return "".join(lines).strip()
    return "\n".join(line.rstrip() for line in lines)
