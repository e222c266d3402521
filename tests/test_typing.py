"""The package type-checks: mypy, configured in pyproject.toml, finds nothing to say.

Every module is checked, bodies of unannotated functions included, except the
numba kernels (functions over flat arrays that numba types when it compiles
them). The package ships ``py.typed``, so these types are what its users see.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_ships_its_types():
    assert (ROOT / "src" / "chesstours" / "py.typed").is_file()


def test_mypy_finds_no_error():
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
