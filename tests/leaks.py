"""The leak scan, for a game of any kind: every page and email one viewer (a
seat, or a spectator) gets about a game, and what must never be in them, asked
of the game's kind.

What a seat holds hidden is what its kind's seat view calls its ``hand``
(:class:`games.kinds.base.SeatView`: a rack's tiles, a hand's cards), seen
from that seat; every other viewer must never be shown it: not as a run of
pieces in the text, not as the seat's hand in markup (``data-rack="1"``,
``data-hand="1"``), and, for a kind whose pieces are all different (cards), not
as one piece in markup (``data-card``) either.  (A kind whose pieces repeat,
JUMBULAYA's tiles, shows the same faces on its board: its own tests mark
private tiles apart, tests/play/test_play_leaks.py.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from django.core import mail
from django.test import Client

from games.coach import hints
from games.core.projection import current_state, game_lexicon, kind_of
from games.kinds import presentation
from games.mail_out.turnlinks import turn_url
from games.models import Game

SEPARATORS = (" ", ", ", "-", "\n")
#: The markup pages and emails put a piece of a hand in, and a seat's hand.
PIECE = re.compile(r'data-(?:tile|card)="([^"]*)"')
HAND = re.compile(r'data-(?:rack|hand)="([^"]*)"')


def hands(game: Game) -> dict[int, tuple[str, ...]]:
    """Each seat's hidden pieces now, as its kind's seat view shows them to it."""
    kind = kind_of(game)
    shown = presentation.of(kind)
    state = current_state(game)
    return {
        seat: tuple(str(p) for p in shown.seat_view(state, seat).hand or ())
        for seat in range(len(kind.players(state)))
    }


def legal_moves(game: Game, seat: int) -> list[str]:
    """``seat``'s legal moves now, as the kind lists them."""
    kind = kind_of(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    return kind.legal_moves(current_state(game), seat, lexicon)


def pages(
    game: Game, client: Client, seat: int | None, moves: Sequence[str] = ()
) -> Iterator[tuple[str, str]]:
    """(what, html) for every page ``client`` (seat ``seat``) can load about the
    game, with the previews of ``moves`` and of a few legal ones, and the
    answer to a move refused (the first of ``moves``)."""
    base = f"/games/{game.pk}/"
    yield "page", client.get(base).content.decode()
    yield "page (htmx)", client.get(base, HTTP_HX_REQUEST="true").content.decode()
    for path in ("/dashboard/", "/games/open/", f"{base}changes/?seen=1"):
        yield path, client.get(path).content.decode()
    poll = f"{base}hints/?seen={game.last_seq}"  # what the page polls for its hints
    yield poll, client.get(poll, HTTP_HX_REQUEST="true").content.decode()
    if seat is None:
        return
    for notation in [*moves, "pass", "resign", *legal_moves(game, seat)[:3]]:
        for htmx in (False, True):
            headers = {"HX-Request": "true"} if htmx else {}
            response = client.post(f"{base}preview/", {"notation": notation}, headers=headers)
            yield f"preview {notation!r} (htmx: {htmx})", response.content.decode()
    if moves:
        sent = {"notation": moves[0], "expected_seq": str(game.last_seq),
                "idempotency_key": f"leak-scan-{seat}-0123456789"}  # fmt: skip
        yield "refused move", client.post(f"{base}move/", sent).content.decode()
    user = game.seats.get(index=seat).user
    assert user is not None
    link = turn_url(user.pk, game.pk, game.last_seq).split("8000", 1)[-1]
    yield "turn link", Client().get(link).content.decode()


def emails(address: str) -> Iterator[tuple[str, str]]:
    """(what, text) of every email sent to ``address`` so far, both parts."""
    for message in mail.outbox:
        if address in message.to:
            yield f"email {message.subject!r}", message.subject + "\n" + message.body
            for html, _ in getattr(message, "alternatives", []):
                yield f"email {message.subject!r} (HTML)", str(html)


def leaks(text: str, hidden: dict[int, tuple[str, ...]], *, unique: bool = False) -> list[str]:
    """What of ``hidden`` (seats' hands) ``text`` shows: a hand in markup, a
    hand of two or more pieces as a run in the text, and with ``unique`` (no
    piece is ever in two places) a piece in markup."""
    shown = set(PIECE.findall(text))
    containers = set(HAND.findall(text))
    found = []
    for seat, hand in hidden.items():
        if str(seat) in containers:
            found.append(f"seat {seat}'s hand in markup")
        if unique:
            found += [f"seat {seat}'s {piece} in markup" for piece in hand if piece in shown]
        if len(hand) >= 2:
            found += [f"seat {seat}'s hand as text" for sep in SEPARATORS if sep.join(hand) in text]
    return found


def scan(
    game: Game, viewers: dict[int | None, Any], moves: Sequence[str] = (), *, unique: bool = False
) -> int:
    """Run the scan for every viewer (seat → signed-in user; ``None``: a
    spectator): nothing of another seat's hand in any page or email
    (``unique``: as :func:`leaks`).  Returns how many pages and emails were read."""
    hidden = hands(game)
    read = 0
    for seat, user in viewers.items():
        client = Client()
        client.force_login(user)
        others = {s: hand for s, hand in hidden.items() if s != seat}
        for what, text in [*pages(game, client, seat, moves), *emails(user.email)]:
            read += 1
            found = leaks(text, others, unique=unique)
            assert not found, f"{what} for seat {seat}: {found}"
    return read


def prepare_hints(game: Game) -> int:
    """Store the hints of every person to move in ``game`` (hints on), as the
    task does, so that the scan reads pages that show them.  Returns how many."""
    return sum(hints.prepare(*owed) for owed in hints.unprepared() if owed[0] == game.pk)


def shows_own_hand(game: Game, client: Client, seat: int) -> bool:
    """Whether the seat's own page shows its whole hand in markup (so the scan
    can see pieces at all)."""
    own = hands(game)[seat]
    html = client.get(f"/games/{game.pk}/").content.decode()
    return set(own) <= set(PIECE.findall(html))


__all__ = ["emails", "hands", "leaks", "pages", "prepare_hints", "scan", "shows_own_hand"]
