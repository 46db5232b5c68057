"""The ASGI application: the ``live`` service (uvicorn), which serves the big screens' event streams.

An open stream must cost its process no thread and no database connection while it waits
(``tournaments/live.py``). Django gives each ASGI request a thread of its own for the sync parts
of its middleware, kept until the request ends: for a stream, for as long as a screen is shown.
So the streams' paths go to a handler of their own, where

- the middleware that can only run in a thread, and has nothing to do with a stream, is left out
  (WhiteNoise serves static files; the rate-limit middleware answers a login limit's exception):
  the view runs on the event loop, never waiting in a thread;
- the short sync steps of the rest (the session, CSRF, security headers …) share one thread for
  every stream of the process, instead of one each.

Every other path is Django's usual application.
"""

import functools
import os
import re
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync, ThreadSensitiveContext
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler
from django.utils.module_loading import import_string

from config.startup import settled

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")
django_application = get_asgi_application()

STREAM_PATH = re.compile(r"^/tournaments/[^/]+/screen/events/$")


class StreamsHandler(ASGIHandler):
    """Django's ASGI handler with only the middleware that can run on the event loop."""

    def load_middleware(self, is_async: bool = False) -> None:
        everything = settings.MIDDLEWARE
        settings.MIDDLEWARE = [m for m in everything if getattr(import_string(m), "async_capable", False)]
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = everything


@functools.cache
def streams_application() -> StreamsHandler:
    return StreamsHandler()


# Every stream's thread-sensitive steps in one thread: an outer context, never left, which Django's
# own (per request) then leaves in place.
_STREAMS_CONTEXT = ThreadSensitiveContext()
SyncToAsync.context_to_thread_executor[_STREAMS_CONTEXT] = ThreadPoolExecutor(
    max_workers=1, thread_name_prefix="streams"
)


async def application(scope, receive, send):
    if scope["type"] == "http" and STREAM_PATH.match(scope.get("path", "")):
        token = SyncToAsync.thread_sensitive_context.set(_STREAMS_CONTEXT)
        try:
            return await streams_application()(scope, receive, send)
        finally:
            SyncToAsync.thread_sensitive_context.reset(token)
    return await django_application(scope, receive, send)


settled()
