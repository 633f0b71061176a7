"""The Bible edition's bonus words: the rule sheet's three tables.

The sheet numbers its words 1 to 44 but uses "15." twice (MARK closes the
5-point table, RACHEL opens the 10-point one), so the tables hold 45 words.
A word formed on a turn earns its table's bonus when the whole word is exactly
one of them (KINGDOM earns 15, never 15 + 5 for KING); a bonus word is always
acceptable, whatever the word list says.
"""

from __future__ import annotations

from typing import Final

#: +5 (the sheet's 1–15).
FIVE: Final = (
    "RUTH", "EVE", "MARY", "SOUL", "GOLD", "LAW", "KING", "PALM",
    "AMEN", "HOLY", "ZION", "LOVE", "JOHN", "LUKE", "MARK",
)  # fmt: skip
#: +10 (the sheet's second 15 to 33).
TEN: Final = (
    "RACHEL", "EGYPT", "MYRRH", "FATHER", "WIFE", "SPIRIT", "SAVED", "PRAYER",
    "PEACE", "GLORY", "DAVID", "HEAVEN", "FAITH", "GRACE", "SAINT", "LAMB",
    "WORKS", "ANGEL", "CHURCH",
)  # fmt: skip
#: +15 (the sheet's 34–44).
FIFTEEN: Final = (
    "COMMAND", "MATTHEW", "KINGDOM", "ABRAHAM", "PROPHET", "GABRIEL",
    "JESUS", "JOSEPH", "SERVANT", "INCENSE", "REJOICE",
)  # fmt: skip

#: Each bonus word (upper case) and the points it adds.
BONUS_WORDS: Final[dict[str, int]] = {
    **dict.fromkeys(FIVE, 5),
    **dict.fromkeys(TEN, 10),
    **dict.fromkeys(FIFTEEN, 15),
}
