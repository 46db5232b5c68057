import os

from django.core.wsgi import get_wsgi_application

from config.startup import settled

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")
application = get_wsgi_application()
settled()  # what starting made lives as long as the process (config/startup.py)
