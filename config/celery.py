"""The Celery app. With no CELERY_BROKER_URL set, tasks run eagerly in-process."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("tsoxa")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
