from . import checks  # noqa: F401 - the deploy checks on our settings (manage.py check --deploy)
from .celery import app as celery_app

__all__ = ["celery_app"]
