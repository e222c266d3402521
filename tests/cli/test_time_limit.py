"""--time-limit bounds the whole command: on an empty compile cache, compiling kernels is part of it."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from chesstours.cli import common, main
from chesstours.runtime import compile_events

SRC = Path(__file__).resolve().parents[2] / "src"


class Ended(Exception):
    pass


def test_a_limit_that_runs_out_while_a_kernel_compiles_ends_the_program_with_status_3(monkeypatch, capsys):
    ended = []

    def end_now(status):
        ended.append(status)
        raise Ended

    monkeypatch.setattr(compile_events, "compiling_since", lambda: 1.0)
    monkeypatch.setattr(common, "end_now", end_now)
    with pytest.raises(Ended):
        common._watch(0.3, time.perf_counter(), threading.Event())
    assert ended == [3]
    err = capsys.readouterr().err
    assert err.startswith("chesstours: Stopped at the time limit (0.3 s) while compiling the kernels")
    assert "chesstours compile" in err and len(err.splitlines()) == 1


def test_a_limit_that_runs_out_with_nothing_compiling_leaves_the_command_to_stop_itself(monkeypatch):
    monkeypatch.setattr(compile_events, "compiling_since", lambda: None)
    monkeypatch.setattr(common, "end_now", lambda status: pytest.fail("the program was ended"))
    stop = threading.Event()
    watch = threading.Thread(target=common._watch, args=(0.0, time.perf_counter(), stop), daemon=True)
    watch.start()
    time.sleep(0.1)
    stop.set()
    watch.join(timeout=5)
    assert not watch.is_alive()


def test_the_watch_is_only_the_programs_and_ends_with_its_command(monkeypatch, capsys):
    def watches():
        return [t for t in threading.enumerate() if t.name == "chesstours-time-limit" and t.is_alive()]

    assert main(["tour", "5x5", "--time-limit", "5"]) == 0  # main as a function: no watch
    assert watches() == []
    monkeypatch.setitem(common.BOUND_COMPILING, "on", True)
    assert main(["tour", "5x5", "--time-limit", "5"]) == 0
    deadline = time.monotonic() + 5
    while watches() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert watches() == [] and common._WATCHES == []
    capsys.readouterr()


def test_a_compile_event_is_seen_while_it_lasts():
    from numba.core import event

    compile_events.listen()
    assert compile_events.compiling_since() is None
    with event.trigger_event("numba:compile", data={}):
        assert compile_events.compiling_since() is not None
    assert compile_events.compiling_since() is None


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles kernels")
def test_a_first_count_stops_at_its_limit_though_its_kernels_would_compile_for_seconds(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(SRC), "NUMBA_CACHE_DIR": str(tmp_path)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "chesstours", "count", "7x7", "--time-limit", "0.3"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 3, done.stderr
    assert "Stopped at the time limit (0.3 s) while compiling the kernels" in done.stderr
    assert "Traceback" not in done.stderr
    assert time.perf_counter() - started < 120
