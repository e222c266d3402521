"""Tasks on a local process pool: results as they finish, workers that die, checkpoints, samples."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chesstours.errors import InvalidArgument, LimitReached, ResourceError
from chesstours.jobs import Checkpoint, TaskFailed, extrapolate, run_tasks_on, sample_indices

from ..processes import all_gone, children_of, command_line, semaphores_of

SRC = Path(__file__).resolve().parents[2] / "src"


def square(x: int) -> int:
    return x * x


def fails(x: int) -> int:
    raise ValueError(f"no {x}")


def dies_once(arg: tuple[str, int]) -> int:
    """Kill the worker the first time task 2 runs (a marker file remembers), then answer."""
    marker, x = arg
    if x == 2 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return x * 10


def always_dies(x: int) -> int:
    os._exit(1)


def runs_into(what: str) -> int:
    if what == "memory":
        raise MemoryError()
    if what == "disk":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    raise LimitReached("out of time in the worker")


def test_every_task_comes_back_once_with_its_index():
    got = dict(run_tasks_on(square, list(range(20)), jobs=2))
    assert got == {i: i * i for i in range(20)}


def test_tasks_already_done_are_skipped():
    assert dict(run_tasks_on(square, [1, 2, 3, 4], jobs=1, skip={0, 2})) == {1: 4, 3: 16}


def test_a_worker_that_dies_has_its_tasks_run_again(tmp_path):
    marker = str(tmp_path / "marker")
    got = dict(run_tasks_on(dies_once, [(marker, x) for x in range(6)], jobs=2))
    assert got == {x: 10 * x for x in range(6)} and Path(marker).exists()


def test_a_task_that_always_kills_its_worker_fails_with_one_sentence():
    with pytest.raises(ResourceError, match="Task 0 killed its worker each time it was sent"):
        list(run_tasks_on(always_dies, [1], jobs=1, retries=1))


@pytest.mark.parametrize("task, error, match", [
    ("memory", ResourceError, "A worker ran out of memory on task 0"),
    ("disk", ResourceError, "A worker failed on task 0: No space left on device"),
    ("limit", LimitReached, "out of time in the worker"),
])
def test_a_task_out_of_memory_disk_or_time_fails_as_the_machine_or_the_limit_it_ran_into(task, error, match):
    with pytest.raises(error, match=match):
        list(run_tasks_on(runs_into, [task], jobs=1))


def test_a_task_that_raises_fails_naming_it():
    with pytest.raises(TaskFailed, match="Task 0 failed: ValueError: no 5"):
        list(run_tasks_on(fails, [5], jobs=1))


def test_no_scheduler_at_an_address_is_one_sentence():
    pytest.importorskip("distributed")
    with pytest.raises(InvalidArgument, match="No Dask scheduler answers at tcp://127.0.0.1:9"):
        list(run_tasks_on(square, [1], cluster="tcp://127.0.0.1:9"))


def _book(path, fingerprint=None, every=1.0):
    return Checkpoint(path, fingerprint or {"q": 1}, tasks=6, fields=("count", "nodes"), every=every)


def test_a_checkpoint_keeps_results_and_refuses_another_run(tmp_path):
    path = tmp_path / "ck.json"
    with _book(path, every=0) as ck:
        ck.record(0, {"count": 3, "nodes": 10, "seconds": 0.5})
        ck.record(5, {"count": 4, "nodes": 12})
    assert _book(path).done == {0: {"count": 3, "nodes": 10}, 5: {"count": 4, "nodes": 12}}
    assert json.loads(path.read_text())["fingerprint"] == {"q": 1}
    with pytest.raises(InvalidArgument, match="records another run"):
        _book(path, {"q": 2})
    path.write_text("not json")
    with pytest.raises(InvalidArgument, match="is not a chesstours checkpoint"):
        _book(path)
    assert [p.name for p in tmp_path.iterdir()] == ["ck.json"]  # no temporary file left behind


def _altered(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("change, message", [
    (lambda d: d["done"].update({"3": {"count": 1000000, "nodes": 0}}), "was altered"),
    (lambda d: d["done"]["0"].update({"count": 999}), "was altered"),
    (lambda d: d.pop("digest"), "is not a chesstours checkpoint"),
    (lambda d: d.update({"done": [], "digest": "0"}), "is not a chesstours checkpoint"),
])
def test_an_altered_checkpoint_is_refused(tmp_path, change, message):
    path = tmp_path / "ck.json"
    with _book(path, every=0) as ck:
        ck.record(0, {"count": 3, "nodes": 10})
    _altered(path, change)
    with pytest.raises(InvalidArgument, match=message):
        _book(path)


@pytest.mark.parametrize("key, result, message", [
    ("6", {"count": 1, "nodes": 1}, "names a task '6'"),
    ("-1", {"count": 1, "nodes": 1}, "names a task '-1'"),
    ("00", {"count": 1, "nodes": 1}, "names a task '00'"),
    ("1", {"count": -5, "nodes": 1}, "not this run's"),
    ("1", {"count": True, "nodes": 1}, "not this run's"),
    ("1", {"count": 1.5, "nodes": 1}, "not this run's"),
    ("1", {"count": 1}, "not this run's"),
    ("1", [1, 2], "not this run's"),
])
def test_a_checkpoint_entry_that_is_not_one_of_the_runs_tasks_is_refused_even_with_its_digest(
        tmp_path, key, result, message):
    from chesstours.jobs.checkpoint import _digest

    path = tmp_path / "ck.json"
    done = {key: result}
    path.write_text(json.dumps({"fingerprint": {"q": 1}, "done": done, "digest": _digest({"q": 1}, done)}))
    with pytest.raises(InvalidArgument, match=message):
        _book(path)


def test_a_sample_extrapolates_within_its_error_bar():
    values = [float(v % 7) for v in range(1000)]
    truth = sum(values)
    hits = 0
    for seed in range(40):
        picked = [values[i] for i in sample_indices(len(values), 40, seed)]
        e = extrapolate(picked, len(values))
        hits += e.low <= truth <= e.high
    assert hits >= 34  # a 95% interval: about 38 of 40
    whole = extrapolate(values, len(values))
    assert whole.estimate == truth and whole.error == 0.0


# -- workers end with the process that started them ------------------------------------------------------

#: A program whose pool's two workers sleep for two minutes.
_SLEEPING_POOL = ("import time\nfrom chesstours.jobs import run_tasks_on\n"
                  "for _ in run_tasks_on(time.sleep, [120, 120], jobs=2):\n    pass\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("command", [
    ["-c", _SLEEPING_POOL],
    ["-m", "chesstours", "tours", "7x7", "--jobs", "2"],
    ["-m", "chesstours", "count", "7x7", "--split-on", "2", "--jobs", "2"],
], ids=["pool", "tours", "count-in-parts"])
def test_the_workers_end_and_leave_no_semaphore_when_their_parent_is_killed_by_sigkill(command):
    env = {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    parent = subprocess.Popen([sys.executable, *command], stdout=subprocess.DEVNULL, env=env)
    children: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and parent.poll() is None:
            children = children_of(parent.pid)
            if sum("spawn_main" in command_line(pid) for pid in children) == 2:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the pool's two workers did not start")
        time.sleep(0.5)  # the workers at work
        semaphores = set().union(*map(semaphores_of, [parent.pid, *children]))
        assert semaphores  # the queues of a pool of spawned processes hold named semaphores
        parent.kill()
        parent.wait()
        # the workers end at once; then multiprocessing's resource tracker, which they kept open, removes the
        # semaphores and ends
        assert all_gone(children, semaphores, 10) == ([], [])
    finally:
        parent.kill()
        parent.wait()
        for pid in children:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
