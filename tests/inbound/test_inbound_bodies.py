"""A reply's bodies are read from their top only: a 20 MB body, text or HTML, in
every format an ESP's inbound webhook posts, costs a bounded read and is
answered 200 with the move at its top made (html2text ran 31 s on 20 MB of
HTML, the webhook answered 500 and the ESP posted it again)."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from typing import Any

import html2text
import pytest
from anymail.inbound import AnymailInboundMessage
from django.test import Client
from esp_payloads import (
    MAILGUN_INBOUND,
    MAILGUN_INBOUND_MIME,
    Reply,
    mailgun_mime_form,
    mailgun_parsed_form,
    post_form,
    post_json,
    postmark_payload,
    reply_to_turn,
)
from inbound_mails import mover

from games.mail_in import inbound
from games.mail_in.inbound_limits import MAX_BODY_BYTES, bounded_mime
from games.models import Game, InboundMail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]

#: What follows the move in a long reply: ordinary paragraphs, 20 MB of them.
FILLER = "<p>" + "all work and no play " * 10 + "</p>\n"
TWENTY_MB = 20 * 1024 * 1024


def long_html(reply: Reply) -> str:
    return reply.html + FILLER * (TWENTY_MB // len(FILLER))


def long_text(reply: Reply) -> str:
    return reply.text + "all work and no play\n" * (TWENTY_MB // 21)


def single_part(reply: Reply, subtype: str, body: str) -> str:
    """``reply``'s headers over one body of ``text/{subtype}``, as raw MIME."""
    head = "\r\n".join(f"{name}: {value}" for name, value in reply.headers())
    return f'{head}\r\nContent-Type: text/{subtype}; charset="UTF-8"\r\n\r\n{body}'


def postmark_json(client: Client, reply: Reply, text: str, html: str) -> int:
    payload = postmark_payload(reply) | {"TextBody": text, "HtmlBody": html}
    return post_json(client, payload | {"StrippedTextReply": text[:100]})


def postmark_raw(client: Client, reply: Reply, text: str, html: str) -> int:
    body = single_part(reply, "html", html) if html else single_part(reply, "plain", text)
    return post_json(client, postmark_payload(reply) | {"RawEmail": body})


def mailgun_mime(client: Client, reply: Reply, text: str, html: str) -> int:
    body = single_part(reply, "html", html) if html else single_part(reply, "plain", text)
    return post_form(client, MAILGUN_INBOUND_MIME, mailgun_mime_form(reply) | {"body-mime": body})


def mailgun_parsed(client: Client, reply: Reply, text: str, html: str) -> int:
    form = mailgun_parsed_form(reply) | {"body-plain": text, "body-html": html}
    return post_form(client, MAILGUN_INBOUND, form | {"stripped-html": "", "stripped-text": ""})


Post = Callable[[Client, Reply, str, str], int]
FORMATS: list[Post] = [postmark_json, postmark_raw, mailgun_mime, mailgun_parsed]


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[int]]]:
    """The sizes of what anymail is handed to build a message from, and of what
    html2text is handed to convert."""
    sizes: dict[str, list[int]] = {"anymail": [], "html2text": []}
    parse = AnymailInboundMessage.parse_raw_mime.__func__  # type: ignore[attr-defined]
    construct = AnymailInboundMessage.construct.__func__  # type: ignore[attr-defined]

    def parse_spy(cls: type, s: str) -> Any:
        sizes["anymail"].append(len(s))
        return parse(cls, s)

    def construct_spy(cls: type, *args: Any, **kw: Any) -> Any:
        sizes["anymail"].append(len(kw.get("text") or "") + len(kw.get("html") or ""))
        return construct(cls, *args, **kw)

    handle = html2text.HTML2Text.handle

    def handle_spy(self: html2text.HTML2Text, data: str) -> str:
        sizes["html2text"].append(len(data))
        if len(data) > MAX_BODY_BYTES:  # more would be the 31 s: fail now, not later
            raise AssertionError(f"html2text was handed {len(data):,} characters")
        return handle(self, data)

    monkeypatch.setattr(AnymailInboundMessage, "parse_raw_mime", classmethod(parse_spy))
    monkeypatch.setattr(AnymailInboundMessage, "construct", classmethod(construct_spy))
    monkeypatch.setattr(html2text.HTML2Text, "handle", handle_spy)
    yield sizes


