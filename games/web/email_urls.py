"""Pages reached from game emails: turn links, unsubscribe links and the email
preferences page.  Included into the ``games`` namespace by games/urls.py."""

from django.urls import path

from games.web import link_views, live_views, preferences_views

urlpatterns = [
    path("t/<str:token>/", link_views.turn_link, name="turn_link"),
    path("t/<str:token>/preview/", link_views.turn_link_preview, name="turn_link_preview"),
    path("t/<str:token>/changes/", link_views.turn_link_changes, name="turn_link_changes"),
    path("t/<str:token>/hints/", link_views.turn_link_hints, name="turn_link_hints"),
    path("t/<str:token>/live/", live_views.link_stream, name="turn_link_live"),
    path("unsubscribe/<str:token>/", preferences_views.unsubscribe, name="unsubscribe"),
    path("no-invitations/<str:token>/", preferences_views.no_invitations, name="no_invitations"),
    path("settings/email/", preferences_views.preferences, name="email_preferences"),
]
