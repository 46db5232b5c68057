"""The guides (docs/, mkdocs.yml) as the app serves them at /docs/ (web/docs_site.py): the index
and a guide answer, a directory without its slash is redirected, a missing page is the site's 404,
nothing outside the site is reachable, each page runs under a policy that allows exactly its own
inline scripts (a 304 too), it all works under the production settings, and the in-app help links
to pages that exist, in the reader's language where the guides have one. Built once per run with
MkDocs, as ./run and the Dockerfile build them; CI's lint builds them with --strict."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from django.urls import reverse

from web import docs_site

ROOT = Path(__file__).resolve().parents[2]
INLINE = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)


@cache
def built_site() -> Path:
    """The guides built by MkDocs into a folder of this test run (not --strict: a broken link is CI's
    lint's to report, not every test's)."""
    site = Path(tempfile.mkdtemp(prefix="tsoxa-docs-")) / "site"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("mkdocs")), "build", "--quiet", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert done.returncode == 0 and (site / "index.html").is_file(), done.stderr
    return site


@pytest.fixture
def site(settings) -> Path:
    settings.TSOXA_DOCS_DIR = built_site()
    return settings.TSOXA_DOCS_DIR


def policy_of(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in (p.strip() for p in header.split(";")) if part}


def inline_hashes(html: str) -> set[str]:
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(m.group("body").encode()).digest()).decode() + "'"
        for m in INLINE.finditer(html)
        if "src=" not in m.group("attrs") and "application/json" not in m.group("attrs")
    }


# Serving ------------------------------------------------------------------------------------------


def test_docs_answers_the_index(client, site):
    response = client.get("/docs/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode()
    assert "Which guide is yours" in page and "<title>Tsoxa</title>" in page
    assert 'href="deploy/"' in page and 'href="developers/"' in page  # the readers' guides, linked


def test_a_guide_answers_and_its_address_without_the_slash_is_redirected(client, site):
    page = client.get("/docs/deploy/outage/")
    assert page.status_code == 200 and "What happens in an outage" in page.content.decode()
    assert client.get("/docs/deploy/outage/index.html").status_code == 200
    moved = client.get("/docs/deploy/outage")
    assert moved.status_code == 302 and moved["Location"] == "/docs/deploy/outage/"


@pytest.mark.parametrize(
    "path",
    ["/docs/no-such-guide/", "/docs/deploy/nothing.html", "/docs/../README.md", "/docs/%2e%2e/manage.py",
     "/docs/..%2fmanage.py", "/docs/.hidden"],
)  # fmt: skip
def test_a_missing_page_is_the_sites_404(client, site, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "404" in response.content.decode() and "DJANGO" not in response.content.decode()


def test_a_missing_page_keeps_its_own_policy(client, site):
    response = client.get("/docs/no-such-guide/")
    html = response.content.decode()
    assert inline_hashes(html) and inline_hashes(html) <= set(policy_of(response)["script-src"])


def test_without_a_built_site_docs_says_so(client, settings, tmp_path):
    settings.TSOXA_DOCS_DIR = tmp_path / "never-built"
    response = client.get("/docs/")
    assert response.status_code == 404 and "mkdocs build" in response.content.decode()


def test_files_carry_their_content_type(client, site):
    assets = site / "assets"
    stylesheet = next((assets / "stylesheets").glob("main.*.min.css")).relative_to(site).as_posix()
    script = next((assets / "javascripts").glob("bundle.*.min.js")).relative_to(site).as_posix()
    expected = {
        stylesheet: "text/css",
        script: "text/javascript",
        "search/search_index.json": "application/json",
        "screenshots/sheet-portrait.png": "image/png",
    }
    for path, content_type in expected.items():
        response = client.get(f"/docs/{path}")
        assert response.status_code == 200, path
        assert response["Content-Type"].split(";")[0] == content_type, path
    kept = client.get(f"/docs/{script}")
    assert "immutable" in kept["Cache-Control"]  # its name changes with its content


def test_writes_are_refused(client, site):
    assert client.post("/docs/").status_code == 405


# The page's own policy --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/docs/", "/docs/developers/api/", "/docs/deploy/backups/"])
def test_a_page_may_run_exactly_its_own_inline_scripts(client, site, path):
    response = client.get(path)
    policy = policy_of(response)
    hashes = inline_hashes(response.content.decode())
    assert hashes, "the theme's inline scripts are found"
    assert policy["script-src"][0] == "'self'" and set(policy["script-src"][1:]) == hashes
    assert "'unsafe-inline'" not in policy["script-src"] and "'unsafe-eval'" not in policy["script-src"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["default-src"] == ["'self'"]


def test_an_unchanged_page_is_a_304_that_keeps_its_policy(client, site):
    """A browser takes a 304's headers over those it kept: the site-wide policy there would block
    the page's scripts the second time it is opened."""
    first = client.get("/docs/deploy/")
    again = client.get("/docs/deploy/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again["Content-Security-Policy"] == first["Content-Security-Policy"]
    later = client.get("/docs/deploy/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert later.status_code == 304 and later["Content-Security-Policy"] == first["Content-Security-Policy"]


def test_other_pages_keep_the_sites_policy(client, site):
    assert policy_of(client.get("/health/"))["script-src"] == ["'self'"]


def test_served_under_the_production_settings(site):
    """DEBUG off, the production settings (HTTPS, hosts): the guides answer as they do here."""
    script = """
import django
django.setup()
from django.conf import settings
from django.test import Client
client = Client(HTTP_HOST="tsoxa.example.org")
index, guide, missing = (client.get(p, secure=True) for p in ("/docs/", "/docs/deploy/", "/docs/nowhere/"))
assert not settings.DEBUG
hashed = "sha256-" in index["Content-Security-Policy"]
print(index.status_code, guide.status_code, missing.status_code, hashed)
"""
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": "a-production-key-for-this-test-only-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "tsoxa.example.org",
        "TSOXA_DOCS_DIR": str(site),
        "DATABASE_URL": "sqlite:///" + str(site.parent / "unused.sqlite3"),
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].split() == ["200", "200", "404", "True"]  # after the log's lines


# A guide's address in the reader's language -----------------------------------------------------


@pytest.fixture
def translated(settings, tmp_path):
    """Guides where only the scorekeeper's card is in Greek."""
    settings.BASE_DIR = tmp_path
    (tmp_path / "docs" / "el").mkdir(parents=True)
    (tmp_path / "docs" / "el" / "scorekeeper.md").write_text("# Η κάρτα του γραμματέα\n")
    (tmp_path / "docs" / "scorekeeper.md").write_text("# The scorekeeper's card\n")


def test_a_guide_in_the_readers_language_where_it_exists(translated):
    assert docs_site.page_url("scorekeeper", "el") == "/docs/el/scorekeeper/"
    assert docs_site.page_url("scorekeeper", "en") == "/docs/scorekeeper/"
    assert docs_site.page_url("scorekeeper", "bg") == "/docs/scorekeeper/"  # none in Bulgarian here
    assert docs_site.page_url("organizer/concours", "el") == "/docs/organizer/concours/"
    assert docs_site.page_url("developers/webhooks#checking-the-signature", "el") == (
        "/docs/developers/webhooks/#checking-the-signature"
    )
    assert docs_site.page_url("", "el") == "/docs/"


def test_the_help_links_the_readers_language(client, translated):
    greek = client.get(reverse("scoring:help"), HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert 'href="/docs/el/scorekeeper/"' in greek
    english = client.get(reverse("scoring:help"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="/docs/scorekeeper/"' in english and "/docs/el/" not in english


@pytest.mark.parametrize("lang", ["en", "el", "fr", "bg"])
def test_every_link_of_the_help_to_the_guides_answers(client, site, lang):
    """Each /docs/ link of the in-app help is a page of the built guides (its anchor too), in the
    reader's language where the guides have one; the help no longer points into the README."""
    help_page = client.get(reverse("scoring:help"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    links = set(re.findall(r'href="(/docs/[^"]*)"', help_page))
    assert {"/docs/", "/docs/games/coinche/", "/docs/developers/webhooks/#checking-the-signature"} <= links
    assert "README" not in help_page and "docs/rules/" not in help_page
    for link in links:
        path, _, anchor = link.partition("#")
        response = client.get(path)
        assert response.status_code == 200, link
        if anchor:
            assert f'id="{anchor}"' in response.content.decode(), link
    for guide in ("scorekeeper", "players"):
        if lang != "en" and (ROOT / "docs" / lang / f"{guide}.md").is_file():
            assert f"/docs/{lang}/{guide}/" in links


# Where the guides are built ---------------------------------------------------------------------


def test_ci_builds_the_guides_strictly_in_its_lint_phase():
    ci = (ROOT / ".ci" / "run").read_text()
    lint = ci[ci.index('step "lint') : ci.index('step "the tests')]
    assert "mkdocs build --strict" in lint


def test_run_builds_the_guides_before_serving_and_testing():
    run = (ROOT / "run").read_text()
    assert 'mkdocs" build --strict' in run
    for command in ("serve)", "test)"):
        branch = run[run.index(f"  {command}") :]
        assert branch.index("build_docs") < branch.index(";;"), command


def test_the_image_builds_the_guides_it_serves():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY docs ./docs" in dockerfile and "mkdocs.yml" in dockerfile
    assert "mkdocs build --strict" in dockerfile


def test_the_readme_is_a_newcomers_page_that_points_to_the_guides():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= 16_000
    assert readme.startswith("# Tsoxa\n\n```sh\n./run serve    # installs everything")
    assert "/docs/" in readme
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).exists(), target
