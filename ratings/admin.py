"""Staff pages for ratings: shown, never edited (a rating follows from the
rated games; :mod:`ratings.rating` writes them)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import Rating, RatingChange


class _ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(_ReadOnly):
    list_display = ("user", "kind", "ordinal", "mu", "sigma", "games", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__display_name", "user__email")


@admin.register(RatingChange)
class RatingChangeAdmin(_ReadOnly):
    list_display = ("game", "seat", "user", "kind", "rank", "ordinal_before", "ordinal_after")
    list_filter = ("kind",)
    search_fields = ("game__id", "user__display_name")
