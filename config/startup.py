"""What each of the app's processes does once it has started: web (``wsgi.py``), live
(``asgi.py``), each Celery worker process (``celery.py``), and the benchmarks, which measure the
work those processes do.

``settled()`` moves every object made while starting (Django, the apps, their modules: some
260,000) into the collector's permanent generation (``gc.freeze``). They live as long as the
process, and a full cyclic collection would otherwise walk them all each time, for nothing: at
5,000 teams, a round's draw allocates enough to set one off, and it took 120-190 ms of the draw,
against 30-40 ms once they are frozen. Under gunicorn, each worker freezes what it imported (and,
with ``--preload``, what it shares with the others stays shared: the collector no longer writes to
those objects' pages).
"""

import gc


def settled() -> None:
    """The process has started: what it made so far lives as long as it does (see the module)."""
    gc.freeze()
