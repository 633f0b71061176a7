"""What the inbound webhooks will read: messages past a bound are dropped
before they are parsed, unreadable ones are 4xx, attachments are never read
yet the reply they came with is answered, and only the configured ESPs'
webhooks answer at all."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from anymail.inbound import AnymailInboundMessage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from esp_payloads import (
    BASIC_AUTH,
    MAILGUN_INBOUND,
    MAILGUN_INBOUND_MIME,
    POSTMARK_INBOUND,
    Reply,
    auth_headers,
    mailgun_mime_form,
    mailgun_parsed_form,
    post_form,
    post_json,
    postmark_payload,
    reply_to_turn,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from inbound_mails import mover

from games.mail_in import inbound_limits
from games.mail_in.inbound_limits import TooMuch, bounded_mime
from games.models import Event, Game, InboundMail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]

#: A photo as a phone attaches it: 10 MB of bytes, base64 in the message.
PHOTO = os.urandom(10 * 1024 * 1024)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Records each time anymail builds a message (parses raw MIME or
    constructs one from an ESP's fields): a message past a bound never is."""
    calls: list[str] = []
    for name in ("parse_raw_mime", "construct"):
        original = getattr(AnymailInboundMessage, name).__func__

        def spy(cls: type, *args: Any, _name: str = name, _f: Any = original, **kw: Any) -> Any:
            calls.append(_name)
            return _f(cls, *args, **kw)

        monkeypatch.setattr(AnymailInboundMessage, name, classmethod(spy))
    yield calls


def dropped_unread(reason: str) -> InboundMail:
    """The one row kept of a message dropped unread, its reason checked."""
    (row,) = InboundMail.objects.all()
    assert row.status == "dropped"
    assert row.reason.startswith("not read: ") and reason in row.reason, row.reason
    assert (row.user, row.game, row.move) == (None, None, "")
    return row


def with_parts(reply: Reply, parts: str, boundary: str = "mixed-b") -> str:
    """``reply``'s headers over a ``multipart/mixed`` body of ``parts``."""
    head = "\r\n".join(f"{name}: {value}" for name, value in reply.headers())
    return (
        f'{head}\r\nContent-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n'
        f"{parts}--{boundary}--\r\n"
    )


def text_part(text: str, boundary: str = "mixed-b") -> str:
    return f'--{boundary}\r\nContent-Type: text/plain; charset="UTF-8"\r\n\r\n{text}\r\n'


def photo_part(boundary: str = "mixed-b") -> str:
    data = base64.encodebytes(PHOTO).decode().replace("\n", "\r\n")
    return (
        f"--{boundary}\r\nContent-Type: image/jpeg\r\n"
        'Content-Disposition: attachment; filename="IMG_0001.jpg"\r\n'
        f"Content-Transfer-Encoding: base64\r\n\r\n{data}"
    )


# --- bounded before parsing: dropped, logged, answered 200 ---------------------------


def test_a_postmark_post_to_40000_addresses_is_dropped_unparsed(
    two_player: Game, client: Client, parses: list[str]
) -> None:
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    payload = postmark_payload(reply)
    crowd = [{"Email": f"r{i}@example.net", "Name": "", "MailboxHash": ""} for i in range(40_000)]
    payload["ToFull"] += crowd
    payload["To"] = ", ".join(r["Email"] for r in payload["ToFull"])
    before = Event.objects.filter(game=game).count()
    assert post_json(client, payload) == 200
    dropped_unread("more than 100 addresses")
    assert parses == []
    assert Event.objects.filter(game=game).count() == before


def test_a_mailgun_message_with_a_2_mb_to_header_is_dropped_unparsed(
    two_player: Game, client: Client, parses: list[str]
) -> None:
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    crowd = ", ".join(f"r{i}@example.net" for i in range(110_000))
    raw = reply.mime().replace(f"To: {reply.to}", f"To: {reply.to}, {crowd}", 1)
    assert len(raw) > 2_000_000
    form = mailgun_mime_form(reply) | {"body-mime": raw}
    assert post_form(client, MAILGUN_INBOUND_MIME, form) == 200
    dropped_unread("its headers are 2,1")
    assert parses == []


