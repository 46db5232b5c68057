"""Pairing is pure Python: no Django, no REST framework, no Celery (STYLE.md §6).

The same ``ast`` check as the scoring engine's, over ``tournaments/pairing/``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.test_engine_is_pure import FORBIDDEN, imported_top_level_names

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PAIRING = PROJECT_ROOT / "tournaments" / "pairing"
PAIRING_FILES = sorted(PAIRING.rglob("*.py"))


def test_the_pairing_files_are_found():
    found = {path.relative_to(PAIRING).as_posix() for path in PAIRING_FILES}
    assert {"__init__.py", "types.py", "check.py", "swiss.py", "round_robin.py", "knockout.py"} <= found


@pytest.mark.parametrize("path", PAIRING_FILES, ids=lambda path: path.relative_to(PAIRING).as_posix())
def test_pairing_module_imports_no_framework(path):
    framework = imported_top_level_names(path.read_text(encoding="utf-8")) & FORBIDDEN
    assert not framework, f"{path.relative_to(PROJECT_ROOT)} imports {sorted(framework)}"


def test_importing_pairing_loads_no_framework():
    """The same at run time, in a fresh interpreter with no settings.

    ``tournaments/__init__.py`` is imported on the way, so it is held to the same rule.
    """
    code = (
        "import sys, tournaments.pairing\n"
        f"loaded = sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(FORBIDDEN)!r}))\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == ""
