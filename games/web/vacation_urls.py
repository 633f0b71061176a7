"""The vacation page's address (included by :mod:`games.urls`)."""

from django.urls import path

from games.web import vacation_views

urlpatterns = [
    path("vacation/", vacation_views.vacation, name="vacation"),
]
