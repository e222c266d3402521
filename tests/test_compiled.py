"""``chesstours compile`` compiles every kernel the commands load, and nothing compiles after it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chesstours.cli import EXIT_INTERRUPT, main
from chesstours.cli.common import EXIT_ENVIRONMENT
from chesstours.runtime import families
from tests.processes import children_of, ctrl_c_as_on_a_terminal, running

#: Commands that load kernels of every family, each a few tenths of a second once they are compiled (each was
#: seen to compile its kernels on an empty cache): the search, its estimate, the set-up and the child order;
#: the frontier's sweep, join and strips; the construction, from a corner and to an end; Warnsdorff's walk;
#: the bishop's search, count, estimate and construction; the properties' tests; the sampling tables, their walk
#: and their statistics.
COMMANDS = [
    ["count", "6x6"], ["count", "6x6", "--closed", "--method", "backtrack"], ["tours", "6x6", "--limit", "3"],
    ["trace", "8x8", "--start", "a1", "-n", "10"], ["count", "5x10"], ["count", "4x20", "--method", "frontier"],
    ["tour", "200x200"], ["tour", "300x300", "--end", "b1"], ["tour", "120x120", "--method", "warnsdorff"],
    ["bishop", "20x20"], ["bishop", "8x8", "--count"], ["bishop", "12x12", "--count"], ["bishop", "30x30"],
    ["count", "5x5", "--where", "symmetric"], ["count", "6x6", "--where", "a1=1,f6=36"],
    ["sample", "6x6", "--closed", "-n", "3", "--no-cache"], ["stats", "5x5", "--json"],
]


def _chesstours(args: list[str], cache: Path, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "chesstours", *args], env=env, capture_output=True, text=True,
                          timeout=300, **kwargs)


def _files(cache: Path) -> dict[str, tuple[int, int]]:
    """numba's index files in the cache, with their sizes and times: a kernel compiled for a new type rewrites
    its index, a new kernel adds one."""
    return {str(p.relative_to(cache)): (p.stat().st_size, p.stat().st_mtime_ns) for p in cache.rglob("*.nbi")}


def test_compile_fills_the_cache_with_every_family_and_no_command_compiles_after_it(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    done = _chesstours(["compile"], cache)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "Every kernel is in the compile cache: no command compiles any more."
    assert sorted(line.split("  ")[0].strip() for line in lines[1:-1]) == sorted(f.name for f in families.FAMILIES)
    assert all(" compiled " in line for line in lines[1:-1])
    # the families name exactly the kernels their jobs compiled
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    assert all(not families.missing(f) for f in families.FAMILIES)
    named = {name for f in families.FAMILIES for _, name in f.kernels}
    assert {p.name.split("-")[0] for p in cache.rglob("*.nbi")} == named
    # every command after it loads its kernels from the cache as they are
    before = _files(cache)
    for args in COMMANDS:
        run = _chesstours(args, cache)
        assert run.returncode in (0, 2), (args, run.stderr)  # 2: the 12x12 bishop count is refused, estimated
        assert _files(cache) == before, f"chesstours {' '.join(args)} compiled a kernel"
    again = _chesstours(["compile"], cache)
    assert again.returncode == 0 and again.stdout.count("in the cache") == len(families.FAMILIES)


def test_compile_status_tells_what_the_cache_holds(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert main(["compile", "--status"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"compile cache: {tmp_path}"
    assert [line.split()[0] for line in out[1:]] == [f.name.split()[0] for f in families.FAMILIES]
    assert all("to compile" in line for line in out[1:])


def _one_line(err: str) -> bool:
    return err.count("\n") == 1 and err.startswith("chesstours: ") and "Traceback" not in err


def test_a_family_that_fails_to_compile_is_status_5_in_one_sentence(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(families, "compile_in_background", lambda module, call: subprocess.Popen(
        [sys.executable, "-c", "raise SystemExit(1)"]))
    assert main(["compile", "--jobs", "1"]) == EXIT_ENVIRONMENT
    out, err = capsys.readouterr()
    assert _one_line(err) and "failed to compile" in err and "frontier join" in err
    assert out.count(" failed ") == len(families.FAMILIES)


def test_without_a_process_to_compile_in_compile_says_so_in_one_sentence(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(families, "compile_in_background", lambda module, call: None)
    assert main(["compile"]) == EXIT_ENVIRONMENT
    assert _one_line(capsys.readouterr().err)


def _compiling_processes(command: subprocess.Popen) -> list[int]:
    """The processes the ``compile`` command started (copies of it, or new interpreters) that still run."""
    return children_of(command.pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_the_compiling_processes_and_says_what_stays(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "chesstours", "compile"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_as_on_a_terminal)
    deadline = time.monotonic() + 30
    while not _compiling_processes(process) and time.monotonic() < deadline:
        time.sleep(0.05)
    compiling = _compiling_processes(process)
    assert compiling, "no family started compiling"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == EXIT_INTERRUPT
    assert _one_line(err) and "stay in the cache" in err
    assert not running(compiling)
