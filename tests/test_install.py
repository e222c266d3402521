"""What an install expects of its machine: a cache folder for compiled code outside the package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chesstours

PACKAGE = Path(chesstours.__file__).parent


def _run(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    # A walk of more squares than plain Python takes on (policy.WALK_COMPILED_ABOVE) compiles a kernel.
    code = ("import os, chesstours as ct; n = ct.count_tours('4x5', start='a1', method='backtrack').directed; "
            "ct.find_tour('70x70', start='a1', method='warnsdorff'); print(n, os.environ['NUMBA_CACHE_DIR'])")
    clean = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    return subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)


def test_compiled_code_goes_to_the_users_cache_folder(tmp_path):
    out = _run(tmp_path, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    count, folder = out.stdout.split()
    assert out.returncode == 0 and count == "32" and folder == str(tmp_path / "cache" / "chesstours" / "numba")
    assert any((tmp_path / "cache" / "chesstours" / "numba").rglob("*.nbi"))


def test_a_home_that_cannot_be_written_falls_back_to_the_temporary_folder(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file where the home folder should be: nothing can be made under it")
    (tmp_path / "tmp").mkdir()
    out = _run(tmp_path, {"HOME": str(home), "TMPDIR": str(tmp_path / "tmp")})
    assert out.returncode == 0, out.stderr
    count, folder = out.stdout.split()
    assert count == "32" and folder.startswith(str(tmp_path / "tmp")) and "Traceback" not in out.stderr


def test_nothing_compiled_is_written_into_the_package(tmp_path):
    before = {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")}
    _run(tmp_path, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")} == before
