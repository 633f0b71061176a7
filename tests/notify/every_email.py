"""Every email the service sends, for a game of every kind: the helpers of the
tests that read them all (their words, tests/notify/test_notify_words.py, and
their HTML under axe-core, tests/e2e/test_browser_emails_axe.py).

A game is played a few turns through the service, then each kind of email is
rendered for a player as the outbox would send it (the answers to replies
through the real path of a reply: read, played or refused, answered), and the
invitation and the daily digest besides."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from accounts.models import User
from games import kinds
from games.core import door, lobby
from games.core.projection import current_state, game_lexicon, kind_of
from games.mail_in import inbound
from games.mail_out import digests
from games.mail_out.emails import message_for, render_game_email
from games.models import Event, Game, InboundMail, Notification, Seat
from tests.conftest import CLAIM_THE_BOARD
from tests.inbound.inbound_mails import parsed, reply_mime

Kind = Notification.Kind

#: The emails rendered straight from a notification row (the replies' answers
#: come from replies, the claim window's from a kind with sealed calls).
PLAIN = (
    Kind.GAME_STARTED,
    Kind.YOUR_TURN,
    Kind.DEADLINE_WARNING,
    Kind.TIMED_OUT,
)


@dataclass(frozen=True)
class Rendered:
    """One email as sent: what it is (``"crossword/your_turn"``), the game's
    kind, its subject, plain text and HTML, and the moves made so far in the
    notation (which no sentence of it should show)."""

    name: str
    kind: str
    subject: str
    text: str
    html: str
    moves: tuple[str, ...]


def html_of(message: EmailMultiAlternatives) -> str:
    return next(str(c) for c, mime in message.alternatives if mime == "text/html")


def a_move(game: Game, seat: int, *, first: bool = False) -> str:
    """A legal move of ``seat`` that plays something (not a pass, an exchange nor
    a resignation) when there is one, in the kind's notation: the first the
    kind lists (``first``), else the middle one (Tumble-Words lists a robot's
    crossword, then the empty one: a game played with the robot's crosswords
    only is over in three rounds)."""
    kind = kind_of(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    moves = kind.legal_moves(current_state(game), seat, lexicon)
    playing = [m for m in moves if kind.verb_of(m) not in {"pass", "resign", "exchange"}]
    chosen = playing or moves
    return chosen[0 if first else len(chosen) // 2]


def as_typed(kind: str, move: str) -> str:
    """A move as a player types it in a reply or the compose box: a
    Tumble-Words crossword as its rows."""
    return move.removeprefix("submit ").replace("/", "\n") if kind == "tumble" else move


def to_move(game: Game) -> tuple[int, ...]:
    game.refresh_from_db()
    return kind_of(game).progress(current_state(game)).to_move


def play(game: Game, turns: int) -> list[str]:
    """``turns`` moves through the service, each by the first seat to move: the
    first round the kind's first moves, then its middle ones."""
    made = []
    for n in range(turns):
        movers = to_move(game)
        if not movers:
            break
        move = a_move(game, movers[0], first=n < game.seat_count)
        door.submit(game.pk, movers[0], move, game.last_seq, Event.Source.WEB)
        made.append(move)
    game.refresh_from_db()
    return made


def user_of(game: Game, seat: int) -> User:
    user = Seat.objects.get(game=game, index=seat).user
    assert user is not None
    return user


def rendered(note: Notification) -> tuple[str, str, str]:
    """``(subject, text, html)`` of a player's game email, whatever their
    preferences (the tests read every kind of email)."""
    note = Notification.objects.select_related("game", "user").get(pk=note.pk)
    assert note.user is not None
    seat = Seat.objects.get(game=note.game, user=note.user)
    subject, text, html, _ = render_game_email(note, note.user, seat)
    return subject, text, html


def owe(game: Game, kind: str, user: User, seq: int | None = None) -> Notification:
    game.refresh_from_db()
    return Notification.objects.create(
        kind=kind, user=user, game=game, event_seq=game.last_seq if seq is None else seq
    )


def answer_to(game: Game, user: User, body: str) -> Notification:
    """The answer owed to ``user``'s reply ``body`` to their game email, read
    and acted on as one an ESP posts."""
    newest = Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    inbound.receive(parsed(reply_mime(game, user, body)), via="test")
    answer = Notification.objects.filter(pk__gt=newest, user=user, inbound__isnull=False).first()
    assert answer is not None, f"no answer to {body!r}: {InboundMail.objects.last()}"
    return answer


