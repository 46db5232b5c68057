"""The engine the tablet runs without a connection (web/pwa.py, static/scoring/engine-loader.js):
scoring/engine/'s own files, served as they are; Pyodide's core files from ./run's install; the
service worker keeps them only for a sheet with a pad, not when it installs."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from django.conf import settings
from django.urls import reverse

from web import pwa

ENGINE = Path(settings.BASE_DIR) / "scoring" / "engine"
PYODIDE = Path(settings.BASE_DIR) / "static" / "pyodide"


def worker_config(client) -> dict:
    script = client.get("/sw.js").content.decode()
    return json.loads(re.match(r"const TSOXA = (\{.*\});\n", script).group(1))


def test_the_engine_zip_is_scoring_engine_s_own_files_byte_for_byte(client):
    response = client.get(reverse("engine-zip"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Cache-Control"] == "no-cache"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    sources = {
        f"scoring/engine/{p.relative_to(ENGINE).as_posix()}": p.read_bytes() for p in ENGINE.rglob("*.py")
    }
    assert "scoring/engine/rulesets/coinche.py" in sources
    assert {name: archive.read(name) for name in archive.namelist()} == {
        "scoring/__init__.py": b"",
        **sources,
    }


def test_the_unpacked_engine_replays_a_match_without_django(client, tmp_path):
    """What Pyodide does with it: unpacked, imported alone (no Django, no project), a match file
    scored, as engine-loader.js's Python does."""
    zipfile.ZipFile(io.BytesIO(client.get(reverse("engine-zip")).content)).extractall(tmp_path)
    program = (
        "import json, sys; sys.path[:0] = [sys.argv[1]]\n"
        "from scoring.engine import loads\n"
        "deals = [{'maker': 0, 'card_points': [90, 62], 'last_trick': 0}, {'thrown_in': True}]\n"
        "sheet = loads(json.dumps({'ruleset': 'mpourloto', 'deals': deals})).sheet()\n"
        "import scoring.engine\n"
        "print(json.dumps([sheet.to_dict()['totals'], scoring.engine.__file__, 'django' in sys.modules]))"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-c", program, str(tmp_path)], capture_output=True, text=True, check=True
    )
    totals, where, django = json.loads(run.stdout)
    assert totals == [100, 62]
    assert where.startswith(str(tmp_path)) and django is False


def test_the_worker_keeps_pyodide_with_a_sheet_not_when_it_installs(client):
    config = worker_config(client)
    assert not [url for url in config["precache"] if "/pyodide/" in url]  # 10 MB: not for every page
    files = config["engine"]["files"]
    assert reverse("engine-zip") in files and reverse("engine-worker") in files
    assert sorted(Path(url).name for url in files if "/pyodide/" in url) == sorted(pwa.PYODIDE_FILES)
    assert re.fullmatch(r"[0-9a-f]{16}", config["engine"]["version"])
    # ./run copied them (from npm's pinned package) where the static files are served from.
    for url in files:
        assert client.get(url).status_code == 200, url


def test_the_engine_s_version_follows_its_files(monkeypatch, tmp_path):
    before = pwa._engine_digest()
    copy = tmp_path / "engine"
    copy.mkdir()
    for path in ENGINE.rglob("*.py"):
        target = copy / path.relative_to(ENGINE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    monkeypatch.setattr(pwa, "ENGINE_DIR", copy)
    assert pwa._engine_digest() == before
    (copy / "rulesets" / "coinche.py").write_text("# changed\n", encoding="utf-8")
    assert pwa._engine_digest() != before  # a deploy that changes a rule: the tablets keep it anew


def script_src(response) -> list[str]:
    header = response["Content-Security-Policy"]
    return next(d for d in header.split(";") if d.strip().startswith("script-src")).split()[1:]


def test_only_the_engine_s_worker_may_compile_webassembly_and_nothing_evaluates(client, db):
    worker = client.get(reverse("engine-worker"))
    assert worker.status_code == 200
    assert worker["Content-Type"] == "text/javascript; charset=utf-8"
    assert worker["Cache-Control"] == "no-cache"
    assert script_src(worker) == ["'self'", "'wasm-unsafe-eval'"]
    first, source = worker.content.decode().split("\n", 1)
    assert first == 'const TSOXA_STATIC = "/static/";'
    assert source == (Path(settings.BASE_DIR) / "static" / "scoring" / "engine-worker.js").read_text("utf-8")
    for page in (reverse("offline"), reverse("scoring:home")):
        assert "'wasm-unsafe-eval'" not in script_src(client.get(page))
        assert "'unsafe-eval'" not in script_src(client.get(page))
