"""The installable app as the browser asks for it: the manifest, the service worker and the offline
page, with their content types and headers, and a policy that lets the worker run (web/pwa.py)."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.urls import reverse

from scoring import services as scoring
from tests.factories import TEAMS


def png_size(content: bytes) -> tuple[int, int]:
    assert content[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", content[16:24])  # IHDR: width, height


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in (part.strip() for part in header.split(";")) if d}


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == "Tsoxa"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _purpose), icon in icons.items():
        image = client.get(icon["src"])
        assert image.status_code == 200, icon
        assert image["Content-Type"] == icon["type"] == "image/png"
        assert "{}x{}".format(*png_size(b"".join(image.streaming_content))) == sizes


def test_the_manifest_speaks_the_language_of_the_page(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="el")
    manifest = json.loads(response.content)
    assert manifest["lang"] == "el"
    assert manifest["name"] == "Tsoxa"


def test_the_service_worker_is_served_from_the_root_fresh_every_time(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    script = response.content.decode()
    config = json.loads(re.match(r"const TSOXA = (\{.*\});\n", script).group(1))
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert config["offline"] == reverse("offline")
    assert 'self.addEventListener("fetch"' in script
    # The worker installs only if every file it keeps answers: each of them does.
    precache = config["precache"]
    for name in ("scoring/tsoxa.css", "scoring/tablet.js", "scoring/offline.js", "scoring/offline.css"):
        assert f"/static/{name}" in precache
    assert any(re.search(r"/static/django_htmx/htmx[^/]*\.js$", url) for url in precache)
    assert "/static/scoring/sw.js" not in precache and "/static/.keep" not in precache
    for url in [*precache, config["offline"]]:
        assert client.get(url).status_code == 200, url


def test_the_worker_and_the_manifest_answer_head_and_refuse_posts(client):
    for url in ("/sw.js", "/manifest.webmanifest", "/offline/"):
        assert client.head(url).status_code == 200, url
        assert client.post(url).status_code == 405, url


@pytest.mark.django_db
def test_the_offline_page_has_room_for_the_kept_sheets(client):
    response = client.get("/offline/")
    assert response.status_code == 200
    assert 'id="kept-sheets"' in response.text
    assert "No connection" in response.text


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_lets_the_worker_run(client, django_user_model):
    keeper = django_user_model.objects.create_user(username="keeper", password="pw-keeper-12345")
    match = scoring.match_create(teams=TEAMS, first_dealer=0, created_by=keeper)
    client.force_login(keeper)
    for url in ["/", reverse("scoring:match", args=[match.pk]), reverse("scoring:help"), "/offline/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert '<link rel="manifest" href="/manifest.webmanifest">' in response.text, url
        assert re.search(
            r'<script src="/static/scoring/offline\.js" data-sw="/sw\.js" defer>', response.text
        ), url
        directives = policy(response)
        assert directives["worker-src"] == ["'self'"], url
        assert directives["manifest-src"] == ["'self'"], url


@pytest.mark.django_db
def test_the_sheet_has_a_place_for_the_waiting_deals(client, django_user_model):
    keeper = django_user_model.objects.create_user(username="keeper", password="pw-keeper-12345")
    match = scoring.match_create(teams=TEAMS, first_dealer=0, created_by=keeper)
    client.force_login(keeper)
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert re.search(r'<tbody id="waiting-deals"[^>]*></tbody>', page)
