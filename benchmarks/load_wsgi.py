"""The WSGI application gunicorn serves for benchmarks/load.py: the project's own, unchanged,
with its server errors written to stderr (with DEBUG off Django would only mail them to the
admins), so that the benchmark can count them and show the first traceback.

With TSOXA_LOAD_BENCHMARK=1 (set by the benchmark for its own server, never in production: the
project's urls do not know this view) the application answers one URL more, the honest ceiling of
a write on this stack: ``POST /bench/minimal-write/`` authenticates with the token as the API does,
reads the JSON body, inserts one row in a transaction into the benchmark's table and answers its id
(201). A deal does all that, and more: its ratio to this is the deal path's overhead.
"""

import json
import logging
import os
import sys

# The project's application first: it sets Django up, and DRF's views read their settings' classes
# (the scoped tokens' authentication imports the models) when they are imported.
from config.wsgi import application  # isort: skip

from django.conf import settings
from django.db import connection, transaction
from django.urls import include, path
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

handler = logging.StreamHandler(sys.stderr)
handler.setLevel(logging.ERROR)
handler.setFormatter(logging.Formatter("[django] %(levelname)s %(name)s: %(message)s"))
logging.getLogger("django.request").addHandler(handler)

MINIMAL_WRITE_PATH = "bench/minimal-write/"
MINIMAL_WRITE_TABLE = "bench_minimal_write"  # made (and dropped with its database) by benchmarks/load.py
MINIMAL_WRITE_DDL = (
    f"CREATE TABLE IF NOT EXISTS {MINIMAL_WRITE_TABLE} (id bigserial PRIMARY KEY, user_id bigint NOT NULL, "
    "body jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())"
)


@api_view(["POST"])
@permission_classes([IsAuthenticated])
def minimal_write(request):
    """One row inserted in a transaction, for the signed-in token: the least a write costs here."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {MINIMAL_WRITE_TABLE} (user_id, body) VALUES (%s, %s) RETURNING id",
            [request.user.pk, json.dumps(request.data)],
        )
        row_id = cursor.fetchone()[0]
    return Response({"id": row_id}, status=201)


urlpatterns = [path(MINIMAL_WRITE_PATH, minimal_write), path("", include("config.urls"))]

if os.environ.get("TSOXA_LOAD_BENCHMARK") == "1":
    settings.ROOT_URLCONF = __name__  # before the first request: the project's urls and this one

__all__ = ["application"]
