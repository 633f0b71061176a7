"""Where the quoted history of an email reply begins, so that nothing in it is
ever read as a move.

A reply's *fresh text* is what comes before the first of:

- a line quoted with ``>``;
- a quote header ("attribution"), in the many forms mail clients write it:
  ``On … wrote:``, ``Le … a écrit :``, ``Em … escreveu:``, ``… napisał(a):``,
  ``Op … schreef …:``, ``Il … ha scritto:``, ``在 … 写道：``, ``… kirjoitti:`` and
  their cousins, with or without the colon, wrapped over up to three lines
  (Gmail puts ``wrote:`` on a line of its own after a long name);
- a forwarded or original-message marker (``-----Original Message-----``,
  ``---------- Forwarded message ---------``, ``Begin forwarded message:``, in
  any language: a text between two runs of dashes), or Outlook's line of
  underscores;
- a client's header block (``From:``/``Sent:``/``To:``/``Subject:`` and their
  translations, two or more within a few lines), quoted or not.

mail-parser-reply (:mod:`games.mail_in.inbound`) knows many of these too and still
runs on what is left; these patterns cover what it misses (languages it does
not know, headers without a colon or wrapped, history pasted without ``>``).
Cutting too early costs at worst a refusal that quotes what was read; cutting
too late can make a move the player never wrote, so a doubtful line counts as
history.

Work is bounded: at most :data:`MAX_LINES` lines are looked at, each cut at
:data:`MAX_LINE_CHARS`, and the expressions have no nested repetition.
"""

from __future__ import annotations

import re

MAX_LINES = 400
MAX_LINE_CHARS = 1000
#: A wrapped quote header spans at most this many lines.
HEADER_LINES = 3
#: Lines searched after a "From:" line for a second header of the same block.
BLOCK_LINES = 6

#: "wrote" and its translations, as they end a quote header (after a space).
_WROTE = (
    r"wrote|writes|sent|a écrit|escreveu|escribió|escribio|napisał\(a\)|napisała?|pisze"
    r"|napsal\(a\)|napsala?|ha scritto|scrisse|schreef|schreef het volgende|schrieb"
    r"|hat geschrieben|skrev|skrev følgende|skrivit|kirjoitti|kirjutas|написал\(а\)"
    r"|написала?|написав\(ла\)|написав|yazdı|şunu yazdı|έγραψε|írta|ezt írta|a scris"
    r"|rašė|rakstīja|napisao|napisala|je napisal\(a\)|va escriure|đã viết|menulis"
)
#: The same in scripts written without spaces: they may follow a name directly.
_WROTE_CJK = r"写道|寫道|のメッセージ|님이 작성|작성"
#: Words that open a quote header: "On", "Le", "Em", "Op", "Il", "Am", "El", ...
_LEADS = r"On|Le|Em|Op|Il|Am|El|W dniu|Dne|Den|På|Vào|Στις|В|Dana|Às|A|Pe|Kl\.|Klo|在|於"

