"""Reading what a page or an email shows: tiles in markup, and tile faces in
its text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser


@dataclass
class Scan:
    """What a page shows in tile markup: every ``data-tile`` in order, the tiles
    inside each ``data-rack`` element (by its value) and inside ``data-preview``."""

    tiles: list[str] = field(default_factory=list)
    racks: dict[str, list[str]] = field(default_factory=dict)
    preview_tiles: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)


class _Scanner(HTMLParser):
    VOID = frozenset({"input", "br", "img", "meta", "link", "hr", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.scan = Scan()
        self.stack: list[tuple[str, str | None, bool]] = []  # tag, rack, in preview

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.scan.ids.add(str(a["id"]))
        rack = self.stack[-1][1] if self.stack else None
        preview = self.stack[-1][2] if self.stack else False
        if "data-rack" in a:
            rack = a["data-rack"] or ""
            self.scan.racks.setdefault(rack, [])
        preview = preview or "data-preview" in a
        tile = a.get("data-tile")
        if tile is not None:
            self.scan.tiles.append(tile)
            if rack is not None:
                self.scan.racks[rack].append(tile)
            if preview:
                self.scan.preview_tiles.append(tile)
        if tag not in self.VOID:
            self.stack.append((tag, rack, preview))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def scan_html(html: str) -> Scan:
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    return scanner.scan


#: A tile face standing alone in a page's text ("drew Z, TH", "K W").
FACE = re.compile(r"(?<![A-Za-z])(QU|CH|ED|ER|LY|ST|TH|[A-Z])(?![A-Za-z])")
#: A link: its signed tokens hold letters standing between digits by chance.
URL = re.compile(r"https?://\S+|/[a-z]+/[\w.:-]+/")


def faces_in_text(text: str) -> set[str]:
    """Every tile face standing alone in plain text, links left out."""
    return set(FACE.findall(URL.sub(" ", text)))


def visible_faces(html: str) -> set[str]:
    """Every tile face a page shows: in tile markup, and standing alone in its
    text (the words of the page with the markup taken out)."""
    text = re.sub(r"<[^>]*>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S))
    return set(scan_html(html).tiles) | faces_in_text(unescape(text))
