"""`./run`'s choice of Python (its ``find_python``): a release with the ipaddress fixes (3.12.4 or
newer, 3.13+) before any other, then the newest; 3.12.0-3.12.3 only with a warning. Run on stand-in
interpreters that only tell their version."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parents[2] / "run"

STAND_IN = """#!/bin/sh
case "$*" in
  *sys.exit*) exit 0 ;;
  *version_info*) echo "{minor} {micro}" ;;
  --version) echo "Python 3.{minor}.{micro}" ;;
esac
"""


def find_python(tmp_path: Path, versions: dict[str, str]) -> tuple[str, str]:
    """``find_python`` with only these interpreters on the PATH: the one it chose, and what it said."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, version in versions.items():
        minor, micro = version.split(".")[1:]
        (bin_dir / name).write_text(STAND_IN.format(minor=minor, micro=micro))
        (bin_dir / name).chmod(0o755)
    text = RUN.read_text()
    functions = "\n".join(
        text[text.index(start) : text.index("\n}\n", text.index(start)) + 3]
        for start in ("say() {", "python_ok() {", "find_python() {")
    )
    for elsewhere in ("/usr/local/bin/", "/opt/homebrew/bin/"):  # this machine's own Pythons: not here
        functions = functions.replace(elsewhere, f"{tmp_path}/nowhere/")
    script = f"set -euo pipefail\nVENV=.venv\n{functions}\nfind_python\n"
    done = subprocess.run(
        [shutil.which("bash"), "-c", script],
        env={"PATH": str(bin_dir), "HOME": str(tmp_path)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(done.stdout.strip()).name, done.stderr


pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.mark.parametrize(
    ("versions", "chosen"),
    [
        ({"python3.12": "3.12.1", "python3": "3.12.8"}, "python3"),  # the patched release, whatever its name
        ({"python3.13": "3.13.0", "python3.12": "3.12.9"}, "python3.13"),
        ({"python3.12": "3.12.3", "python3.13": "3.13.2", "python3.14": "3.14.0"}, "python3.14"),
        ({"python3.12": "3.12.4", "python3": "3.12.2"}, "python3.12"),
    ],
)
def test_a_python_with_the_ipaddress_fixes_is_preferred(tmp_path, versions, chosen):
    found, said = find_python(tmp_path, versions)
    assert found == chosen
    assert "Warning" not in said


def test_an_unpatched_312_is_taken_only_with_a_warning(tmp_path):
    found, said = find_python(tmp_path, {"python3.12": "3.12.1", "python3": "3.12.3"})
    assert found == "python3"  # the newest of them
    assert "Warning: Python 3.12.3 lacks the ipaddress fixes of 3.12.4" in said


def suite_processes(tmp_path: Path, cores: int, *args: str) -> list[str]:
    """The ``-n`` of each pytest run ``test_suite`` makes with ``cores`` cores (a stand-in ``nproc``
    and a stand-in Python that says its arguments)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nproc").write_text(f"#!/bin/sh\necho {cores}\n")
    (bin_dir / "python").write_text('#!/bin/sh\necho "$@"\n')
    for stand_in in bin_dir.iterdir():
        stand_in.chmod(0o755)
    text = RUN.read_text()
    functions = "\n".join(
        text[text.index(start) : text.index("\n}\n", text.index(start)) + 3]
        for start in ("say() {", "cores() {", "test_suite() {")
    )
    script = f'set -euo pipefail\nPY={bin_dir / "python"}\n{functions}\ntest_suite "$@"\n'
    done = subprocess.run(
        [shutil.which("bash"), "-c", script, "run", *args],
        env={"PATH": f"{bin_dir}:/usr/bin:/bin"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    runs = done.stdout.splitlines()
    assert len(runs) == 2 and "not browser" in runs[0] and "-m browser" in runs[1], runs
    return [run.split()[run.split().index("-n") + 1] for run in runs]


@pytest.mark.parametrize(
    ("cores", "args", "processes"),
    [
        (2, (), ["3", "4"]),  # CI's machine: one a core and one more, then two a core
        (1, (), ["2", "2"]),
        (8, (), ["9", "8"]),  # eight Chromiums at most
        (2, ("-n", "5"), ["5", "5"]),  # asked for: both
        (2, ("-n0", "-x"), ["0", "0"]),
    ],
)
def test_the_suite_runs_more_processes_than_cores(tmp_path, cores, args, processes):
    assert suite_processes(tmp_path, cores, *args) == processes
