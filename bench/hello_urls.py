"""The site's URLs plus ``/bench/hello``: the cheapest Django response, the
baseline the service benchmark compares a move with.  The benchmark server runs
with ``DJANGO_ROOT_URLCONF=bench.hello_urls``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("hello")


urlpatterns = [
    path("bench/hello", hello, name="bench_hello"),
    path("", include("jumbulaya_site.urls")),
]
