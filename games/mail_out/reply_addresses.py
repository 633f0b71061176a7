"""Reply addresses: where a player's answer to a game email goes.

Every game email to a seated player carries
``Reply-To: <local>+<token>@<inbound domain>``, the token naming the user and
the game and signed with the site's key.  It is stateless and long-lived (not
single-use): answering an old email still works while the move is legal, and
each move is checked against the game as it is.  The same token is in the
email's ``Message-ID``, so a client that answers the From address still names
it in ``In-Reply-To``/``References``.

The token is ``g<game>u<user>k<signature>`` in lower case: mail systems may
change the case of an address's local part, so the signature is base32 and
compared without case.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "games.reply-address"
#: 80 bits of signature, 16 base32 characters.
SIGNATURE_BYTES = 10
TOKEN = re.compile(r"g(\d{1,12})u(\d{1,12})k([a-z2-7]{16})", re.IGNORECASE)


@dataclass(frozen=True)
class ReplyToken:
    game_id: int
    user_id: int


def _signature(game_id: int, user_id: int, key: str | bytes | None = None) -> str:
    """The token's signature with ``key`` (default: the site's key)."""
    value = f"{game_id}:{user_id}"
    digest = salted_hmac(SALT, value, secret=key, algorithm="sha256").digest()
    return base64.b32encode(digest[:SIGNATURE_BYTES]).decode("ascii").lower()


def reply_token(user_id: int, game_id: int) -> str:
    return f"g{game_id}u{user_id}k{_signature(game_id, user_id)}"


def inbound_domain() -> str:
    return str(settings.JUMBULAYA_INBOUND_DOMAIN)


def reply_address(user_id: int, game_id: int) -> str:
    """``play+g12u34k…@inbound.example.com``: where this player's replies go."""
    local = settings.JUMBULAYA_INBOUND_LOCAL
    return f"{local}+{reply_token(user_id, game_id)}@{inbound_domain()}"


def verify(text: str) -> ReplyToken | None:
    """The first validly signed token found in ``text`` (an address, a header
    holding Message-IDs), or ``None``.  Tokens signed with a key in
    ``SECRET_KEY_FALLBACKS`` still verify, so rotating the key leaves the reply
    addresses of emails already sent working."""
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    for match in TOKEN.finditer(text):
        game_id, user_id, signature = int(match[1]), int(match[2]), match[3].lower()
        if any(constant_time_compare(signature, _signature(game_id, user_id, k)) for k in keys):
            return ReplyToken(game_id, user_id)
    return None


def find_token(addresses: Iterable[str], references: Iterable[str]) -> ReplyToken | None:
    """The reply token of an incoming email: first in the addresses it was sent
    to (our inbound domain only), then in the Message-IDs it answers."""
    domain = "@" + inbound_domain().lower()
    for address in addresses:
        if address.lower().endswith(domain):
            found = verify(address.rpartition("@")[0])
            if found is not None:
                return found
    for header in references:
        found = verify(header)
        if found is not None:
            return found
    return None