# A line that ends with "wrote" (after a date, a name or an address):
# "Jan Kowalski <jan@example.pl> napisał(a):", "… kirjoitti:", "在 …，Ann 写道：".
_ENDS_WROTE = re.compile(rf"(?:(?:^|[\s>),，])(?:{_WROTE})|(?:{_WROTE_CJK}))\s*[:：]?\s*$")
# A header that opens with a lead word and says "wrote" after a digit (a date or a
# time): "Op di 3 jun 2025 om 14:00 schreef Ann <a@b>:", "Am 3. Juni 2025 um 14:00
# schrieb Ann:", "On Tue, 3 Jun 2025 at 14:00, Ann wrote" (no colon).
_LEAD_WROTE = re.compile(
    rf"^(?:{_LEADS})\s[^\n]*?[0-9][^\n]*?(?:(?:[\s>),，])(?:{_WROTE})|(?:{_WROTE_CJK}))"
    rf"(?:\s[^\n]{{0,300}})?\s*[:：]?\s*$"
)
# "-----Original Message-----", "---------- Forwarded message ---------",
# "----- Mensaje original -----", "—— 原始邮件 ——": a text between runs of dashes.
_DASHED = re.compile(r"^\\?[-‐‒–—―−_=]{3,}\s*\S.{0,80}?\s*[-‐‒–—―−_=]{3,}\s*$")
# Outlook's line of underscores (or dashes) above a pasted header block.
_RULE = re.compile(r"^[_]{10,}\s*$")
#: "Begin forwarded message:" and its translations.
_FORWARDED = re.compile(
    r"^(?:Begin forwarded message|Anfang der weitergeleiteten (?:E-Mail|Nachricht)"
    r"|Début du message (?:réexpédié|transféré)|Inicio del mensaje reenviado"
    r"|Início da mensagem reencaminhada|Inizio messaggio inoltrato"
    r"|Begin doorgestuurd bericht|Początek przekazywanej wiadomości"
    r"|Vidarebefordrat meddelande|Videresendt melding|Videresendt besked"
    r"|Välitetty viesti|Пересылаемое сообщение|Forwarded message|Original message"
    r"|转发的邮件|轉寄的郵件|原始邮件|原始郵件|転送されたメッセージ|전달된 메시지)\s*[:：]?\s*$",
    re.IGNORECASE,
)
#: The names of the headers of a client's header block, in many languages.
_HEADER_NAMES = (
    r"From|Sent|Date|To|Cc|Bcc|Subject|Reply-To|Von|Gesendet|Datum|An|Betreff|Kopie"
    r"|De|Envoyé|Date d'envoi|À|A|Objet|Sujet|Enviado|Enviado el|Fecha|Para|Asunto|Assunto"
    r"|Data|Da|Inviato|Oggetto|Van|Verzonden|Aan|Onderwerp|Od|Wysłano|Do|Temat|Data wysłania"
    r"|Fra|Sendt|Til|Emne|Från|Skickat|Till|Ämne|Lähettäjä|Lähetetty|Vastaanottaja|Aihe"
    r"|Päivämäärä|От|От кого|Отправлено|Кому|Тема|Дата|Odesláno|Komu|Předmět|Feladó"
    r"|Elküldve|Címzett"
    r"|Tárgy|Kimden|Gönderildi|Kime|Konu|Tarih|Από|Προς|Θέμα|发件人|發件人|寄件者|收件人"
    r"|发送时间|發送時間|寄件日期|主题|主旨|日期|差出人|送信日時|宛先|件名|보낸 사람|받는 사람"
    r"|보낸 날짜|제목"
)
_HEADER = re.compile(rf"^[*_]{{0,2}}(?:{_HEADER_NAMES})[*_]{{0,2}}\s?[:：]", re.IGNORECASE)
_FROM = re.compile(
    r"^[*_]{0,2}(?:From|Von|De|Da|Van|Od|Fra|Från|Lähettäjä|От кого|От|Feladó|Kimden|Από"
    r"|发件人|發件人"
    r"|寄件者|差出人|보낸 사람)[*_]{0,2}\s?[:：]",
    re.IGNORECASE,
)


def fresh_lines(text: str) -> list[str]:
    """The lines of ``text`` before its quoted history (all of them when it has none)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[:MAX_LINES]
    return lines[: history_start(lines)]


def fresh_text(text: str) -> str:
    """``text`` without its quoted history: see the module's docstring."""
    return "\n".join(fresh_lines(text))


def history_start(lines: list[str]) -> int:
    """The index of the first line of the quoted history, ``len(lines)`` when none."""
    cut = [line.strip()[:MAX_LINE_CHARS] for line in lines]
    for i, line in enumerate(cut):
        if not line:
            continue
        if line.startswith(">") or _DASHED.match(line) or _RULE.match(line):
            return i
        if _FORWARDED.match(line) or _is_block(cut, i):
            return i
        if _is_header(cut, i):
            # "wrote:" alone ends a header wrapped after a long name or address
            # that the line above holds: the header starts there.
            wrapped = i > 0 and _ENDS_WROTE.fullmatch(line) and re.search(r"[@<]", cut[i - 1])
            return i - 1 if wrapped else i
    return len(lines)


def _is_header(lines: list[str], i: int) -> bool:
    """Whether a quote header starts at line ``i``, on it alone or wrapped over
    the lines that follow (all non-empty)."""
    if _ENDS_WROTE.search(lines[i]):
        return True
    joined = lines[i]
    for line in lines[i + 1 : i + HEADER_LINES]:
        if _LEAD_WROTE.match(joined):
            return True
        if not line:
            return False
        joined = f"{joined} {line}"
    return bool(_LEAD_WROTE.match(joined))


def _is_block(lines: list[str], i: int) -> bool:
    """Whether a client's header block (``From:`` and another header within a
    few lines) starts at line ``i``."""
    if not _FROM.match(lines[i]):
        return False
    return any(_HEADER.match(line) for line in lines[i + 1 : i + BLOCK_LINES] if line)
