"""/dev/mailbox: read what the service sent, and click its links."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.csp import CSP
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_POST

from devmail import tracking
from devmail.loopback import mailbox_open_to
from devmail.models import Message
from devmail.replies import quoted, send_reply
from games.models import MailEvent

#: What the mailbox says about a reply, by outcome.
SAID = {
    "moved": "Your reply was read and the move was made; the answer is in the mailbox.",
    "refused": "Your reply was read but not played; the answer in the mailbox says why.",
    "answered": "Your reply asked for hints; nothing was played, and the answer is in the mailbox.",
    "said": "Your reply was posted to the players as a message; nothing was played.",
    "duplicate": "That reply had already been received; nothing was done.",
}
#: What the mailbox says an email became, by the button pressed.
REPORTED = {"bounce": "bounced", "defer": "deferred", "spam": "marked as spam"}
#: What it says when "Our server failed" is pressed on a sent game email, and on another.
SERVER_FAILED = (
    "The service takes it that sending this email failed, as if our mail server had refused "
    "our password (535): the alarm is raised (/healthz says degraded, the log says it once, "
    "the admins are emailed), no one's address is blamed, and the email waits: it is sent "
    "again when the server is next tried, in a minute."
)
NOT_FAILED = (
    "This email is not one the outbox sent (a sign-in link, a confirmation or a note to the "
    "admins), or it is waiting to be sent again already; nothing changed."
)
#: The longest reply the form takes.
MAX_REPLY = 50_000
#: The most new emails one answer to the page's poll lists.
NEWS_SHOWN = 50
#: The policy of an email's HTML: the inline styles emails are made of, and nothing else
#: (no script, nothing fetched), shown only in a frame of the mailbox's own pages.
EMAIL_CSP: dict[str, list[str]] = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],
    "img-src": ["data:"],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.NONE],
    "frame-ancestors": [CSP.SELF],
}


#: Links in an email open in the mailbox's window: the site's pages refuse to be framed.
LINKS_TO_TOP = '<base target="_top">'


def _mailbox_on(request: HttpRequest) -> None:
    """A 404 unless the mailbox is on, and open to this request (this
    machine's, :mod:`devmail.loopback`)."""
    if not settings.JUMBULAYA_MAILBOX:
        raise Http404("The local mailbox is off.")
    if not mailbox_open_to(request):
        raise Http404("The local mailbox answers this machine only.")


@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    _mailbox_on(request)
    to = request.GET.get("to", "").strip().lower()
    messages = Message.objects.all()
    if to:
        messages = messages.filter(to__icontains=to)
    return render(request, "devmail/inbox.html", {"mail": messages[:200], "to": to})


@require_GET
def message(request: HttpRequest, message_id: int) -> HttpResponse:
    _mailbox_on(request)
    mail = get_object_or_404(Message, pk=message_id)
    reply_to = mail.headers.get("Reply-To", "")
    context = {
        "mail": mail,
        "reply_to": reply_to,
        "quoted": quoted(mail) if reply_to else "",
        "from_outbox": tracking.outbox_row(mail) is not None,
    }
    return render(request, "devmail/message.html", context)


@require_GET
@xframe_options_sameorigin
@csp_override(EMAIL_CSP)
def message_html(request: HttpRequest, message_id: int) -> HttpResponse:
    """An email's HTML, for the frame on its page. It is served apart, under a policy of
    its own: a srcdoc frame takes the page's policy, which refuses inline styles."""
    _mailbox_on(request)
    mail = get_object_or_404(Message, pk=message_id)
    if not mail.html:
        raise Http404("This email has no HTML version.")
    head = re.search(r"<head\b[^>]*>", mail.html, re.IGNORECASE)
    at = head.end() if head else 0
    html = mail.html[:at] + LINKS_TO_TOP + mail.html[at:]
    return HttpResponse(html, content_type="text/html; charset=utf-8")


@require_POST
def reply(request: HttpRequest, message_id: int) -> HttpResponse:
    """Answer an email as its recipient would from a mail client: the reply
    goes through the same processing as one an ESP posts to the webhook."""
    _mailbox_on(request)
    mail = get_object_or_404(Message, pk=message_id)
    body = request.POST.get("body", "")[:MAX_REPLY]
    sent = send_reply(mail, body)
    outcome = sent.outcome
    said = SAID.get(outcome.status) or f"The reply was dropped without an answer: {outcome.reason}."
    if getattr(request, "htmx", False):  # set by django-htmx's middleware
        # The message page stays: the answers are listed on it as they arrive.
        news = _news_after(sent.reply.pk)
        after = news[-1].pk if news else sent.reply.pk
        return render(request, "devmail/_news.html", {"said": said, "news": news, "after": after})
    messages.info(request, said)
    to = mail.to.splitlines()[0] if mail.to else ""
    return HttpResponseRedirect(reverse("devmail:inbox") + "?" + urlencode({"to": to}))


def _news_after(pk: int) -> list[Message]:
    return list(Message.objects.filter(pk__gt=pk).order_by("pk")[:NEWS_SHOWN])


@require_GET
def news(request: HttpRequest) -> HttpResponse:
    """The emails kept since ``?after=<id>``, as items of the list a message
    page shows after a reply (which polls this): 204 while there are none."""
    _mailbox_on(request)
    after = request.GET.get("after", "")
    if not after.isdigit() or len(after) > 12:
        return HttpResponse(
            "Say which email the list ends at: ?after=<id>.", status=400, content_type="text/plain"
        )
    found = _news_after(int(after))
    if not found:
        return HttpResponse(status=204)
    return render(
        request, "devmail/_news_items.html", {"news": found, "after": found[-1].pk, "oob": True}
    )


@require_POST
def report(request: HttpRequest, message_id: int) -> HttpResponse:
    """Bounce an email, defer it or mark it as spam, as the recipient's mail
    server or mail client would (the event goes the way an ESP's tracking
    webhook does), or fail its send, as our own mail server would."""
    _mailbox_on(request)
    mail = get_object_or_404(Message, pk=message_id)
    action = request.POST.get("action", "")
    if action == "failed":
        messages.info(request, SERVER_FAILED if tracking.server_failed(mail) else NOT_FAILED)
        return HttpResponseRedirect(reverse("devmail:message", args=[mail.pk]))
    if action not in tracking.ACTIONS:
        return HttpResponse(
            "Say what to do: action=bounce, defer, spam or failed.",
            status=400,
            content_type="text/plain",
        )
    stored = tracking.report(mail, action)
    what = REPORTED[action]
    if stored is None:
        said = f"The email had already been {what}; nothing changed."
    elif stored.ignored:
        why = MailEvent.Ignored(stored.ignored).label
        said = f"The email was {what}, but the service ignores that: {why}."
    else:
        said = f"The email was {what}: the service has been told, as an ESP would tell it."
    messages.info(request, said)
    return HttpResponseRedirect(reverse("devmail:message", args=[mail.pk]))
