"""/dev/mailbox: read what the service sent, and click its links."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from devmail.models import Message


def _mailbox_on() -> None:
    if not settings.JUMBULAYA_MAILBOX:
        raise Http404("The local mailbox is off.")


@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    _mailbox_on()
    to = request.GET.get("to", "").strip().lower()
    messages = Message.objects.all()
    if to:
        messages = messages.filter(to__icontains=to)
    return render(request, "devmail/inbox.html", {"mail": messages[:200], "to": to})


@require_GET
def message(request: HttpRequest, message_id: int) -> HttpResponse:
    _mailbox_on()
    mail = get_object_or_404(Message, pk=message_id)
    return render(request, "devmail/message.html", {"mail": mail})
