"""The new-game form groups its options, each group and each option with a
one-line explanation that assistive technology reads with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.test import Client

from accounts.models import User

#: About what one line of the page holds (its text column is 48rem wide).
ONE_LINE = 100


@dataclass
class Group:
    legend: str = ""
    described_by: str = ""
    controls: list[dict[str, str]] = field(default_factory=list)


class _Form(HTMLParser):
    """The top-level fieldsets of the create form, the controls in each, and the
    text of every element with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[Group] = []
        self.outside: list[dict[str, str]] = []
        self.texts: dict[str, str] = {}
        self.depth = 0  # fieldsets open
        self.fieldsets: list[str] = []  # the aria-describedby of each open fieldset
        self.in_form = False
        self.in_legend = False
        self.open_ids: list[tuple[str, str]] = []  # (tag, id) of elements being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == "create-game":
            self.in_form = True
        if not self.in_form:
            return
        if tag == "fieldset":
            self.depth += 1
            self.fieldsets.append(a.get("aria-describedby", ""))
            if self.depth == 1:
                self.groups.append(Group(described_by=a.get("aria-describedby", "")))
        if tag == "legend" and self.depth == 1:
            self.in_legend = True
        if "id" in a and tag not in ("input", "select", "textarea"):
            self.open_ids.append((tag, a["id"]))
            self.texts[a["id"]] = ""
        hidden = tag == "input" and a.get("type") == "hidden"
        if tag in ("input", "select", "textarea") and not hidden:
            if a.get("type") == "radio":  # a group of choices is explained as one
                a.setdefault("aria-describedby", self.fieldsets[-1] if self.fieldsets else "")
            (self.groups[-1].controls if self.depth else self.outside).append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False
        if tag == "fieldset" and self.in_form:
            self.depth -= 1
            self.fieldsets.pop()
        if tag == "legend":
            self.in_legend = False
        if self.open_ids and self.open_ids[-1][0] == tag:
            self.open_ids.pop()

    def handle_data(self, data: str) -> None:
        if self.in_legend and self.groups:
            self.groups[-1].legend += data.strip()
        for _, ident in self.open_ids:
            self.texts[ident] += data


def test_every_option_is_in_a_group_and_explained_in_one_line(
    client: Client, make_user: Callable[[str], User]
) -> None:
    client.force_login(make_user("ann"))
    page = _Form()
    page.feed(client.get("/games/new/").content.decode())
    # JUMBULAYA's groups, then the crossword game's, Blockers' and Tumble-Words' (hidden
    # until chosen).
    legends = ["Players", "Rules", "JUMBULAYA", "Rules", "Extras", "Rules", "Rules", "Time"]
    assert [g.legend for g in page.groups] == legends
    assert page.outside == []  # every option is in a group
    names = set()
    for group in page.groups:
        explained = " ".join(page.texts.get(group.described_by, "").split())
        assert explained and len(explained) <= ONE_LINE, group.legend
        for control in group.controls:
            name = control["name"]
            names.add(name)
            helps = control.get("aria-describedby", "")
            text = " ".join(page.texts.get(helps, "").split())
            assert text and len(text) <= ONE_LINE, (name, text)
    assert names >= {
        "seat_count", "invite_emails", "is_open", "is_public", "preset", "rack_limit",
        "new_word", "stall_rounds", "lexicon_name", "jumbulaya_bonus", "jumbulaya_cooldown",
        "claim_window", "move_hours", "skip_weekends", "timeout_limit",
    }  # fmt: skip
