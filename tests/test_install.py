"""What an install expects of its machine: a cache folder for compiled code outside the package, filled on a
first run by a second process where that saves time."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import chesstours
from chesstours import KNIGHT, Board, LimitReached, count_tours
from chesstours.frontier import frontier_count
from chesstours.runtime import background, cache, engine

PACKAGE = Path(chesstours.__file__).parent


def _run(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    # A walk of more squares than plain Python takes on (policy.WALK_COMPILED_ABOVE) compiles a kernel.
    code = ("import os, chesstours as ct; n = ct.count_tours('4x5', start='a1', method='backtrack').directed; "
            "ct.find_tour('70x70', start='a1', method='warnsdorff'); print(n, os.environ.get('NUMBA_CACHE_DIR', 'none'))")
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


@pytest.mark.parametrize("planted", ["writable by all", "another user's"])
def test_a_cache_folder_planted_in_the_temporary_folder_is_never_taken(tmp_path, planted):
    """numba unpickles what its cache folder holds: a folder another user made or may write is refused."""
    if planted == "another user's" and os.getuid() != 0:
        pytest.skip("only root can make a folder that another user owns")
    home = tmp_path / "home"
    home.write_text("a file where the home folder should be: nothing can be made under it")
    folder = tmp_path / "tmp" / f"chesstours-{os.getuid()}" / "numba"
    folder.mkdir(parents=True)
    (folder / "planted.nbi").write_bytes(b"not numba's")
    if planted == "writable by all":
        folder.parent.chmod(0o777)
    else:
        os.chown(folder.parent, 12345, 12345)
        os.chown(folder, 12345, 12345)
    out = _run(tmp_path, {"HOME": str(home), "TMPDIR": str(tmp_path / "tmp")})
    assert out.returncode == 0, out.stderr
    count, folder_used = out.stdout.split()
    assert count == "32" and folder_used == "none"
    assert [p.name for p in folder.iterdir()] == ["planted.nbi"]


def test_the_fallback_cache_folder_is_made_private(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file where the home folder should be")
    (tmp_path / "tmp").mkdir()
    out = _run(tmp_path, {"HOME": str(home), "TMPDIR": str(tmp_path / "tmp")})
    private = tmp_path / "tmp" / f"chesstours-{os.getuid()}"
    assert out.returncode == 0 and oct(private.stat().st_mode & 0o777) == "0o700"
    assert oct((private / "numba").stat().st_mode & 0o777) == "0o700"


def test_nothing_compiled_is_written_into_the_package(tmp_path):
    before = {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")}
    _run(tmp_path, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")} == before


# -- kernels compiled in another process on an empty cache ------------------------------------------------

#: (module whose warm() compiles, a count that then loads what it compiled, the kernels it must load, how many)
WARMED = [
    ("chesstours.frontier.run",
     "from chesstours.frontier import frontier_count, count_strip, kernel as fk, table_kernel as ft, run\n"
     "assert run.sweep_kernels_cached()  # the names it reads are numba's\n"
     "assert frontier_count(Board(6, 6), KNIGHT, True, halves=False).how == 'sweep'\n"
     "count_strip(3, 8, KNIGHT)\n",
     "(fk.expand, ft.sort_batch, ft.insert_run, ft.compact_into, ft.rehash, fk.finish_all)", 6),
    ("chesstours.frontier.join.kernel",
     "from chesstours.runtime import background, cache, engine, processes\nfrom chesstours.frontier import frontier_count\nfrom chesstours.frontier.join import halves as join, kernel as jk\n"
     "assert cache.in_cache_folder(*join.join_kernel_key())  # the name it reads is numba's\n"
     "assert frontier_count(Board(6, 6), KNIGHT, True).how == 'meet in the middle'\n",
     "(jk.unfold_into, jk.hand_over, jk.read_into, jk.bucket_sizes, jk.scatter, jk.radix_sort, jk.run_table,\n"
     " jk.join_states)", 8),
    ("chesstours.backtrack.search",
     "from chesstours.backtrack import kernel as bk\n"
     "assert count_tours('6x6').method == 'backtrack'\n",
     "(bk.advance_count,)", 1),
]


@pytest.mark.parametrize("module, count, kernels, loads", WARMED)
def test_the_kernels_compiled_in_the_background_are_the_ones_a_count_loads(tmp_path, module, count, kernels, loads):
    # warm() must compile each kernel for the very types a count calls it with, or the count compiles again (the
    # count runs compiled, as in a process that has loaded its kernels)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", f"import {module} as m; m.warm()"], env=env, check=True, timeout=600)
    code = ("from chesstours import KNIGHT, Board, count_tours\nfrom chesstours.runtime import use_compiled_only\n"
            f"use_compiled_only()\n{count}kernels = {kernels}\n"
            "print(sum(sum(k.stats.cache_misses.values()) for k in kernels),\n"
            "      sum(sum(k.stats.cache_hits.values()) for k in kernels))\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=600, capture_output=True,
                         text=True)
    assert out.stdout.split() == ["0", str(loads)]  # nothing compiled again: every kernel loaded


@pytest.fixture
def loaded(monkeypatch):
    """The modules whose kernels this process is taken to have loaded (:func:`engine.kernels_loaded`): the
    sweep's, as after any earlier frontier count of the process: a count runs them from the start, with no
    allowance in Python (tests of those: tests/frontier/test_plain.py)."""
    modules = {"chesstours.frontier.kernel"}
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: module in modules)
    return modules


@pytest.fixture
def started(monkeypatch, loaded):
    """The cache taken for empty: the processes that counts start to compile kernels beside them, new
    interpreters (a copy of this process, whose kernels earlier tests loaded, would have them at once)."""
    procs = []
    compile_in_background = background.compile_in_background

    def start(warm, *args):
        procs.append((warm.__name__, compile_in_background(warm, *args)))
        return procs[-1][1]

    monkeypatch.setattr(cache, "in_cache_folder", lambda source, name: False)
    monkeypatch.setattr(background, "compile_in_background", start)
    return procs


def test_a_count_on_an_empty_cache_waits_for_the_kernels_compiled_beside_it(started, loaded):
    # the search kernel loaded, as after any earlier search of the process: the search has no allowance
    # in Python to start a second compiling process with (a test of that: tests/backtrack/test_plain.py)
    loaded.add("chesstours.backtrack.kernel")
    assert count_tours("6x6").directed == 6_637_920  # by backtracking, which an estimate chose, compiled here
    assert frontier_count(Board(6, 6), KNIGHT, True).count == 9862
    assert [m for m, _ in started] == ["warm_join"]
    assert all(p.returncode == 0 for _, p in started)  # waited for, and warm() ran through


def test_a_count_that_needs_no_search_kernel_stops_compiling_it(started):
    assert count_tours("6x7", closed=True).method == "frontier"  # the estimate of backtracking chose it
    assert [m for m, _ in started] == ["warm_join"]  # the search's kernel never compiles
    assert started[0][1].returncode == 0


def test_a_count_stopped_before_its_join_leaves_no_compiling_process_behind(started):
    with pytest.raises(LimitReached):
        frontier_count(Board(7, 8), KNIGHT, True, deadline=time.perf_counter() + 0.3)
    assert len(started) == 1 and started[0][1].poll() is not None


def test_waiting_for_kernels_compiling_elsewhere_stops_at_the_deadline_or_at_the_compile_wait(monkeypatch):
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        t0 = time.perf_counter()
        background.await_compiled(slow, deadline=t0 + 0.3)  # the job's deadline comes first
        assert 0.25 < time.perf_counter() - t0 < 5 and slow.poll() is None
        monkeypatch.setattr(background, "COMPILE_WAIT", 0.3)
        t0 = time.perf_counter()
        background.await_compiled(slow)  # no deadline: the compile wait
        assert 0.25 < time.perf_counter() - t0 < 5 and slow.poll() is None
    finally:
        background.stop_compiling(slow)
    assert slow.poll() is not None
    quick = subprocess.Popen([sys.executable, "-c", "pass"])
    background.await_compiled(quick, deadline=time.perf_counter() + 60)
    assert quick.returncode == 0  # waited for to its end


def test_a_wait_for_one_kernel_ends_when_it_is_in_the_cache_though_its_process_compiles_on(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    source = str(tmp_path / "src" / "kernels.py")
    wanted = (source, "kernels.first")
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert background.compiling(slow) and background.compiling(slow, wanted)
        t0 = time.perf_counter()
        background.await_compiled(slow, deadline=t0 + 0.3, kernel=wanted)  # not cached: waits to the deadline
        assert 0.25 < time.perf_counter() - t0 < 5
        # the index file numba writes last, where in_cache_folder looks for it
        folder = tmp_path / f"src_{hashlib.sha1(str(tmp_path / 'src').encode()).hexdigest()}"
        folder.mkdir()
        (folder / "kernels.first-12.py311.nbi").write_bytes(b"")
        assert cache.in_cache_folder(*wanted)
        assert not background.compiling(slow, wanted) and background.compiling(slow)  # still running, for later kernels
        t0 = time.perf_counter()
        background.await_compiled(slow, deadline=t0 + 20, kernel=wanted)
        assert time.perf_counter() - t0 < 2 and slow.poll() is None  # at once, and the process goes on
    finally:
        background.stop_compiling(slow)
        background.COMPILING.pop("kernels", None)
    assert not background.compiling(slow)


def test_the_cache_folder_is_read_as_numba_reads_it(tmp_path):
    # in_cache_folder works out numba's file names from cache_key without compiling; numba's own cache object knows them
    code = ("import os\nfrom chesstours.runtime import background, cache, engine, processes\n"
            "from chesstours.runtime import cache_key\n"
            "from chesstours.backtrack.search import kernel_key, warm\n"
            "from chesstours.backtrack import kernel\n"
            "def numba_has(k):\n"
            "    return os.path.exists(k._cache._cache_file._index_path)\n"
            "def both():\n"
            "    return [(cache.in_cache_folder(*kernel_key('search')), numba_has(kernel.advance)),\n"
            "            (cache.in_cache_folder(*kernel_key('count')), numba_has(kernel.advance_count)),\n"
            "            (cache.in_cache_folder(*cache_key(kernel.probe)), numba_has(kernel.probe))]\n"
            "print(both()); warm(); print(both())\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr
    # warm() compiles the search kernel, then the probes' kernel and the count's (for the queries that follow)
    assert out.stdout.split("\n")[:2] == ["[(False, False), (False, False), (False, False)]",
                                          "[(True, True), (True, True), (True, True)]"]


@pytest.mark.parametrize("compiler", [True, False])
def test_a_compiling_process_steps_back_to_the_lowest_priority_and_no_other(compiler):
    env = {k: v for k, v in os.environ.items() if k != background._COMPILER}
    if compiler:
        env[background._COMPILER] = "chesstours.backtrack.search"
    script = ("import os; from chesstours.runtime import lowest_priority\n"
              "before = os.getpriority(os.PRIO_PROCESS, 0); lowest_priority()\n"
              "print(before, os.getpriority(os.PRIO_PROCESS, 0))")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True,
                          timeout=60)
    before, after = map(int, done.stdout.split())
    assert after == (19 if compiler else before)
