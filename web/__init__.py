"""The site's shared parts, around the apps: the error pages and the health check (``views.py``,
``health.py``), the rate limits, the cache that fails open, the installable app (``pwa.py``) and the
guides served at /docs/ (``docs_site.py``). It imports no app."""
