from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Signed-in players go to their games; everyone else sees what this is."""
    if request.user.is_authenticated:
        return redirect("games:dashboard")
    return render(request, "home.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness plus a trivial database round trip."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return HttpResponse("ok", content_type="text/plain")
