"""Every email of every kind of game in the right words (issue 29, point 8),
and linking the way to play its game (point 10): rendered for a game of each
kind played a few turns (Tumble-Words with two players, whose rounds are
sealed, and with three, whose crosswords are public once laid), each kind of
email, both parts and the subject: no count with the wrong form of its noun,
no other game's name, no move in the notation where a sentence says what was
played."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games import kinds
from games.models import Game
from tests.notify.every_email import Rendered, claim_window_emails, every_email
from tests.wording import notation_shown, other_kinds_named, plural_slips, text_of

pytestmark = pytest.mark.django_db

#: Each kind with its fewest players, and Tumble-Words with three besides.
GAMES = [(kind.name, max(2, kind.min_players)) for kind in kinds.all()] + [("tumble", 3)]


def wrong_words(email: Rendered) -> list[str]:
    found = []
    for part, words in (
        ("subject", email.subject),
        ("text", email.text),
        ("html", text_of(email.html)),
    ):
        found += [f"{part}: plural: {s!r}" for s in plural_slips(words)]
        found += [f"{part}: names {s!r}" for s in other_kinds_named(words, email.kind)]
        found += [f"{part}: notation {s!r}" for s in notation_shown(words, email.moves, email.kind)]
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "players"), GAMES, ids=[f"{k}-{p}" for k, p in GAMES])
def test_every_email_of_every_kind_is_in_words(
    kind: str,
    players: int,
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
) -> None:
    label = kinds.get(kind).label
    emails = list(every_email(kind, players, started_game, make_user))
    problems = []
    for email in emails:
        problems += [f"{email.name}: {p}" for p in wrong_words(email)]
        if label not in email.text or label not in text_of(email.html):
            problems.append(f"{email.name}: says nowhere that the game is {label}")
        # Point 10: every email links the way to play its game (the digest, every game's).
        page = "/how-to-play/" + ("" if email.name.endswith("/digest") else f"{kind}/")
        if page not in email.text or f'{page}"' not in email.html:
            problems.append(f"{email.name}: no link to {page}")
    assert problems == []
    if kind == "tumble":
        # A crossword is sealed, and may be replaced, in a game of two only: with
        # three it is laid in the open ("you can replace it" said otherwise). The
        # invitation's rules say what each number of players does.
        played = [e for e in emails if not e.name.endswith("/invited")]
        offered = {e.name for e in played if "replace" in e.text + text_of(e.html)}
        assert bool(offered) == (players == 2), offered


def test_the_claim_window_emails_are_in_words(board_game: Callable[..., Game]) -> None:
    problems = []
    for email in claim_window_emails(board_game):
        problems += [f"{email.name}: {p}" for p in wrong_words(email)]
    assert problems == []


def test_the_checks_see_the_slips_of_the_issue() -> None:
    """The checks themselves: each slip the issue quotes is found, and the
    right words pass."""
    assert plural_slips("the score chart: 1 turns.") and plural_slips("[R] has 1 tiles")
    assert plural_slips("17 turn") and not plural_slips("17 turns; 1 turn; -1 points")
    assert other_kinds_named("Ann invites you to play Jumbulaya", "blockers")
    assert not other_kinds_named("Blockers, game 3. Jumbulaya by mail", "blockers")
    moves = ("submit TUSKED",)
    assert notation_shown("Done: your move “submit\nTUSKED” was made.", moves, "tumble")
    assert not notation_shown("Done: Ann laid TUSKED (+12).", moves, "tumble")
