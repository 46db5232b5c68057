"""The pure packages stay pure (STYLE.md): the scoring engine, the pairing and the standings import
no Django, REST framework or Celery. The standings use only the standard library; the pairing adds
rustworkx (networkx, which it used before, is now only the tests' independent check).

Read with ``ast``, so a forbidden import is found even inside a function or under
``if TYPE_CHECKING``, without importing the module; and checked again at run time in a fresh
interpreter with no settings.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"django", "rest_framework", "celery"}
PACKAGES = {
    # package: (the files that must be there, what it may import beyond the standard library)
    "scoring.engine": (
        {"__init__.py", "types.py", "match.py", "matchfile.py", "rulesets/mpourloto.py"},
        set(),
    ),
    "tournaments.pairing": (
        {"__init__.py", "swiss.py", "round_robin.py", "knockout.py", "check.py"},
        {"rustworkx"},
    ),
    "tournaments.standings": ({"__init__.py", "metrics.py", "table.py", "tally.py"}, set()),
}
FILES = [
    (package, path)
    for package in PACKAGES
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py"))
]


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


@pytest.mark.parametrize("package", PACKAGES)
def test_the_files_are_found(package):
    folder = ROOT / package.replace(".", "/")
    found = {path.relative_to(folder).as_posix() for path in folder.rglob("*.py")}
    assert PACKAGES[package][0] <= found


@pytest.mark.parametrize(("package", "path"), FILES, ids=lambda v: v if isinstance(v, str) else v.name)
def test_module_imports_no_framework(package, path):
    imported = imported_top_level_names(path.read_text(encoding="utf-8"))
    assert not imported & FORBIDDEN, f"{path.relative_to(ROOT)} imports {sorted(imported & FORBIDDEN)}"
    outside = imported - sys.stdlib_module_names - {"__future__"} - PACKAGES[package][1]
    assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


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


@pytest.mark.parametrize("package", PACKAGES)
def test_importing_the_package_loads_no_framework(package):
    code = (
        f"import sys, {package}\n"
        f"loaded = sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(FORBIDDEN)!r}))\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)  # fmt: skip
    assert done.stdout.strip() == ""
