"""What a game's How to play page says of it (:class:`Guide`), from the kind
itself: its rules in its presentation's words (``rules_in_words`` of its
first preset), its presets and option fields, the service's options a game
of it has as the create page explains them, and the forms a reply by email
may use (its presentation's ``accepted_forms``), so that what a game says of
itself is said once.  The pages are :mod:`games.web.how_to_play_views`.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import kinds
from games.kinds import presentation
from games.kinds.base import GameKind, OptionField
from games.web.forms import CreateGameForm, service_options


@dataclass(frozen=True)
class Guide:
    """What a game's page says of it, besides its own template's example."""

    kind: GameKind
    #: The rules of the game as created by default, one sentence each.
    rules: list[str]
    #: Each preset's name for people, the default first.
    presets: list[str]
    options: tuple[OptionField, ...]
    #: The forms a move may take in a reply by email, then a last note.
    reply_forms: tuple[str, ...]
    reply_note: str
    #: The service's options a game of the kind has (its word list, hints,
    #: claim window), as the create page names and explains them.
    service_options: list[tuple[str, str]]
    #: The kind's own part of the page: its example and its notation.
    template: str

    @property
    def others(self) -> list[GameKind]:
        """The other games, for the page's links to theirs."""
        return [kind for kind in kinds.all() if kind.name != self.kind.name]

    @property
    def players(self) -> str:
        low, high = self.kind.min_players, self.kind.max_players
        return f"{low} players" if low == high else f"{low} to {high} players"


def guide(kind: GameKind) -> Guide:
    """What ``kind``'s How to play page says of it."""
    shown = presentation.of(kind)
    default = next(iter(kind.presets.values()))
    *forms, note = shown.accepted_forms
    return Guide(
        kind=kind,
        rules=shown.rules_in_words(default),
        presets=[kind.preset_labels.get(name, name) for name in kind.presets],
        options=kind.option_fields,
        reply_forms=tuple(forms),
        reply_note=note,
        service_options=[
            (str(field.label), str(field.help_text))
            for name in service_options(kind)
            if (field := CreateGameForm.base_fields.get(name)) is not None and name != "preset"
        ],
        template=f"how_to_play/{kind.name}.html",
    )


def guides() -> list[Guide]:
    """Every kind's guide, in the order the kinds are offered."""
    return [guide(kind) for kind in kinds.all()]
