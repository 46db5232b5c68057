"""The Celery app. With no CELERY_BROKER_URL set, tasks run eagerly in-process.

Like WSGI and ASGI, a worker started without DJANGO_SETTINGS_MODULE runs the production settings
(the tests and CI set config.settings.test, manage.py config.settings.dev)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

app = Celery("tsoxa")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