def test_a_mailgun_parsed_form_naming_thousands_is_dropped_unparsed(
    two_player: Game, client: Client, parses: list[str]
) -> None:
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    form = mailgun_parsed_form(reply)
    headers = json.loads(form["message-headers"])
    headers.append(["Cc", ", ".join(f"r{i}@example.net" for i in range(5_000))])
    form["message-headers"] = json.dumps(headers)
    assert post_form(client, MAILGUN_INBOUND, form) == 200
    dropped_unread("address headers are more than 32 KB")
    assert parses == []


def test_a_message_of_40000_parts_is_dropped_unparsed(
    two_player: Game, client: Client, parses: list[str]
) -> None:
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    raw = with_parts(reply, text_part("pass") + "".join(text_part("x") for _ in range(40_000)))
    form = mailgun_mime_form(reply) | {"body-mime": raw}
    assert post_form(client, MAILGUN_INBOUND_MIME, form) == 200
    dropped_unread("more than 200 lines starting with '--'")
    assert parses == []


def test_a_message_nested_1000_deep_is_dropped_not_a_500(
    two_player: Game, parses: list[str]
) -> None:
    """70 KB nested 1,000 levels deep made the parser raise RecursionError: a
    500, which the ESP answers by posting it again and again."""
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    body = "pass\r\n"
    for level in range(1000):
        body = (
            f'Content-Type: multipart/mixed; boundary="n{level}"\r\n\r\n'
            f"--n{level}\r\n{body}\r\n--n{level}--\r\n"
        )
    head = "\r\n".join(f"{name}: {value}" for name, value in reply.headers())
    form = mailgun_mime_form(reply) | {"body-mime": f"{head}\r\n{body}"}
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    assert post_form(client, MAILGUN_INBOUND_MIME, form) == 200
    dropped_unread("more than 16 multipart or message parts")
    assert parses == []


def test_a_part_with_a_huge_header_is_dropped_unparsed(
    two_player: Game, client: Client, parses: list[str]
) -> None:
    """A part's Content-Type of 100,000 parameters took the parser minutes."""
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    params = "; ".join(f"p{i}=v{i}" for i in range(100_000))
    part = f"--mixed-b\r\nContent-Type: text/plain; {params}\r\n\r\npass\r\n"
    form = mailgun_mime_form(reply) | {"body-mime": with_parts(reply, part)}
    assert post_form(client, MAILGUN_INBOUND_MIME, form) == 200
    dropped_unread("a part's headers are more than 16 KB")
    assert parses == []


def test_a_message_dropped_unread_and_posted_again_is_kept_once(
    two_player: Game, client: Client
) -> None:
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    payload = postmark_payload(reply)
    payload["CcFull"] = [{"Email": f"r{i}@example.net", "Name": ""} for i in range(500)]
    assert [post_json(client, payload) for _ in range(3)] == [200, 200, 200]
    row = dropped_unread("more than 100 addresses")
    assert row.sender == reply.sender and row.via == "postmark"


def test_a_message_failing_deep_in_handling_is_a_400_not_a_500(
    two_player: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should a message within the bounds still be too deep for a walk, that is
    unreadable, not a failure worth the ESP's retries."""
    from games.mail_in import inbound

    def too_deep(*args: Any, **kwargs: Any) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(inbound, "receive", too_deep)
    game = two_player
    payload = postmark_payload(reply_to_turn(game, mover(game), "pass"))
    assert (
        post_json(Client(raise_request_exception=False, enforce_csrf_checks=True), payload) == 400
    )


def test_a_tracking_event_posted_to_the_inbound_url_is_a_400(client: Client) -> None:
    """Postmark's bounce webhook pointed at the inbound URL by mistake: anymail
    calls that a configuration error, which was a 500."""
    bounce = {"RecordType": "Bounce", "ID": 42, "Type": "HardBounce", "Email": "x@example.com"}
    response = client.post(
        POSTMARK_INBOUND,
        json.dumps(bounce),
        content_type="application/json",
        headers=auth_headers(BASIC_AUTH),
    )
    assert response.status_code == 400
    assert "could not be read" in response.content.decode()
    assert not InboundMail.objects.exists()


# --- attachments: never read, the reply still answered ------------------------------------


def test_a_postmark_reply_with_a_10_mb_photo_makes_the_move(
    two_player: Game, client: Client
) -> None:
    game = two_player
    player = mover(game)
    reply = reply_to_turn(game, player, "pass")
    payload = postmark_payload(reply)
    payload["Attachments"] = [
        {
            "Name": "IMG_0001.jpg",
            "Content": base64.b64encode(PHOTO).decode(),
            "ContentType": "image/jpeg",
            "ContentLength": len(PHOTO),
        }
    ]
    assert post_json(client, payload) == 200
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.user) == ("moved", player)


