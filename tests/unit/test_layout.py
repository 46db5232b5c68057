"""The apps' dependencies point one way (the README's layout): people ← matches ← tournaments ←
league ← webhooks. A module imports its own app and the apps before it, never one after it, not
even inside a function (an import put off to run time is a dependency all the same)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ORDER = ("players", "scoring", "tournaments", "league", "webhooks", "notifications")


def imported_apps(path: Path) -> set[tuple[str, int]]:
    """The project apps a module names in its imports (absolute or relative), with the line."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {(alias.name.split(".")[0], node.lineno) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.module.split(".")[0], node.lineno))
    return {(app, line) for app, line in found if app in ORDER}


@pytest.mark.parametrize("app", ORDER)
def test_an_app_reads_only_the_apps_before_it(app):
    allowed = set(ORDER[: ORDER.index(app) + 1])
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {other}"
        for path in sorted((ROOT / app).rglob("*.py"))
        for other, line in sorted(imported_apps(path))
        if other not in allowed
    ]
    assert wrong == []


def test_the_check_sees_a_wrong_way_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from league import records\n    import tournaments.models\n")
    assert imported_apps(module) == {("league", 2), ("tournaments", 3)}


SHARED = {"web": set(), "api": {"players"}}  # what each shared package's modules may import
NAMES_THE_APPS = {"api/errors.py", "api/urls.py"}  # the apps' errors; the routes of their viewsets


@pytest.mark.parametrize("package", sorted(SHARED))
def test_the_shared_packages_import_no_app(package):
    """api/ and web/ serve every app, so they stand below them: web/ imports none, api/ only
    ``players`` (the tokens), but for the two modules whose job is to name the apps' parts."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {other}"
        for path in sorted((ROOT / package).rglob("*.py"))
        if str(path.relative_to(ROOT)) not in NAMES_THE_APPS
        for other, line in sorted(imported_apps(path))
        if other not in SHARED[package]
    ]
    assert wrong == []


def test_every_browser_test_is_where_run_test_looks_for_them():
    """``./run test`` collects the browser tests from tests/functional and the files named
    ``*_browser.py`` elsewhere only (collecting the whole suite cost each browser process 8 s): a
    browser test anywhere else would never run."""
    elsewhere = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if re.search(r"pytest\.mark\.browser\b", path.read_text())
        and (ROOT / "tests" / "functional") not in path.parents
        and not path.name.endswith("_browser.py")
    ]
    assert elsewhere == []
