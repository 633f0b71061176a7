from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.web.forms import play_now
from games.web.how_to_play import guides
from ops import health


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Signed-in players go to their games; everyone else sees what this is:
    the games, each with its How to play page, and a game against a robot."""
    if request.user.is_authenticated:
        return redirect("games:dashboard")
    return render(request, "home.html", {"play_now": play_now(), "guides": guides()})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """The service's parts (ops/health.py): 200 when each is well (``degraded``
    while an alarm of ours is raised), else 503 with the failing ones named
    under ``failing``."""
    healthy, body = health.report()
    response = JsonResponse(body, status=200 if healthy else 503)
    # A 503 here is the answer a monitor asked for, not a failure of this
    # request: Django's request log would write an error line per poll.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response
