"""Staff pages for games.  The event log is the truth and append-only, and a
game and its seats are projections of it, so those are shown, never edited
here: a change to a game goes through the one door (:mod:`games.core.door`)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone

from games.models import (
    Event,
    Game,
    InboundMail,
    MailEvent,
    MailStatus,
    Message,
    MessageReport,
    NoInvitations,
    Notification,
    Seat,
)


class ReadOnlyAdminMixin:
    """View only: no add, change or delete, for anyone (superusers included)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Seat
    fields = ("index", "user", "invited_email", "joined_at")
    readonly_fields = fields
    extra = 0


@admin.register(Game)
class GameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "status",
        "seat_count",
        "created_by",
        "created_at",
        "last_seq",
        "turn_seat",
        "deadline_at",
        "is_public",
        "is_open",
    )
    list_filter = ("status", "is_public", "is_open")
    list_select_related = ("created_by",)
    search_fields = ("id", "created_by__email", "created_by__display_name")
    date_hierarchy = "created_at"
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("game", "index", "user", "invited_email", "joined_at")
    list_select_related = ("game", "user")
    search_fields = ("game__id", "user__email", "user__display_name", "invited_email")


@admin.register(Event)
class EventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("game", "seq", "type", "seat", "source", "created_at")
    list_filter = ("type", "source")
    list_select_related = ("game",)
    search_fields = ("game__id", "type", "idempotency_key")
    date_hierarchy = "created_at"


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """Notifications are written with their events; staff may only reset the
    sending marks (to resend a stuck one) or delete one that should not go."""

    list_display = (
        "kind",
        "game",
        "user",
        "email",
        "created_at",
        "taken_at",
        "sent_at",
        "attempts",
        "retry_at",
    )
    list_filter = ("kind", ("sent_at", admin.EmptyFieldListFilter))
    list_select_related = ("game", "user")
    search_fields = ("game__id", "user__email", "email")
    readonly_fields = ("kind", "user", "email", "game", "event_seq", "created_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(InboundMail)
class InboundMailAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Email replies received: what was read and what came of it."""

    list_display = ("received_at", "status", "via", "sender", "game", "move", "event_seq")
    list_filter = ("status", "via")
    list_select_related = ("game",)
    search_fields = ("sender", "message_id", "game__id")
    fields = (
        "message_id",
        "received_at",
        "via",
        "sender",
        "subject",
        "game",
        "user",
        "status",
        "reason",
        "read",
        "move",
        "event_seq",
    )
    readonly_fields = fields


@admin.register(NoInvitations)
class NoInvitationsAdmin(admin.ModelAdmin):
    """Addresses that asked for no more invitations; deleting one lets friends
    invite it again (when its owner asks)."""

    list_display = ("email", "created_at")
    search_fields = ("email",)
    readonly_fields = ("email", "created_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MailStatus)
class MailStatusAdmin(admin.ModelAdmin):
    """Whether mail reaches each address, and why it stopped."""

    list_display = ("address", "stopped_at", "reason", "warned_at", "restored_at")
    list_filter = ("reason",)
    search_fields = ("address",)


@admin.register(MailEvent)
class MailEventAdmin(admin.ModelAdmin):
    """What the ESPs and the mail server said about our mail."""

    list_display = ("occurred_at", "via", "event", "weight", "ignored", "address", "notification")
    list_filter = ("via", "event", "weight", "ignored")
    search_fields = ("address", "message_id")
    raw_id_fields = ("notification",)


@admin.action(description="Hide the selected messages (shown nowhere any more)")
def hide_messages(modeladmin: Any, request: HttpRequest, queryset: Any) -> None:
    queryset.filter(hidden_at__isnull=True).update(hidden_at=timezone.now())


@admin.action(description="Show the selected messages again")
def show_messages(modeladmin: Any, request: HttpRequest, queryset: Any) -> None:
    queryset.update(hidden_at=None)


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """Players' messages: staff read them and may hide one (the text is never
    edited, and a message is never added here)."""

    list_display = ("id", "game", "seat", "author", "seq", "created_at", "hidden_at", "text")
    list_filter = ("hidden_at", "source")
    list_select_related = ("author",)
    search_fields = ("game__id", "author__email", "author__display_name", "text")
    readonly_fields = ("game", "seat", "author", "seq", "text", "source", "created_at")
    actions = (hide_messages, show_messages)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.action(description="Hide the reported messages and mark the reports dealt with")
def hide_reported(modeladmin: Any, request: HttpRequest, queryset: Any) -> None:
    now = timezone.now()
    Message.objects.filter(reports__in=queryset, hidden_at__isnull=True).update(hidden_at=now)
    queryset.filter(resolved_at__isnull=True).update(resolved_at=now)


@admin.action(description="Leave the reported messages shown; mark the reports dealt with")
def dismiss_reports(modeladmin: Any, request: HttpRequest, queryset: Any) -> None:
    queryset.filter(resolved_at__isnull=True).update(resolved_at=timezone.now())


@admin.register(MessageReport)
class MessageReportAdmin(admin.ModelAdmin):
    """Players' reports of messages: what was said, by whom, and who reported it."""

    list_display = (
        "id",
        "message_text",
        "message_author",
        "reporter",
        "reason",
        "created_at",
        "resolved_at",
    )
    list_filter = ("resolved_at",)
    list_select_related = ("message__author", "reporter")
    readonly_fields = ("message", "reporter", "reason", "created_at")
    actions = (hide_reported, dismiss_reports)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="message")
    def message_text(self, report: MessageReport) -> str:
        return report.message.text[:120]

    @admin.display(description="said by")
    def message_author(self, report: MessageReport) -> str:
        return str(report.message.author)