def test_a_mailgun_raw_reply_with_a_10_mb_photo_makes_the_move(
    two_player: Game, client: Client
) -> None:
    game = two_player
    player = mover(game)
    reply = reply_to_turn(game, player, "pass")
    raw = with_parts(reply, text_part(reply.text) + photo_part())
    assert len(raw) > 10 * 1024 * 1024
    form = mailgun_mime_form(reply) | {"body-mime": raw}
    assert post_form(client, MAILGUN_INBOUND_MIME, form) == 200
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.user) == ("moved", player)


def test_a_mailgun_parsed_reply_with_a_10_mb_photo_makes_the_move(
    two_player: Game, client: Client
) -> None:
    game = two_player
    player = mover(game)
    reply = reply_to_turn(game, player, "pass")
    form = mailgun_parsed_form(reply)
    form["attachment-1"] = SimpleUploadedFile("IMG_0001.jpg", PHOTO, "image/jpeg")
    assert post_form(client, MAILGUN_INBOUND, form) == 200
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.user) == ("moved", player)


def test_a_mailgun_form_claiming_a_billion_attachments_is_still_read(
    two_player: Game, client: Client
) -> None:
    """anymail counts up to ``attachment-count`` looking for files: attachments
    are not read here, so the count is not either."""
    game = two_player
    player = mover(game)
    reply = reply_to_turn(game, player, "pass")
    form = mailgun_parsed_form(reply) | {"attachment-count": "1000000000"}
    assert post_form(client, MAILGUN_INBOUND, form) == 200
    assert InboundMail.objects.get(message_id=reply.message_id).status == "moved"


def test_a_body_past_the_webhook_bound_is_refused_before_it_is_read(client: Client) -> None:
    with override_settings(JUMBULAYA_WEBHOOK_MAX_BYTES=1024):
        response = client.post(
            POSTMARK_INBOUND,
            json.dumps({"TextBody": "x" * 2048}),
            content_type="application/json",
            headers=auth_headers(BASIC_AUTH),
        )
    assert response.status_code == 413
    assert "at most 1,024" in response.content.decode()
    assert not InboundMail.objects.exists()


def test_every_other_page_keeps_the_ordinary_bound(client: Client) -> None:
    """Django's bound on a body was raised for the webhooks; nothing else gets it."""
    response = client.post(
        "/account/sign-in/", {"email": "ann@example.com", "junk": "x" * 3_000_000}
    )
    assert response.status_code == 413
    assert "at most 2,621,440" in response.content.decode()


# --- only the configured ESPs' webhooks ------------------------------------------------------

# (Postmark's and Mailgun's tracking webhooks answer for the ESPs named: tests/tracking/.)
UNCONFIGURED = [
    "/anymail/amazon_ses/inbound/",
    "/anymail/amazon_ses/tracking/",
    "/anymail/mandrill/",
    "/anymail/mandrill/tracking/",
    "/anymail/postal/inbound/",
    "/anymail/resend/inbound/",
    "/anymail/brevo/inbound/",
    "/anymail/sendgrid/inbound/",
    "/anymail/sparkpost/tracking/",
    "/anymail/unisender_go/tracking/",
]


@pytest.mark.parametrize("url", UNCONFIGURED)
@pytest.mark.parametrize("method", ["get", "post"])
def test_webhooks_of_other_esps_are_404s(url: str, method: str) -> None:
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    assert getattr(client, method)(url).status_code == 404


def test_a_webhook_of_an_esp_not_named_is_a_404() -> None:
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    with override_settings(JUMBULAYA_INBOUND_ESPS=["mailgun"]):
        response = client.post(POSTMARK_INBOUND, "{}", content_type="application/json")
        assert response.status_code == 404
        assert client.post(MAILGUN_INBOUND).status_code == 400  # named: unsigned
    with override_settings(JUMBULAYA_INBOUND_ESPS=[]):
        assert client.post(MAILGUN_INBOUND).status_code == 404


