"""What a game kind is: the one interface the service core knows a game by.

A kind brings its pure engine (options, the deal, commands → events refused with
codes, the fold, state and events to and from JSON, notation, its record format
and replay, legal moves, its options as the create page asks them, scores from
a stored state), the capabilities a kind may lack (:class:`~games.kinds.windows.OffTurnWindow`,
sealed calls; :class:`Robots`) and the names of its templates; its presentation (the
board for the page, the email and the text email, how a reply's move line is
read, the words for its events in the log, the rules in words, a move's
preview, a replay's steps) is a :class:`KindPresentation` beside it, which only
the presentation layer imports.

The core never looks inside a kind's state, events, options or commands: to it
they are opaque values it hands back to the same kind, so each is typed here as
``Any``.  A kind's own module types them precisely.  What the core needs to know
of a state (whose turn, whether it is over, how it ended, its sequence number) is
asked through :meth:`GameKind.progress`, so a 2-D board game (Blockers) or a
crossword fits as well as JUMBULAYA's nine lines.

A kind is its rules (:class:`Rules`, generic over its state and event
types, about ten members) and what the service asks of it beside them,
each a protocol of its own: its stored events and states
(:class:`EventLog`), records (:class:`Records`), create-form options
(:class:`CreateOptions`), word lists (:class:`WordLists`), scores read
from a stored state (:class:`StoredScores`) and templates
(:class:`Templates`); robots and an off-turn window are objects a kind
may lack (``None``).  :class:`GameKind` is all of them at once, over the
opaque types below; a kind's own class is generic over its own two
(:class:`games.kinds.engine_kind.EngineKind`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

from games.engine.errors import BadRecord, Refusal
from games.engine.lexicon import LexiconStore

from .windows import OffTurnWindow

#: A kind's state, event, options and command: opaque to the core.
State = Any
KindEvent = Any
Options = Any
Command = Any

#: A ``games.models.Game`` row, as the presentation is given it (this module
#: imports no model: the models import the registry of kinds).
GameRow = Any

#: A kind's index of a word list, as :meth:`GameKind.word_index` builds it
#: (JUMBULAYA's :class:`~games.engine.lexicon.Lexicon`, the crossword's DAWG):
#: opaque to the core, which hands it back to the same kind and reads only its
#: ``sha256`` (the list's own, so a game can refuse a list changed under it).
WordIndex = Any

#: ``resolve(name)`` returns the kind's index of the installed word list called
#: ``name`` (``LookupError`` when there is none).
Resolver = Callable[[str], WordIndex]


@dataclass(frozen=True, slots=True)
class Progress:
    """What the core reads of a state: its last event's number, whose turn it
    is (``None`` when nobody is to move), and, once over, how it ended.

    A kind whose seats may move at the same time (Tumble-Words' sealed rounds)
    also says which: ``movers``, with ``turn`` the first of them, and
    ``round``, a number it changes whenever a new simultaneous turn opens for
    seats that were already to move.  Other kinds leave both alone: one seat,
    ``turn``, moves at a time.

    ``answerers``: the seats that may answer off their turn now, not move
    (the crossword game's challenge of an open play, which any opponent may
    make until the next player moves): robots among them are asked too."""

    seq: int
    turn: int | None
    over: bool
    end: str | None
    movers: tuple[int, ...] | None = None
    round: int = 0
    answerers: tuple[int, ...] = ()

    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats that may move now (none once over): the emails saying
        "your turn", the page's move form, turn links, robots' owed turns and
        the dashboard go to each of them."""
        if self.over:
            return ()
        if self.movers is not None:
            return self.movers
        return () if self.turn is None else (self.turn,)

    def opens_turn(self, before: Progress | None) -> bool:
        """Whether this state opens a new turn after ``before`` (``None``: the
        deal): a new deadline, and "your turn" for every seat of
        :attr:`to_move`.  A seat of a simultaneous turn moving while the others
        have still to move opens none; one seat moving after another does."""
        if self.over or not self.to_move:
            return False
        if before is None or before.over or self.round != before.round:
            return True
        return not set(self.to_move) <= set(before.to_move)


class Replayed(Protocol):
    """The outcome of replaying a record: the state reached and the events made
    (the deal first), the turn refused or malformed and why, and the output
    ``manage.py replay`` prints with its exit code (0 every turn legal, 1 a turn
    refused, 2 malformed)."""

    state: State | None
    events: list[KindEvent]
    error_turn: int | None
    error: Refusal | None

    @property
    def exit_code(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class OptionField:
    """One option a game's creator may change from a preset, as the create
    page asks it: a whole number (``minimum`` to ``maximum``), a yes or no, or
    one of ``choices`` (``(value, words)``, shown as radio buttons)."""

    name: str  # the option's key in :meth:`GameKind.option_values`
    label: str
    help: str
    type: Literal["int", "bool", "radio"]
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class OptionGroup:
    """A group of the create page's options, shown as one fieldset: its
    legend, a line saying what it is for, and the names it holds, in order:
    the kind's :attr:`GameKind.option_fields`, and where the kind wants them,
    the service's own options of a game of it (:data:`SERVICE_OPTIONS`)."""

    legend: str
    help: str
    options: tuple[str, ...]


#: The create page's options that are the service's, not the kind's, which a
#: kind's :class:`OptionGroup` may place: the preset, the word list (a kind
#: that :attr:`~GameKind.uses_word_list`), hints (a kind with robots to find
#: them) and the claim window (a kind with :attr:`~GameKind.window`).  Those a
#: kind leaves out go at the end of its first group.
SERVICE_OPTIONS = ("preset", "lexicon_name", "hints", "claim_window")


#: A kind's off-turn window, over the states, events and word indexes the
#: service passes it (:mod:`games.kinds.windows`).
Window = OffTurnWindow[State, KindEvent, WordIndex]


class RecordHeader(Protocol):
    """What the service reads of a record's checked header
    (:meth:`GameKind.read_record`): the players, the turns as they are (each
    checked as it is replayed), and the word list, by name or as its words."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def turns(self) -> tuple[Any, ...]: ...
    @property
    def lexicon(self) -> str | tuple[str, ...] | None: ...


class RobotLevel(Protocol):
    """A robot's level: its name and a line saying how it plays."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...


class Robots(Protocol):
    """A kind's robots: players that decide from a seat view document only
    (JUMBULAYA's: ``jumbulaya-view/1``, seat-view.md), never from another
    seat's tiles nor the bag's order.  ``manage.py robot`` speaks their
    protocol, and the service reaches them through the kind."""

    #: The ``format`` of the seat view documents they read.
    view_format: str

    @property
    def levels(self) -> Mapping[str, RobotLevel]:
        """The levels offered, weakest first."""
        ...

    @property
    def strongest(self) -> str:
        """The strongest level's name, the default."""
        ...

    @property
    def baselines(self) -> Mapping[str, RobotLevel]:
        """Levels to measure the others against (a benchmark's baseline), never
        offered to players."""
        ...

    @property
    def ladder(self) -> Mapping[str, str]:
        """The level of :attr:`levels` on each rung of the one ladder players
        choose robots by (:data:`games.kinds.robots_alike.LADDER`), for the
        rungs the kind offers."""
        ...

    def read_view(self, data: object) -> Any:
        """A seat view document, checked (a ``ValueError`` naming what is wrong)."""
        ...

    def view_word_list(self, view: Any) -> str | tuple[str, ...]:
        """The word list a read view names, or the words it lists."""
        ...

    def answer(
        self,
        level: str,
        view: Any,
        lexicon: WordIndex | None,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        """The protocol's answer of level ``level`` (of :attr:`levels` or
        :attr:`baselines`; ``LookupError`` if neither) to a read view: a move,
        a call or ``wait``; ``budget_ms`` caps its thinking time."""
        ...

    def seat_view(
        self,
        events: Sequence[KindEvent],
        state: State,
        seat: int | None,
        *,
        lexicon: str | dict[str, list[str]],
        claim_window: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """The seat view document of ``state`` (folded from ``events``) as
        ``seat`` sees it (``None``: a spectator)."""
        ...

    def play(
        self,
        events: Sequence[KindEvent],
        state: State,
        seat: int,
        lexicon: WordIndex | None,
        level: str,
        rng: random.Random,
    ) -> str:
        """What the robot of ``level`` answers in ``seat``, seeing only that
        seat's view of ``state`` (folded from ``events``): a move, a call or
        ``wait``.  ``level`` is a robot account's: a rung of the ladder plays
        the kind's level on it, a level of the kind's own that level, and any
        other the strongest."""
        ...

    def hints(
        self,
        events: Sequence[KindEvent],
        state: State,
        seat: int,
        lexicon: WordIndex | None,
        n: int,
    ) -> list[Any]:
        """The ``n`` best word moves for ``seat``'s rack, from its view only."""
        ...

    #: The ``format`` of the analyses :meth:`analyse` writes.
    analysis_format: str

    def analyse(
        self,
        events: Sequence[KindEvent],
        lexicon: WordIndex | None,
        level: str | None,
        budget_ms: float,
        seed: int,
    ) -> Any:
        """The analysis of a finished game's log, with the choices of the robot
        of ``level`` (``None``: without them), each thinking ``budget_ms`` at
        most with a generator seeded by ``seed``: ``to_json()`` stores it."""
        ...

    def analysis_from_json(self, data: Any) -> Any:
        """A stored analysis read back (``ValueError``/``KeyError`` if it cannot be)."""
        ...

    def match(
        self,
        a: str,
        b: str,
        games: int,
        seed: int,
        lexicon: WordIndex | None,
        progress: Callable[[int, int], None] | None = None,
        *,
        lexicon_name: str | None = None,
        budget_ms: float | None = None,
    ) -> Any:
        """Levels ``a`` and ``b`` playing ``games`` games (each deal once per
        seat): the result, with win rates and their intervals (``lexicon``:
        ``None`` for a kind without a word list)."""
        ...


class Rules[S, E](Protocol):
    """A game's rules, generic over its state ``S`` and event ``E``: the deal,
    commands decided into events (refused with a :class:`Refusal`), the fold,
    whose turn it is and how it ended (:meth:`progress`), and the notation in
    and out.  Every method is pure."""

    def deal(
        self,
        players: Sequence[str],
        options: Options,
        lexicon: WordIndex | None,
        rng: random.Random,
    ) -> E:
        """The first event of a game: the deal, with everything hidden in it."""
        ...

    def start(self, started: E) -> S:
        """The state the deal makes."""
        ...

    def decide(self, state: S, seat: int, move: str, lexicon: WordIndex | None) -> list[E]:
        """The events ``move`` (in the kind's notation) by ``seat`` makes, or a
        ``Refusal`` with its code; the state is not changed."""
        ...

    def evolve(self, state: S, event: E) -> S:
        """The fold: the state after one event."""
        ...

    def replay(self, events: Sequence[E]) -> S:
        """The state a whole log folds to."""
        ...

    def progress(self, state: S) -> Progress: ...

    def legal_moves(self, state: S, seat: int, lexicon: WordIndex | None) -> list[str]:
        """The moves ``seat`` may make now, in the notation, for robots and hints."""
        ...

    def verb_of(self, move: str) -> str:
        """A move's verb (``pass``, ``resign``, ``timeout``…), read without the
        rules, for what the core treats specially."""
        ...

    def parse_move(self, text: str) -> Command:
        """A move in the notation, read without the state (``Refusal`` if it is none)."""
        ...

    def format_move(self, command: Command) -> str: ...


class EventLog[S, E](Protocol):
    """What the service stores and reads of a kind's events and states: JSON
    each way, what is private to a seat, the deal, time-outs and resignations,
    and the players a state names."""

    def event_to_dict(self, event: E) -> dict[str, Any]:
        """An event as JSON: its public fields, and the names of its private
        ones in :meth:`private_fields`."""
        ...

    def event_from_dict(self, data: dict[str, Any]) -> E: ...

    def private_fields(self, event: E) -> tuple[str, ...]:
        """The fields of ``event`` only its seat may see (a draw, the deal)."""
        ...

    def event_type(self, event: E) -> str: ...

    def event_seat(self, event: E) -> int | None:
        """The seat an event is by, ``None`` for the deal and the like."""
        ...

    def is_deal(self, event: E) -> bool: ...

    def is_timeout(self, event: E) -> bool:
        """Whether ``event`` is a seat's missed deadline (an auto-pass), which
        the deadlines count in a row."""
        ...

    def is_resignation(self, event: E) -> bool:
        """Whether ``event`` is a seat leaving the game of its own will."""
        ...

    def rename_deal(self, started: E, names: Mapping[int, str]) -> E:
        """The deal ``started`` with the seats of ``names`` named so (a copy), so
        every state folded from it names the players as they are now."""
        ...

    def state_to_json(self, state: S) -> dict[str, Any]: ...

    def state_from_json(self, data: dict[str, Any]) -> S: ...

    def in_game(self, state: S, seat: int) -> bool:
        """Whether ``seat`` still plays (it has not resigned nor been removed)."""
        ...

    def players(self, state: S) -> tuple[str, ...]:
        """The players' names, by seat, as the state has them (the deal's)."""
        ...

    def with_players(self, state: S, players: Sequence[str]) -> S:
        """``state`` naming its players ``players`` (a copy; the rules' words
        name the players as they are now)."""
        ...


class Records[E](Protocol):
    """A kind's game records: read, checked, kept, replayed and written
    (``manage.py replay``, the upload page, a finished game's download)."""

    #: What a record holds that is hidden while the game is played ("every
    #: rack and the bag"), for the refusal of a record before the game is over.
    record_secrets: str

    #: The ``format`` of its records (``jumbulaya-record/1``).
    record_format: str

    def read_record(self, data: object) -> RecordHeader:
        """A record's checked header, from its JSON value (``BadRecord`` naming
        what is wrong)."""
        ...

    def read_record_json(self, text: str | bytes) -> RecordHeader:
        """A record's checked header (``BadRecord`` naming what is wrong)."""
        ...

    def record_turn(self, record: Any, index: int) -> tuple[int, str]:
        """The seat and the move of turn ``index`` of a record read by
        :meth:`read_record` (``BadRecord`` if that turn is malformed)."""
        ...

    def stored_record(self, record: Any, turns: int, text: Callable[[str], str]) -> dict[str, Any]:
        """A record read by :meth:`read_record` as it is kept: its checked
        header and its first ``turns`` turns (each checked), in its format's
        shape, every name and move passed through ``text``."""
        ...

    def record_moves(self, events: Sequence[E]) -> tuple[str, ...]:
        """Each event of a log after the deal as a record's turn says it, in
        the notation (``""`` for an event no turn made)."""
        ...

    def replay_record(self, record: Any, resolve: Resolver) -> Replayed:
        """Replay a record read by :meth:`read_record_json`, turn by turn,
        through :meth:`decide`."""
        ...

    def replay_json(self, text: str | bytes, resolve: Resolver) -> Replayed:
        """Read and replay a record; never raises for bad input."""
        ...

    def unreadable_record(self, error: BadRecord) -> Replayed:
        """The replay output for a record that could not be read at all."""
        ...

    def write_record(self, events: Sequence[E], lexicon: str | None) -> dict[str, Any]:
        """The record of a game's log (``lexicon``: the word list's name)."""
        ...


class CreateOptions[O](Protocol):
    """A kind's options as a game stores them and the create page asks them."""

    #: Named sets of options a game can start from.
    presets: Mapping[str, O]

    #: Each preset's name for people, in the order offered (the first is the
    #: create page's default).
    preset_labels: Mapping[str, str]

    #: The options a game's creator may change from a preset, in the order shown.
    option_fields: tuple[OptionField, ...]

    #: How the create page groups them (every option field in one group; the
    #: first group also takes the service's options the kind places nowhere).
    option_groups: tuple[OptionGroup, ...]

    def options_from_json(self, data: object) -> O:
        """O as stored on a game (``Game.rules``); ``BadRecord`` if malformed."""
        ...

    def options_to_json(self, options: O) -> dict[str, Any]: ...

    def option_values(self, options: O) -> dict[str, Any]:
        """The value of each of :attr:`option_fields` in ``options``."""
        ...

    def with_options(self, preset: str, changed: Mapping[str, Any]) -> O:
        """The preset called ``preset`` with the options ``changed`` (by
        :attr:`OptionField.name`) set so."""
        ...

    def preset_of(self, options: O) -> tuple[str, bool]:
        """The preset ``options`` started from, and whether any option differs
        from it."""
        ...


class WordLists(Protocol):
    """The word list a kind's games are played with, as its own index."""

    #: Whether its games are played with a word list (``lexicon`` arguments are
    #: ``None`` for a kind that has none).
    uses_word_list: bool

    def word_index(self, store: LexiconStore, name: str) -> WordIndex:
        """The kind's index of the list installed in ``store`` as ``name``
        (``LookupError`` if there is none), which its ``lexicon`` arguments
        are given; :func:`games.core.lexicons.index` keeps one per process.
        A kind without a word list raises ``LookupError``."""
        ...

    def word_index_of(self, words: tuple[str, ...]) -> WordIndex:
        """The kind's index of a few words given inline (a seat view's or a
        record's own list); ``ValueError`` if they cannot be indexed."""
        ...


class StoredScores(Protocol):
    """Scores and winners read from a stored state's parts alone (the
    dashboard reads only them from the database)."""

    #: The keys of a stored state that :meth:`scores_from_state` and
    #: :meth:`out_from_state` read.
    score_keys: tuple[str, ...]

    def scores_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        """Each seat's score from a stored state (:meth:`state_to_json`), or
        from those of its parts that :attr:`score_keys` names (the dashboard
        reads only them from the database: never a rack or the bag)."""
        ...

    def out_from_state(self, state: Mapping[str, Any]) -> frozenset[int]:
        """The seats out of the game (resigned or removed), from the parts of a
        stored state that :attr:`score_keys` names."""
        ...

    def winners_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        """The seats that won a finished game (more than one: a shared win),
        from the parts of a stored state that :attr:`score_keys` names: the
        kind says who won (the highest score, or the fewest points and a
        tie-break), the core never assumes it."""
        ...


class Templates(Protocol):
    """The names of a kind's templates (the code that draws a kind is its
    :class:`KindPresentation`, which the core never imports)."""

    #: Templates: the board on the game page, the compose widget under it, and
    #: the game email (HTML and text; their context is the core's).
    board_template: str

    compose_template: str

    email_html_template: str

    email_text_template: str

    #: The board (and every hand: nothing is secret in a record) after one
    #: step of a replay, on the replay page; its ``view`` is
    #: :meth:`KindPresentation.replay_step`'s.
    replay_board_template: str


class GameKind(
    Rules[State, KindEvent],
    EventLog[State, KindEvent],
    Records[KindEvent],
    CreateOptions[Options],
    WordLists,
    StoredScores,
    Templates,
    Protocol,
):
    """One game the service can run.  Every method is pure unless it says so;
    moves that the rules refuse raise :class:`games.engine.errors.Refusal` with a
    code, and records that are malformed raise (or report) :class:`BadRecord`."""

    #: The kind's id, stored in ``Game.kind``: lower case, never changed.
    name: str
    #: Its name for people, on pages and in emails.
    label: str
    #: What it is, in a few words after its label ("JUMBULAYA, the rearranging
    #: word game"): the create page and the invitation email say it.
    description: str
    #: The fewest and most players a game of it seats.
    min_players: int
    max_players: int

    # --- capabilities a kind may have ------------------------------------------

    #: Its off-turn window (JUMBULAYA's sealed calls), ``None`` for a kind that has none.
    window: Window | None
    #: Its robots, ``None`` for a kind that has none.
    robots: Robots | None


class KindPresentation(Protocol):
    """How a kind is shown: the pages' and emails' code for it, registered in
    :mod:`games.kinds.presentation`.  It may read the core's read side
    (:mod:`games.core.projection`), so the core, and the registry of kinds it
    imports, never import it: the layers run presentation → core → kinds →
    engine, with no way back (``tests/test_import_graph.py``)."""

    #: The :attr:`GameKind.name` of the kind it shows.
    name: str

    def seat_view(self, state: State, seat: int | None) -> SeatView:
        """The game as ``seat`` may see it (``None``: a spectator): nothing
        private to another seat, nor the order of anything hidden."""
        ...

    def board_text(self, view: Any) -> str:
        """The board of a :meth:`seat_view` in plain text, for the text email."""
        ...

    def read_reply(self, text: str, subject: str = "") -> Reading:
        """The move line of an email reply, read forgivingly."""
        ...

    def describe(self, before: State, event: KindEvent, after: State) -> str:
        """One event in words for the log, from what every viewer may know."""
        ...

    def problem_with(self, why: str) -> str:
        """A reply's refusal: ``why``, then the move forms a reply may use."""
        ...

    def question_for(self, state: State, seat: int, move: str) -> Question | None:
        """What a page asks before sending ``move`` by ``seat`` (a move that gives
        a turn or the game away for nothing), or ``None`` to send it at once."""
        ...

    #: The move forms a reply may use, for a reply that was not played: examples,
    #: then a last note (``"add #17 to name the move you answer"``).
    accepted_forms: tuple[str, ...]

    def reply_hint(self, seq: int) -> str:
        """The email's line on replying with a move, naming position ``seq``."""
        ...

    def hints_in_words(self, hints: Sequence[Any], seq: int) -> str:
        """The answer to a ``hint`` reply at position ``seq``: the seat's
        ``hints`` (its :meth:`Robots.hints`, best first) one a line, under a
        heading that says what they are best at, or what to do without any."""
        ...

    def rules_in_words(self, options: Options) -> list[str]:
        """One sentence per rule (the preset first), for pages and emails."""
        ...

    def game_log(self, game: GameRow, names: Mapping[int, str] | None = None) -> list[Logged]:
        """A game's log in words, oldest first, naming the players as they are
        now (``names``: :func:`games.core.seat_names.names_now`, when the caller
        has it), from what every viewer may know."""
        ...

    def window_outcomes(self, game: GameRow, seat: int | None) -> list[str]:
        """What became of ``seat``'s moves sealed in the off-turn window and since
        judged, in words, one a move (none for a spectator, nor for a kind without
        :attr:`GameKind.window`)."""
        ...

    def compose_context(self, state: State) -> dict[str, Any]:
        """What the compose widget (:attr:`GameKind.compose_template`) needs of
        the state besides the seat view (JUMBULAYA: ``rack_limit``)."""
        ...

    def preview(self, game: GameRow, seat: int, move: str) -> Preview:
        """What ``move`` by ``seat`` would do in ``game`` now, for that seat only
        (or why it cannot be made), shown before it is sent."""
        ...

    def hints_shown(self, game: GameRow, seat: int, hints: Sequence[Any]) -> list[ShownHint]:
        """``seat``'s stored hints in ``game`` now (best first), as its compose
        template shows them: the move in words, as the log tells moves, and
        what using one puts in the move field."""
        ...

    #: The analysis page's template, ``None`` for a kind without analyses
    #: (then the page is absent and nothing links to it).
    analysis_template: str | None

    def analysis_context(self, analysis: Any, names: Mapping[int, str]) -> dict[str, Any]:
        """What :attr:`analysis_template` needs of an analysis
        (:meth:`Robots.analyse`'s), naming the players as ``names`` has them
        now (:func:`games.core.seat_names.names_now`)."""
        ...

    def missed_chances(self, analysis: Any, seat: int) -> list[str]:
        """What the game-over email says of ``seat``'s missed chances: a
        paragraph, or none."""
        ...

    def replay_step(self, replay: Steps, step: int) -> Any:
        """One step of a replay (``step`` in range): the board and every rack
        after it (nothing is secret in a record), the log with it marked, and
        where the replay ends, for the replay page.  The page reads ``step``,
        ``last``, ``prev``, ``next``, ``at_start``, ``at_end``, ``words``,
        ``log`` (each entry's ``step``, ``words``, ``move``, ``current``),
        ``refused``, ``final`` (its ``over``, ``end_words``, ``winner_names``)
        and ``final_scores`` (name and score pairs); the rest is for the kind's
        :attr:`GameKind.replay_board_template`."""
        ...


class SeatView(Protocol):
    """What pages and emails read of any kind's seat view
    (:meth:`KindPresentation.seat_view`); the rest of it is the kind's own
    templates' to read.  Names are as pages show them; seats count from 0."""

    @property
    def players(self) -> Sequence[str]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def hand_sizes(self) -> Sequence[int]:
        """How many hidden pieces each seat holds (a rack's tiles, a hand's cards)."""
        ...

    @property
    def hand(self) -> Sequence[Any] | None:
        """The viewer's own hidden pieces, ``None`` for a spectator."""
        ...

    @property
    def turn(self) -> int | None: ...
    @property
    def turn_name(self) -> str | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def end_words(self) -> str | None:
        """How the game ended, in words ("a line reached 10 tiles"), once over."""
        ...

    @property
    def winners(self) -> Sequence[int]: ...
    @property
    def winner_names(self) -> Sequence[str]: ...
    @property
    def resigned(self) -> Sequence[int]: ...


class Reading(Protocol):
    """What a reply's reading (:meth:`KindPresentation.read_reply`) tells the
    mail coming in: the move read (in the notation, ``hint`` for hints), the
    position it answers (``#17``), the lines read, why no move was found, and
    whether a resignation still needs confirming."""

    @property
    def move(self) -> str | None: ...
    @property
    def answering(self) -> int | None: ...
    @property
    def read(self) -> str: ...
    @property
    def problem(self) -> str | None: ...
    @property
    def unconfirmed_resign(self) -> bool: ...


class Play(NamedTuple):
    """One of a seat's plays as a player's page lists the best: what was
    played, in the kind's words (``FACTS``, ``JUMBULAYA SPRINTS``), and the
    points it was worth."""

    words: str
    points: int


@runtime_checkable
class BestPlays(Protocol):
    """A kind that can say a seat's best plays from a finished game's log
    (:func:`games.kinds.best_plays`): JUMBULAYA's highest-scoring words.  A
    kind without it lists none."""

    def best_plays(self, events: Sequence[KindEvent], seat: int) -> list[Play]:
        """``seat``'s plays in ``events`` (a whole log, the deal first), the
        best first; only what every viewer of the log could see."""
        ...


class Logged(NamedTuple):
    """One entry of a game's log: the state's number after it, what the log
    says (the event, then how the game ended or what it opened), the short
    form subjects use, and the event's sentence alone."""

    seq: int
    words: str
    headline: str
    event_words: str


class Preview(Protocol):
    """What a move would do (:meth:`KindPresentation.preview`): the page's
    preview template reads the rest."""

    @property
    def refused(self) -> bool: ...


class Steps(Protocol):
    """A log to step through (:meth:`KindPresentation.replay_step`): its events
    (the deal first), each turn's move in the notation (``moves[n - 1]`` made
    step ``n``), where each event came from (a game's only), and the turn a
    record's replay refused, in words."""

    @property
    def events(self) -> tuple[KindEvent, ...]: ...
    @property
    def moves(self) -> tuple[str, ...]: ...
    @property
    def sources(self) -> tuple[str, ...] | None: ...
    @property
    def refused(self) -> str | None: ...
    @property
    def last_step(self) -> int: ...


def page_refusal(move: str) -> Refusal | None:
    """A refusal for moves a person may not send from a page, whatever the
    kind's rules say: ``timeout`` is written by the service when a deadline
    passes.  Read from the move's first word alone, before the game is loaded."""
    words = move.split()
    if words and words[0].lower() == "timeout":
        return Refusal(
            "bad_move",
            "'timeout' is written by the service when a player runs out of time; "
            "it cannot be sent. Write 'pass' to pass your turn.",
        )
    return None


@dataclass(frozen=True)
class ShownHint:
    """A hint as a page shows it (:meth:`KindPresentation.hints_shown`):
    ``words``, the move as the game tells moves (``EQUAL on line 3``);
    ``fill``, what using it puts in the move field, as the player would write
    it there (the rows of a crossword, not its one-line notation); its points
    and gain, whether it captures (Blockers), and ``drawn``, the kind's own
    drawing of it (Tumble-Words: the crossword, as the page draws one)."""

    words: str
    fill: str
    points: int
    gain: int
    captures: bool = False
    drawn: Any = None


@dataclass(frozen=True)
class Question:
    """What a page asks before a move that gives something away."""

    notation: str  # the move, sent again when the player says yes
    question: str  # "Pass your turn?"
    yes: str  # the button that sends it
    no: str  # the way back
    danger: bool = False  # the move cannot be taken back at all (resigning)
    note: str = ""  # what else follows (a robot taking the seat), said under the question
