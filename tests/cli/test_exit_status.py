"""Exit statuses that mean one thing each, and one line on stderr for every way a run can end."""

import errno
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chesstours.cli import EXIT_STATUSES, main
from chesstours.cli import find as find_cli
from chesstours.cli.common import Signalled
from chesstours.errors import ResourceError

from ..processes import catches

DOCS = Path(__file__).resolve().parents[2] / "docs" / "guide" / "cli.md"
SRC = Path(__file__).resolve().parents[2] / "src"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and err.startswith("chesstours: ") and "Traceback" not in err


def test_the_guide_shows_every_exit_status_with_its_meaning():
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Exit status", 1)[1]
    rows = dict(re.findall(r"^\| (\d+) \| (.+?) \|$", section, flags=re.M))
    assert {int(k): v for k, v in rows.items()} == EXIT_STATUSES


def test_a_heuristic_dead_end_is_status_4_and_says_a_tour_may_exist(capsys):
    code, out, err = run(capsys, "tour", "11x11", "--method", "warnsdorff", "--start", "a1", "--tiebreak", "roth")
    assert code == 4 and out == ""
    assert one_line(err) and "got stuck" in err and "does not mean that no tour exists" in err


def test_a_heuristic_from_every_start_is_status_4(capsys):
    code, _, err = run(capsys, "tour", "5x5", "--closed", "--method", "warnsdorff")
    assert code == 4 and one_line(err) and "does not mean" in err


def test_no_tour_that_is_proved_stays_status_1(capsys):
    code, _, err = run(capsys, "tour", "5x5", "--start", "b1")
    assert code == 1 and one_line(err)


def _raising(exc):
    def find_tour(*args, **kwargs):
        raise exc
    return find_tour


@pytest.mark.parametrize(
    ("exc", "words"),
    [
        (OSError(errno.ENOSPC, "No space left on device", "out.txt"), "disk is full"),
        (PermissionError(errno.EACCES, "Permission denied", "/root/x"), "Permission denied"),
        (MemoryError(), "out of memory"),
        (ResourceError("The frontier sweep ran out of memory.", None), "ran out of memory"),
    ],
)
def test_a_problem_of_the_machine_is_status_5_named_in_one_sentence(capsys, monkeypatch, exc, words):
    monkeypatch.setattr(find_cli.api, "find_tour", _raising(exc))
    code, out, err = run(capsys, "tour", "5x5")
    assert code == 5 and out == ""
    assert one_line(err) and words.lower() in err.lower()
    if isinstance(exc, OSError):
        assert exc.filename in err


def test_a_bug_is_status_70_with_its_traceback_in_a_file(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    monkeypatch.setattr(find_cli.api, "find_tour", _raising(ZeroDivisionError("division by zero")))
    code, out, err = run(capsys, "tour", "5x5")
    assert code == 70 and out == ""
    assert one_line(err)
    assert err.startswith("chesstours: internal error: ZeroDivisionError: division by zero")
    assert "this is a bug; please report it" in err
    saved = Path(re.search(r"saved in (\S+)\.$", err.strip()).group(1))
    assert saved.parent == tmp_path
    report = saved.read_text()
    assert "Traceback" in report and "ZeroDivisionError" in report and "find_tour" in report


@pytest.mark.parametrize(("exc", "code", "word"), [
    (KeyboardInterrupt(), 130, "interrupted"),
    (Signalled(signal.SIGTERM), 143, "stopped by SIGTERM"),
    (Signalled(signal.SIGHUP), 129, "stopped by SIGHUP"),
])
def test_interrupts_have_the_status_of_their_signal(capsys, monkeypatch, exc, code, word):
    monkeypatch.setattr(find_cli.api, "find_tour", _raising(exc))
    got, out, err = run(capsys, "tour", "5x5")
    assert got == code and out == "" and one_line(err) and word in err


def test_an_interrupt_a_command_does_not_catch_still_gets_its_status(capsys, monkeypatch):
    monkeypatch.setattr(find_cli, "parse_board", _raising(Signalled(signal.SIGTERM)))
    got, _, err = run(capsys, "tour", "5x5")
    assert got == 143 and one_line(err) and "SIGTERM" in err


@pytest.mark.parametrize(("where", "args"), [
    ("chesstours.scale.spread_tasks", ["--method", "backtrack", "--jobs", "2"]),
    ("chesstours.frontier.split.PartJob", ["--split-on", "2", "--jobs", "2"]),
], ids=["tasks", "parts"])
@pytest.mark.parametrize(("exc", "code"), [(Signalled(signal.SIGTERM), 143), (KeyboardInterrupt(), 130)])
def test_an_interrupt_while_a_count_plans_its_tasks_counted_nothing(capsys, monkeypatch, where, args, exc, code):
    monkeypatch.setattr(where, _raising(exc))
    got, out, err = run(capsys, "count", "6x6", *args)
    assert got == code and out == "" and one_line(err) and "nothing was counted" in err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_pickles_with_its_status(sig):
    import pickle

    got = pickle.loads(pickle.dumps(Signalled(sig)))
    assert isinstance(got, Signalled) and got.signum == sig and str(got) == sig.name


def test_main_leaves_the_signal_handlers_as_it_found_them(capsys):
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    run(capsys, "tour", "5x5")
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == before


def test_main_puts_back_the_handler_of_ctrl_c_too(capsys):
    before = signal.getsignal(signal.SIGINT)
    run(capsys, "tour", "5x5")
    assert signal.getsignal(signal.SIGINT) is before


def test_an_interrupt_that_a_finalizer_dropped_is_raised_again_in_the_command(capsys, monkeypatch):
    class Dropping:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGTERM)  # the interrupt is raised here, where Python drops it

    def find_tour(*args, **kwargs):
        Dropping()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # a long search
            time.sleep(0.001)
        raise AssertionError("the search was not interrupted")

    monkeypatch.setattr(find_cli.api, "find_tour", find_tour)
    got, out, err = run(capsys, "tour", "5x5")
    assert got == 143 and out == "" and err == "chesstours: stopped by SIGTERM before a tour was found.\n"