def every_email(
    kind: str, players: int, started_game: Callable[..., Game], make_user: Callable[[str], User]
) -> Iterator[Rendered]:
    """Every email of a ``players``-player game of ``kind``, to its players."""
    shape = kinds.get(kind)
    rules = next(iter(shape.presets.values()))
    game = started_game(players=players, kind=kind, rules=rules)
    label = f"{kind}/{players}p"
    moves = play(game, 2 * players)

    def out(name: str, subject: str, text: str, html: str) -> Rendered:
        return Rendered(f"{label}/{name}", kind, subject, text, html, tuple(moves))

    if len(to_move(game)) == players:  # a sealed round: one seat hands in, and waits
        moves += play(game, 1)
    mover = to_move(game)[0]
    waiting = next(s for s in range(players) if s not in to_move(game))
    for what in PLAIN:
        yield out(what, *rendered(owe(game, what, user_of(game, mover))))
    yield out("your_turn, waiting", *rendered(owe(game, Kind.YOUR_TURN, user_of(game, waiting))))
    Seat.objects.filter(game=game, index=mover).update(timeouts_in_a_row=1)
    yield out("timed_out, once", *rendered(owe(game, Kind.TIMED_OUT, user_of(game, mover))))

    # The answers to replies: a move made, one refused, hints.
    done_by = user_of(game, mover)
    made = a_move(game, mover, first=True)
    moves.append(made)
    typed = as_typed(kind, made)
    yield out("reply_done", *rendered(answer_to(game, done_by, typed)))
    refused_by = user_of(game, to_move(game)[0])
    yield out("reply_refused", *rendered(answer_to(game, refused_by, "ZZQX 99")))
    yield out("reply_hints", *rendered(answer_to(game, refused_by, "hint")))

    # The digest, and an invitation to an open game of the kind.
    user = user_of(game, to_move(game)[0])
    digest = digests.digest_message(user, digests.awaiting(user), timezone.now())
    yield out("digest", str(digest.subject), str(digest.body), html_of(digest))
    host = make_user(f"host{kind}{players}")
    open_game = lobby.create_game(
        host, kind=kind, seat_count=players, rules=rules, invite_emails=["newcomer@example.com"]
    )
    invited = Notification.objects.get(game=open_game, kind=Kind.INVITED)
    invitation = message_for(Notification.objects.select_related("game").get(pk=invited.pk))
    assert invitation is not None
    yield out("invited", str(invitation.subject), str(invitation.body), html_of(invitation))

    # A seat removed after missed turns (the resignation the sweep writes), then the end.
    game.refresh_from_db()
    left = to_move(game)[0]
    door.submit(game.pk, left, "resign", game.last_seq, Event.Source.DEADLINE)
    game.refresh_from_db()
    stayed = next(s for s in range(players) if s != left)
    yield out("removed", *rendered(owe(game, Kind.REMOVED, user_of(game, stayed))))
    yield out("removed, self", *rendered(owe(game, Kind.REMOVED, user_of(game, left))))
    while game.status != Game.Status.OVER:
        seat = next(iter(to_move(game)), None)
        if seat is None:
            break
        door.submit(game.pk, seat, "resign", game.last_seq, Event.Source.WEB)
        game.refresh_from_db()
    yield out("game_over", *rendered(owe(game, Kind.GAME_OVER, user_of(game, stayed))))


def claim_window_emails(board_game: Callable[..., Game]) -> Iterator[Rendered]:
    """The claim window's emails of a JUMBULAYA game (the kind with sealed calls):
    the board claimed, the window open, Ann's call by email sealed (off her
    turn) and answered, then what became of it."""
    game = board_game()
    for move in CLAIM_THE_BOARD:
        game.refresh_from_db()
        assert game.turn_seat is not None
        door.submit(game.pk, game.turn_seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.window_closes_at is not None, "the board claimed, the window is open"
    ann = user_of(game, 0)
    moves = (*CLAIM_THE_BOARD, "jumbulaya SPRINTS")
    sealed = answer_to(game, ann, "jumbulaya SPRINTS")
    yield Rendered("jumbulaya/reply_done, sealed", "jumbulaya", *rendered(sealed), moves)
    for what in (Kind.WINDOW_OPEN, Kind.WINDOW_CLOSED):
        subject, text, html = rendered(owe(game, what, ann))
        yield Rendered(f"jumbulaya/{what}", "jumbulaya", subject, text, html, moves)