@pytest.mark.slow
@pytest.mark.parametrize("post", FORMATS, ids=lambda post: post.__name__)
def test_a_20_mb_html_only_reply_is_read_from_its_top(
    two_player: Game, client: Client, post: Post, handed: dict[str, list[int]]
) -> None:
    game = two_player
    player = mover(game)
    reply = reply_to_turn(game, player, "pass")
    assert post(client, reply, "", long_html(reply)) == 200
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.user, row.move) == ("moved", player, "pass")
    assert handed["html2text"] and max(handed["html2text"]) <= inbound.MAX_HTML_READ
    assert max(handed["anymail"]) < 2 * MAX_BODY_BYTES


@pytest.mark.slow
@pytest.mark.parametrize("post", FORMATS, ids=lambda post: post.__name__)
def test_a_20_mb_text_reply_is_read_from_its_top(
    two_player: Game, client: Client, post: Post, handed: dict[str, list[int]]
) -> None:
    game = two_player
    player = mover(game)
    reply = reply_to_turn(game, player, "pass")
    assert post(client, reply, long_text(reply), "") == 200
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.user, row.move) == ("moved", player, "pass")
    assert max(handed["anymail"]) < 2 * MAX_BODY_BYTES


def test_a_long_reply_without_a_move_at_its_top_is_refused_politely(
    two_player: Game, client: Client
) -> None:
    """What is past the part read is never read: a move there is not found,
    and the refusal says so as for any reply without a move."""
    game = two_player
    player = mover(game)
    reply = reply_to_turn(game, player, "pass")
    html = FILLER * (TWENTY_MB // len(FILLER)) + reply.html
    assert postmark_json(client, reply, "", html) == 200
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.user, row.move) == ("refused", player, "")
    assert "No move was found" in row.reason


def html_only(html: str) -> AnymailInboundMessage:
    return AnymailInboundMessage.construct(
        headers=[("From", "ann@example.com")], text="", html=html
    )


@pytest.mark.slow
def test_html_nested_thousands_deep_is_converted_to_a_bounded_text() -> None:
    """Each nested list indents every line below it once more: 64 KB of
    ``<ol><li>`` made 80 MB of text in 21 s.  Nesting past a few levels is
    flattened before converting (what is read is the top, never that deep)."""
    for opener in ("<ol><li>a", "<ul><li>a", "<blockquote>a", "<dl><dd>a"):
        html = "<div>pass</div>" + opener * (inbound.MAX_HTML_READ // len(opener))
        converted = inbound._html_as_text(html)
        assert converted.startswith("pass"), opener
        assert len(converted) < 10 * inbound.MAX_HTML_READ, opener  # each line indented 8 deep
        assert inbound.body_text(html_only(html)).startswith("pass")


def test_an_html_reply_is_read_past_a_long_head() -> None:
    """Outlook puts tens of KB of styles in ``<head>``: the part read is the body's."""
    style = "<style>" + "p.MsoNormal { margin: 0cm; font-size: 11pt; }\n" * 3000 + "</style>"
    html = f"<html><head>{style}</head><body><p>pass</p>{FILLER * 10_000}</body></html>"
    assert len(style) > inbound.MAX_HTML_READ
    assert inbound.body_text(html_only(html)).startswith("pass")


def test_bounded_mime_keeps_the_top_of_a_long_body_at_a_line_end() -> None:
    """A base64 body is cut at a line's end, so what is kept still decodes."""
    text = "pass\n" + "é and no play\n" * 200_000
    mime = (
        "From: ann@example.com\nMIME-Version: 1.0\n"
        'Content-Type: multipart/alternative; boundary="b"\n\n'
        "--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + base64.encodebytes(text.encode()).decode()
        + "--b\nContent-Type: text/html; charset=utf-8\n\n<p>pass</p>\n--b--\n"
    )
    out = bounded_mime(mime)
    assert len(out) < MAX_BODY_BYTES + 1000 < len(mime)
    message = AnymailInboundMessage.parse_raw_mime(out)
    assert message.text is not None
    assert text.startswith(message.text.rstrip("\ufffd"))  # a character cut in two at the end
    assert len(message.text) > MAX_BODY_BYTES // 2
    assert message.html == "<p>pass</p>"
