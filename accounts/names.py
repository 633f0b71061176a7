"""Names people type for others to read: the one check they all go through.

A display name is shown on other players' pages and in the plain-text emails
and subjects sent to them, so :func:`clean_name` refuses what could be abused
there: control characters (a CR/LF would add lines or headers to an email),
invisible and direction-changing characters, private-use and unassigned code
points, stacks of combining marks, anything that reads as a link or an address
(mail programs turn ``evil.example`` into a link), names the site itself uses
("You", "player 12"), look-alike letters from another script inside one word (a
Cyrillic a, U+0430, in a Latin "Ann"), and what only the site may write: a
robot's name ("Robot Expert", and any name whose first word reads as "Robot")
and the mark a bot's name is shown with, "(bot)".  What it accepts is stored in
NFKC with its whitespace collapsed.

Forms call :func:`clean_name` and so do the service functions that store a
name, so a command or a task cannot store what a form would refuse.  Names
stored before a rule existed are shown through :func:`shown_name`, which gives
``None`` for a name the rules now refuse, so callers show a neutral name
instead.  What the site writes itself (a robot account's name, a bot's name
with its mark, as a game's log keeps them) is shown through
:func:`shown_site_name`, which holds it to every rule but the two that keep
those names for the site.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter

from django.core.exceptions import ValidationError

MAX_LENGTH = 40
#: Combining marks allowed in a row on one base character (Indic scripts need 3;
#: "Zalgo" text stacks dozens).
MAX_MARKS = 3

#: Categories never in a name: control, format (zero-width and bidirectional
#: controls), surrogate, private use, unassigned, line and paragraph separators.
_REFUSED_CATEGORIES = {
    "Cc": "a control character (such as a line break or a tab)",
    "Cf": "an invisible formatting character (such as a zero-width space or a right-to-left mark)",
    "Cs": "a character that is not text",
    "Co": "a private-use character, which has no agreed look",
    "Cn": "a character that Unicode does not define",
    "Zl": "a line break",
    "Zp": "a paragraph break",
}
#: Letters and marks that show as nothing (Hangul fillers, the blank Braille
#: pattern, the combining grapheme joiner, Khmer inherent vowels): the usual way
#: to make a name that looks empty.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")

_DOT = r"[.\u3002]"  # after NFKC, every full stop a browser reads in a domain
#: Top-level domains that are no English word, caught even with spaces around
#: the dot ("evil . com").
_TLDS = r"(?:com|net|org|info|biz|io|xyz|ru|cn|tk|su|uk|de)"
_LINKS = (
    re.compile(r"://|\bwww\b|\bhttps?\b|\bmailto\b"),
    # label.label, the last with a letter: "evil.example", "bit.ly", not "J.R.R." or "3.14".
    re.compile(rf"[^\W_]{_DOT}(?=[^\W_]*[^\W\d_])[^\W_]{{2,}}"),
    # A dotted IP address.
    re.compile(rf"\d{{1,3}}(?:{_DOT}\d{{1,3}}){{3}}"),
    # A space before a dot followed by a word ("x .com", "x . com"): no sentence does that.
    re.compile(rf"\s{_DOT}\s*[^\W_]"),
    # "evil. com", "evil dot com", "evil (dot) com".
    re.compile(rf"(?:{_DOT}|\bdot)\s*{_TLDS}\b"),
    re.compile(r"[(\[{<]\s*dot\s*[)\]}>]"),
)
#: Names the site writes itself: "You" on your own pages, "player 12" for a
#: player without a name, "(free seat)".
_RESERVED = re.compile(r"you|freeseat|(?:player|seat)\d*")
#: A name's first word: its first run of letters and digits, cut where a small
#: letter meets a capital ("RobotExpert").
_FIRST_WORD = re.compile(r"[^\W_]+")
_CAMEL_CASE = re.compile(r"(?<=[a-z])(?=[A-Z])")
#: What robots' names begin with, in look-alike letters mapped together.
_ROBOT = "robot"
#: The mark the site puts after a bot's name (``accounts.models.BOT_MARK``), in any
#: brackets and spacing, in a name whose look-alike letters are mapped together.
_BOT_MARK = re.compile(r"[(\[{<]\s*bot\s*[)\]}>]")
#: Scripts written together in one word (UTS #39's Japanese, Korean and Chinese
#: with Bopomofo): mixing them is no trick.
_SCRIPT_FAMILIES = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "HANGUL"}),
    frozenset({"HAN", "BOPOMOFO"}),
)
_NO_SCRIPT = frozenset({"COMMON", "INHERITED"})


def _refuse(message: str, code: str) -> ValidationError:
    return ValidationError(message, code=code)


def _character(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def clean_name(value: str) -> str:
    """The name as it is stored (NFKC, whitespace collapsed), or
    :class:`~django.core.exceptions.ValidationError` with a message that says
    what to change."""
    text = _checked(value)
    _check_site_only(text)
    return text


def _checked(value: str) -> str:
    """:func:`clean_name` but for the names only the site may write."""
    text = unicodedata.normalize("NFKC", value)
    for ch in text:
        what = _REFUSED_CATEGORIES.get(unicodedata.category(ch))
        if what is not None or ch in _BLANKS:
            what = what or "a character that shows as nothing"
            raise _refuse(
                f"A name cannot hold {what}: this one holds {_character(ch)}. "
                "Type it again with visible letters, digits and punctuation.",
                "invisible",
            )
    text = " ".join(text.split())
    if not text:
        raise _refuse("Enter a name.", "required")
    if len(text) > MAX_LENGTH:
        raise _refuse(f"Keep a name to {MAX_LENGTH} characters or fewer.", "max_length")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        raise _refuse("A name needs at least one letter or digit.", "no_letters")
    _check_marks(text)
    _check_links(text)
    plain = "".join(ch for ch in text.casefold() if ch.isalnum())
    if any(_RESERVED.fullmatch(folded) for folded in (plain, skeleton(text))):
        raise _refuse(
            f"“{text}” is what this site calls players itself, so it cannot be a name.",
            "reserved",
        )
    _check_scripts(text)
    return text


def _check_site_only(text: str) -> None:
    """Refuse a robot's name (a first word that reads as "Robot", so every
    level of every kind, and any to come) and the bot mark, "(bot)": the site
    writes them, and a person holding one would pass for a program."""
    first = _FIRST_WORD.search(text)
    if first is not None and skeleton(_CAMEL_CASE.split(first.group())[0]) == _ROBOT:
        raise _refuse(
            "Names that begin with “Robot” are kept for the site's robot players, so "
            "other players can tell them from people: choose another name.",
            "reserved",
        )
    if _BOT_MARK.search(_look(text)):
        raise _refuse(
            "A name cannot hold “(bot)”: the site puts it after a bot account's name. "
            "For a program that plays through the API, tick “This account is a bot” on "
            "your profile page instead.",
            "reserved",
        )


def _check_marks(text: str) -> None:
    run = 0
    for i, ch in enumerate(text):
        if unicodedata.category(ch)[0] != "M":
            run = 0
            continue
        run += 1
        if run > MAX_MARKS or i == run - 1 or text[i - run] == " ":
            raise _refuse(
                "A name cannot stack accents or other marks more than "
                f"{MAX_MARKS} deep, nor put one on a space.",
                "marks",
            )


def _check_links(text: str) -> None:
    if "@" in text:
        raise _refuse(
            "A name cannot hold an @: other players would read it as an email address.",
            "link",
        )
    folded = text.casefold()
    if any(pattern.search(folded) for pattern in _LINKS):
        raise _refuse(
            "A name cannot look like a web address or a domain (such as "
            "“example.com” or “www”): mail programs would show it to other players as "
            "a link. Leave the address out, or put a space after a full stop.",
            "link",
        )


def _check_scripts(text: str) -> None:
    """Refuse a word that mixes scripts with a letter that looks like one of
    the other script's (``is_confusable`` of confusable-homoglyphs, Unicode's
    confusables data).  Words in different scripts ("Иван Petrov") are fine."""
    from confusable_homoglyphs import categories, confusables

    for word in text.split(" "):
        if word.isascii():
            continue  # Latin letters, digits and punctuation
        letters = [
            (ch, script)
            for ch in word
            if unicodedata.category(ch)[0] in "LN"
            and (script := categories.alias(ch)) not in _NO_SCRIPT
        ]
        scripts = Counter(script for _ch, script in letters)
        if len(scripts) < 2 or any(scripts.keys() <= family for family in _SCRIPT_FAMILIES):
            continue
        # The main script first, so the letter named is one of the intruders.
        for script, _count in scripts.most_common():
            found = confusables.is_confusable(
                "".join(ch for ch, _script in letters), preferred_aliases=[script]
            )
            if found:
                ch = found[0]["character"]
                raise _refuse(
                    f"“{word}” mixes alphabets, and its {_character(ch)} looks like a "
                    f"{script.title()} letter: type the name in one alphabet.",
                    "mixed_script",
                )


@functools.lru_cache(maxsize=4096)
def shown_name(value: str) -> str | None:
    """A person's stored name as it may be shown to others: cleaned, or
    ``None`` when the rules refuse it (a name stored before they did)."""
    try:
        return clean_name(value)
    except ValidationError:
        return None


@functools.lru_cache(maxsize=4096)
def shown_site_name(value: str) -> str | None:
    """A name the site wrote (a robot account's, a bot's with its mark, a
    player's as a game's log keeps it) as it may be shown: as
    :func:`shown_name`, but a robot's name and the bot mark pass."""
    try:
        return _checked(value)
    except ValidationError:
        return None


