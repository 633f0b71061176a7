from django.urls import path, re_path

from api.errors import not_found_view
from api.site import api

urlpatterns = [
    path("v1/", api.urls),
    # Any other path under /api/: a JSON 404 too.
    re_path(r"^(?P<rest>.*)$", not_found_view),
]
