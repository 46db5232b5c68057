"""The WSGI application gunicorn serves for benchmarks/load.py: the project's own, unchanged,
with its server errors written to stderr (with DEBUG off Django would only mail them to the
admins), so that the benchmark can count them and show the first traceback."""

import logging
import sys

from config.wsgi import application

handler = logging.StreamHandler(sys.stderr)
handler.setLevel(logging.ERROR)
handler.setFormatter(logging.Formatter("[django] %(levelname)s %(name)s: %(message)s"))
logging.getLogger("django.request").addHandler(handler)

__all__ = ["application"]
