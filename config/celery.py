"""The Celery app. With no CELERY_BROKER_URL set, tasks run eagerly in-process.

Like WSGI and ASGI, a worker started without DJANGO_SETTINGS_MODULE runs the production settings
(the tests and CI set config.settings.test, manage.py config.settings.dev)."""

import os

from celery import Celery
from celery.signals import worker_init, worker_process_init

from config.startup import settled

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

app = Celery("tsoxa")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
@worker_process_init.connect
def _settled(**kwargs) -> None:
    """A worker started (``worker_init``), or one of its pool's processes (``worker_process_init``):
    what it made starting lives as long as it does (``config/startup.py``)."""
    settled()
