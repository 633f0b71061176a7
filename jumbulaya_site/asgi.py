"""ASGI entry point: ``jumbulaya_site.asgi:application``, served by gunicorn's uvicorn
workers (deploy/) and by ``make run``.

A request that waits (the API's long poll) sleeps on the event loop; every other view
runs as before, in a thread.  Under DEBUG (``make run``) the static files are served
here too, as ``runserver`` served them.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jumbulaya_site.settings")
os.environ["JUMBULAYA_SERVING_ASGI"] = "1"

from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application

application = get_asgi_application()
if settings.DEBUG:
    application = ASGIStaticFilesHandler(application)
