"""The standings code is pure Python: no Django, no REST framework, no Celery (STYLE.md practice 6).

Read with ``ast``, so a forbidden import is found even inside a function or
under ``if TYPE_CHECKING``, and without importing the module. Stricter than the
engine's check: standings may import only the standard library and itself.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
STANDINGS = PROJECT_ROOT / "tournaments" / "standings"
FORBIDDEN = {"django", "rest_framework", "celery"}
STANDINGS_FILES = sorted(STANDINGS.rglob("*.py"))


def imported_top_level_names(source: str) -> set[str]:
    """Top-level package names a module imports, including dynamic ``import_module("x")``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names


def test_the_standings_files_are_found():
    found = {path.relative_to(STANDINGS).as_posix() for path in STANDINGS_FILES}
    assert {"__init__.py", "metrics.py", "table.py", "tally.py"} <= found


@pytest.mark.parametrize("path", STANDINGS_FILES, ids=lambda path: path.relative_to(STANDINGS).as_posix())
def test_standings_module_imports_no_framework(path):
    framework = imported_top_level_names(path.read_text(encoding="utf-8")) & FORBIDDEN
    assert not framework, f"{path.relative_to(PROJECT_ROOT)} imports {sorted(framework)}"


@pytest.mark.parametrize("path", STANDINGS_FILES, ids=lambda path: path.relative_to(STANDINGS).as_posix())
def test_standings_module_imports_only_the_standard_library(path):
    outside = (
        imported_top_level_names(path.read_text(encoding="utf-8")) - sys.stdlib_module_names - {"__future__"}
    )
    assert not outside, f"{path.relative_to(PROJECT_ROOT)} imports {sorted(outside)}"


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        pytest.param("import django", {"django"}, id="import"),
        pytest.param("from django.db import models", {"django"}, id="from-import"),
        pytest.param("import rest_framework.serializers as s", {"rest_framework"}, id="dotted-import"),
        pytest.param("def f():\n    from celery import shared_task", {"celery"}, id="inside-a-function"),
        pytest.param(
            "import importlib\nimportlib.import_module('django.conf')",
            {"importlib", "django"},
            id="import-module",
        ),
        pytest.param(
            "from . import metrics\nfrom .tally import Result", set(), id="relative-imports-are-fine"
        ),
    ],
)
def test_the_check_sees_every_kind_of_import(source, caught):
    assert imported_top_level_names(source) == caught


def test_importing_the_standings_loads_no_framework():
    """The same at run time, in a fresh interpreter with no settings."""
    code = (
        "import sys, tournaments.standings\n"
        f"loaded = sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(FORBIDDEN)!r}))\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == ""