def test_an_esp_named_without_its_settings_is_a_503_and_a_start_error() -> None:
    from games.checks import inbound_webhooks_can_answer

    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    with override_settings(ANYMAIL={}, JUMBULAYA_INBOUND_ESPS=["mailgun"]):
        assert client.post(MAILGUN_INBOUND).status_code == 503
        (error,) = inbound_webhooks_can_answer()
        assert error.id == "games.E002" and "WEBHOOK_SIGNING_KEY" in error.msg
    with override_settings(JUMBULAYA_INBOUND_ESPS=["postmark", "mailgun"]):
        assert inbound_webhooks_can_answer() == []  # the fixture's settings
    with override_settings(JUMBULAYA_INBOUND_ESPS=["sendgrid"]):
        (error,) = inbound_webhooks_can_answer()
        assert error.id == "games.E001"


@pytest.mark.parametrize(
    ("environment", "esps"),
    [
        ({"DJANGO_DEBUG": "1"}, []),  # the embedded default: the local mailbox
        ({"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"}, []),
        ({"EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend"}, ["postmark"]),
        ({"EMAIL_BACKEND": "anymail.backends.mailgun.EmailBackend"}, ["mailgun"]),
        ({"EMAIL_BACKEND": "anymail.backends.sendgrid.EmailBackend"}, []),
        (
            {
                "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
                "JUMBULAYA_INBOUND_ESPS": "mailgun",
            },
            ["mailgun"],
        ),
    ],
)
def test_the_webhooks_mounted_follow_the_mail_backend(
    environment: dict[str, str], esps: list[str]
) -> None:
    """By default only the sending ESP's inbound webhook answers; the embedded
    default (the local mailbox) has none."""
    env = {k: v for k, v in os.environ.items() if k not in ("EMAIL_BACKEND", "DJANGO_DEBUG")}
    env.pop("JUMBULAYA_INBOUND_ESPS", None)
    code = "from jumbulaya_site import settings; print(','.join(settings.JUMBULAYA_INBOUND_ESPS))"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env | environment, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ([",".join(esps)] if esps else [])


# --- bounded_mime on its own ----------------------------------------------------------


def a_reply(*attachments: tuple[bytes, str]) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = "Ann <ann@example.com>"
    mail["To"] = "play+token@reply.localhost"
    mail["Subject"] = "Re: your turn"
    mail.set_content("3 FACTS\n\n-- \nAnn\n")
    mail.add_alternative("<p>3 FACTS</p>", subtype="html")
    for data, filename in attachments:
        mail.add_attachment(data, maintype="application", subtype="pdf", filename=filename)
    return mail


def bodies(raw: str | bytes) -> tuple[str, str, list[str]]:
    parsed = (
        AnymailInboundMessage.parse_raw_mime(raw)
        if isinstance(raw, str)
        else AnymailInboundMessage.parse_raw_mime_bytes(raw)
    )
    return parsed.text, parsed.html, [a.get_filename() for a in parsed.attachments]


def test_bounded_mime_leaves_attachments_out_and_the_reply_in() -> None:
    raw = a_reply((b"%PDF" + os.urandom(100_000), "scores.pdf")).as_string()
    out = bounded_mime(raw)
    assert len(out) < 2000 < len(raw)
    assert bodies(out) == ("3 FACTS\n\n-- \nAnn\n", "<p>3 FACTS</p>\n", ["scores.pdf"])
    assert bounded_mime(raw.encode()) == out.encode()


def test_bounded_mime_knows_a_boundary_from_a_longer_one() -> None:
    """``--b`` is not a boundary line of ``--bb``'s multipart, as the parser reads it."""
    raw = (
        'From: a@example.com\nContent-Type: multipart/mixed; boundary="bb"\n\n'
        "--bb\nContent-Type: text/plain\n\n--b\nContent-Type: image/png\n\nstill text\n"
        "--bb--\n"
    )
    assert bodies(bounded_mime(raw))[0] == bodies(raw)[0]


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=300),
    files=st.lists(st.binary(max_size=3000), max_size=3),
)
def test_bounded_mime_never_changes_what_is_read(text: str, files: list[bytes]) -> None:
    mail = a_reply(*[(data, f"f{i}.pdf") for i, data in enumerate(files)])
    mail.get_body(("plain",)).set_content(text)  # type: ignore[union-attr]
    raw = mail.as_string()
    try:
        out = bounded_mime(raw)
    except TooMuch:  # a text of many "--" lines may be past the bound: never half-read
        assert raw.count("\n--") > inbound_limits.MAX_DELIMITER_LINES - 10
        return
    assert bodies(out) == bodies(raw)