def _env():
    return {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _default_signals() -> None:
    """In the child: the three signals at their defaults, as a terminal's job has them. A job that a
    non-interactive shell starts in the background ignores SIGINT, and one under nohup SIGHUP; the
    child would inherit that, and rightly keep ignoring them."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_a_signal_stops_a_listing_cleanly_with_its_status(sig, code):
    proc = subprocess.Popen([sys.executable, "-m", "chesstours", "tours", "8x8"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(), preexec_fn=_default_signals)
    try:
        assert proc.stdout.readline()  # listing: the handlers are in place
        proc.send_signal(sig)
        # keep reading so that the listing never blocks on a full pipe
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == code, err
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "Traceback" not in err.decode()
    assert re.fullmatch(r"chesstours: (interrupted|stopped by SIG\w+) after \d+ tours\.", lines[0])


_SIGNALS = [(signal.SIGTERM, 143, "stopped by SIGTERM"), (signal.SIGHUP, 129, "stopped by SIGHUP"),
            (signal.SIGINT, 130, "interrupted")]
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _program(*lines: str, **kwargs) -> subprocess.Popen:
    """The program (chesstours.__main__.run) in a fresh Python after ``lines``, with ``args`` as its arguments."""
    args = kwargs.pop("args")
    script = "\n".join(["import atexit, sys, time", *lines, f"sys.argv = ['chesstours', *{args!r}]",
                        "from chesstours.__main__ import run", "run()"])
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=_env(), preexec_fn=_default_signals, **kwargs)


def _handlers_in_place(proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while not catches(proc.pid, signal.SIGTERM):
        assert time.monotonic() < deadline and proc.poll() is None, "the program took no signal"
        time.sleep(0.001)


def test_the_program_takes_its_signals_before_it_imports_numpy():
    done = subprocess.run([sys.executable, "-c", "import sys, chesstours.__main__, chesstours\n"
                           "print(sorted({'numpy', 'typer', 'chesstours.cli'} & set(sys.modules)))"],
                          capture_output=True, text=True, env=_env(), timeout=60)
    assert done.stdout == "[]\n", done.stderr


@linux
@pytest.mark.parametrize(("sig", "code", "words"), _SIGNALS)
def test_a_signal_while_the_program_imports_its_modules_ends_it_with_its_status(sig, code, words):
    proc = _program(args=["tour", "5x5"])
    try:
        _handlers_in_place(proc)  # taken first thing: the command line's modules are still to import
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == code and out == b"" and err.decode() == f"chesstours: {words}.\n"


_ENDING = {
    # an exit handler that says the program ends, and takes a second
    "exit handlers": ["atexit.register(lambda: (print('ending', file=sys.stderr, flush=True), time.sleep(1)))"],
    # a thread still running has the interpreter end the usual way, with its own teardown
    # (chesstours.cli.leave), which waits for it: it says so once the main thread is done, and takes a second
    "interpreter's teardown": ["import threading", "def ending():", "    while threading.main_thread().is_alive():",
                               "        time.sleep(0.01)", "    print('ending', file=sys.stderr, flush=True)",
                               "    time.sleep(1)", "threading.Thread(target=ending).start()"],
}


@pytest.mark.parametrize("teardown", list(_ENDING))
@pytest.mark.parametrize(("sig", "code", "words"), _SIGNALS)
def test_a_signal_while_the_program_ends_gives_it_its_status(sig, code, words, teardown):
    proc = _program(*_ENDING[teardown], args=["tour", "5x5"])
    try:
        assert proc.stderr.readline() == b"ending\n"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert out.decode().splitlines()[-1].split() == list("abcde")  # the tour, printed whole
    assert proc.returncode == code and err.decode() == f"chesstours: {words}.\n"


@linux
@pytest.mark.slow
def test_a_signal_at_any_moment_of_a_run_ends_it_with_its_status_and_one_line():
    # from the program's first moment through the imports, numba's loading of the kernels and the listing
    rng = random.Random(143)
    for trial in range(24):
        sig, code, _ = _SIGNALS[trial % 3]
        delay = rng.uniform(0, 1.2)
        proc = subprocess.Popen([sys.executable, "-m", "chesstours", "tours", "8x8"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=_env(), preexec_fn=_default_signals)
        try:
            _handlers_in_place(proc)
            time.sleep(delay)
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
        text = err.decode()
        assert (proc.returncode, one_line(text)) == (code, True), (sig.name, round(delay, 2), text)


def test_a_closed_pipe_ends_quietly_with_status_0():
    proc = subprocess.Popen([sys.executable, "-m", "chesstours", "tours", "6x6"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env())
    try:
        first = proc.stdout.readline()
        proc.stdout.close()  # as `| head -1` does
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        err = proc.stderr.read()
    finally:
        proc.kill()
    assert len(first.split()) == 36
    assert proc.returncode == 0 and err == b""


def test_a_closed_pipe_in_a_shell_pipeline():
    done = subprocess.run(f"'{sys.executable}' -m chesstours tours 6x6 | head -1; echo \"${{PIPESTATUS[0]}}\"",
                          shell=True, executable="/bin/bash", capture_output=True, text=True, env=_env(),
                          timeout=120)
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and len(lines[0].split()) == 36 and lines[1] == "0"
    assert done.stderr == ""


def _leaving(body: str) -> subprocess.CompletedProcess:
    """Run ``body`` in a fresh Python, then :func:`chesstours.cli.leave` with status 3."""
    script = ("import atexit, sys, threading, time\nfrom chesstours.cli import leave\n" + body + "\nleave(3)\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=_env(), timeout=60)


def test_leaving_runs_the_exit_handlers_and_flushes_the_streams_with_the_status():
    done = _leaving("atexit.register(lambda: print('handler ran', file=sys.stderr))\n"
                    "sys.stdout.write('no newline, still buffered')")
    assert done.returncode == 3
    assert done.stdout == "no newline, still buffered"
    assert done.stderr == "handler ran\n"


def test_leaving_waits_for_a_thread_that_is_not_a_daemon():
    done = _leaving("def late():\n    time.sleep(0.3)\n    print('thread done', flush=True)\n"
                    "threading.Thread(target=late).start()")
    assert done.returncode == 3 and done.stdout == "thread done\n"


def test_the_program_and_python_m_end_through_leave():
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert 'chesstours = "chesstours.__main__:run"' in pyproject
    done = subprocess.run([sys.executable, "-m", "chesstours", "tour", "5x5", "--start", "b1"], capture_output=True,
                          text=True, env=_env(), timeout=120)
    assert done.returncode == 1 and one_line(done.stderr)


def test_leaving_without_standard_streams_still_ends_with_the_status():
    done = _leaving("sys.stdout = None\nsys.stderr = None")
    assert done.returncode == 3


_TEARDOWN = "class Torn:\n    def __del__(self):\n        print('torn down', flush=True)\nkept = Torn()\n"


@pytest.mark.parametrize("pool", [False, True])
def test_leaving_skips_the_teardown_and_leaks_no_semaphore_of_a_pool(pool):
    # chesstours' pools spawn their processes, whose semaphores multiprocessing's resource tracker watches: the
    # exit handlers tell it of every one, so the teardown (and its moments where a signal kills) is not needed
    held = ("import multiprocessing\nfrom concurrent.futures import ProcessPoolExecutor\n"
            "held = multiprocessing.get_context('spawn').Semaphore()\n"
            "with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context('spawn')) as pool:\n"
            "    assert list(pool.map(abs, [-1, -2])) == [1, 2]\n") if pool else ""
    done = _leaving(_TEARDOWN + held)
    assert done.returncode == 3
    assert done.stdout == ""
    assert "leaked" not in done.stderr


def test_a_profiled_run_still_prints_its_profile():
    done = subprocess.run([sys.executable, "-m", "cProfile", "-m", "chesstours", "exists", "5x5"],
                          capture_output=True, text=True, env=_env(), timeout=120)
    assert done.returncode == 0 and "function calls" in done.stdout


@pytest.mark.parametrize("shift", [2**32, -(2**32)])
def test_check_refuses_a_file_of_squares_shifted_past_an_int32(capsys, tmp_path, shift):
    import numpy as np

    from chesstours import find_tour

    path = tmp_path / "t.npy"
    np.save(path, find_tour("5x5", start="a1").path.astype(np.int64) + shift)
    code, out, err = run(capsys, "check", str(path), "--board", "5x5")
    assert code == 2 and out == "" and one_line(err) and "is not on any board" in err
