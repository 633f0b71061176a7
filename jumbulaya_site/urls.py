from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, register_converter, reverse_lazy
from django.views.generic import RedirectView

from games.mail_in import inbound_webhook, tracking_webhook
from games.web.converters import RowId

# <id:...> in the apps' URLs (registered before they are included).
register_converter(RowId, "id")

urlpatterns = [
    # Pages name their icons; a browser asks for this one where nothing names it
    # (a plain-text answer, a download).
    path("favicon.ico", RedirectView.as_view(url=static("favicon.ico"), permanent=True)),
    # Accounts have no passwords: staff sign in by email like everyone else.
    path(
        "admin/login/",
        RedirectView.as_view(url=reverse_lazy("accounts:sign_in"), query_string=True),
    ),
    path("admin/", admin.site.urls),
    path("account/", include("accounts.urls")),
    # The JSON API for programs (api/site.py): /api/v1/, its docs at /api/v1/docs.
    path("api/", include("api.urls")),
    path("dev/mailbox/", include("devmail.urls")),
    # ESP inbound webhooks (replies by email): /anymail/<esp>/inbound/
    # and their tracking webhooks (bounces, complaints): /anymail/<esp>/tracking/
    path(
        "anymail/",
        include((inbound_webhook.urlpatterns + tracking_webhook.urlpatterns, "anymail")),
    ),
    path("", include("ratings.urls")),
    path("", include("games.urls")),
]