def _prototype(ch: str, data: dict[str, list[dict[str, str]]]) -> str:
    """The character ``ch`` is confusable with, by Unicode's confusables data as
    confusable-homoglyphs holds it (``data``: a character that looks like
    several is itself the prototype; of two that look only like each other, the
    smaller)."""
    found = data.get(ch)
    if not found or len(found) != 1 or len(found[0]["c"]) != 1:
        return ch
    other = found[0]["c"]
    back = data.get(other)
    if back and len(back) == 1 and back[0]["c"] == ch:
        return min(ch, other)
    return other


@functools.lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """What a name looks like, for telling two names apart: its letters and
    digits, look-alikes mapped together ("B0b" and "bob" have one skeleton)."""
    from confusable_homoglyphs import confusables

    data = confusables.confusables_data
    text = unicodedata.normalize("NFKC", name)
    return "".join(_prototype(ch, data).casefold() for ch in text if ch.isalnum())


def _look(text: str) -> str:
    """``text`` with its look-alike letters mapped together, as
    :func:`skeleton`, but every other character kept."""
    from confusable_homoglyphs import confusables

    data = confusables.confusables_data
    return "".join(_prototype(ch, data).casefold() for ch in text)


def look_alike(a: str, b: str) -> bool:
    """Whether two names could be taken for each other."""
    return skeleton(a) == skeleton(b)


#: What separates the words of an address's local part ("ann.smith", "ann_smith").
_ADDRESS_WORDS = re.compile(r"[._\-\"]+")


def name_from_address(email: str) -> str:
    """A display name to offer a new player, read from their address's local
    part: ``ann.smith+games@x`` gives "Ann Smith" (a dotted "ann.smith" would
    read as a domain, which :func:`clean_name` refuses).  Words already holding
    a capital keep their case ("McDuff").  ``""`` when nothing readable is
    left or the rules refuse it ("www", "player3"): the field is then empty."""
    local = email.strip().rpartition("@")[0] or email.strip()
    local = local.partition("+")[0]
    words = [w if not w.islower() else w[0].upper() + w[1:] for w in _ADDRESS_WORDS.split(local)]
    try:
        return clean_name(" ".join(w for w in words if w))
    except ValidationError:
        return ""
