"""The scoring engine is pure Python: no Django, no REST framework, no Celery (STYLE.md).

Read with ``ast``, so a forbidden import is found even inside a function or
under ``if TYPE_CHECKING``, and without importing the module.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ENGINE = PROJECT_ROOT / "scoring" / "engine"
FORBIDDEN = {"django", "rest_framework", "celery"}
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


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


def test_the_engine_files_are_found():
    found = {path.relative_to(ENGINE).as_posix() for path in ENGINE_FILES}
    assert {"__init__.py", "types.py", "match.py", "matchfile.py", "rulesets/mpourloto.py"} <= found


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda path: path.relative_to(ENGINE).as_posix())
def test_engine_module_imports_no_framework(path):
    framework = imported_top_level_names(path.read_text(encoding="utf-8")) & FORBIDDEN
    assert not framework, f"{path.relative_to(PROJECT_ROOT)} imports {sorted(framework)}"


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
            "from . import types\nfrom .rulesets import base", set(), id="relative-imports-are-fine"
        ),
    ],
)
def test_the_check_sees_every_kind_of_import(source, caught):
    assert imported_top_level_names(source) == caught


def test_importing_the_engine_loads_no_framework():
    """The same at run time, in a fresh interpreter with no settings."""
    code = (
        "import sys, scoring.engine\n"
        f"loaded = sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(FORBIDDEN)!r}))\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == ""
