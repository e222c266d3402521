"""Counts and listings as tasks: on a process pool and a Dask cluster, resumed from checkpoints, with properties.

The counts must equal the single-process ones exactly, whatever the pool, the
cluster, an interruption or a worker that dies; the properties must pick out
the same tours as a brute force written here.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import numpy as np
import pytest

import chesstours as ct
from chesstours import KNIGHT, Board, Leaper
from chesstours.backtrack.split import TaskJob, count_task
from chesstours.backtrack.where import parse_where
from chesstours.errors import InvalidArgument
from chesstours.jobs import executor, run_tasks_on
from chesstours.scale import spread_tasks
from tests.oracle import neighbours, walk_all

SIX_OPEN = 6_637_920


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as local:
        yield local.scheduler_address


def test_6x6_open_counts_the_same_on_two_processes():
    c = ct.count_tours("6x6", method="backtrack", jobs=2)
    assert (c.directed, c.undirected, c.complete) == (SIX_OPEN, SIX_OPEN // 2, True)
    assert c.extra["jobs"] == 2 and c.extra["tasks"] >= 128


def test_6x6_open_counts_the_same_on_a_dask_cluster_of_two_workers(cluster):
    c = ct.count_tours("6x6", method="backtrack", cluster=cluster)
    assert (c.directed, c.complete, c.extra["jobs"]) == (SIX_OPEN, True, "cluster")


def _dies_once(arg):
    """count_task, except that the first time the marked task runs, its worker process dies."""
    marker, job, marked = arg
    if marked and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return count_task(job)


def test_a_dask_worker_killed_mid_run_does_not_change_the_count(cluster, tmp_path):
    board = Board(6, 6)
    tasks = [t for t, _ in spread_tasks(board, KNIGHT, None, None, False, 64)]
    marker = str(tmp_path / "died")
    jobs = [(marker, TaskJob(board, KNIGHT, t), i == 7) for i, t in enumerate(tasks)]
    results = dict(run_tasks_on(_dies_once, jobs, cluster=cluster))
    assert Path(marker).exists() and len(results) == len(tasks)
    assert sum(t.weight * results[i]["count"] for i, t in enumerate(tasks)) == SIX_OPEN


class _LostOnce:
    """A Dask future whose result is lost once after it reads done (its worker died), then comes back."""

    def __init__(self, value):
        self.value, self.polls = value, 0

    def done(self):
        self.polls += 1
        return True

    @property
    def status(self):
        return "lost" if self.polls == 1 else "finished"

    def result(self):
        return self.value


class _FakeClient:
    def submit(self, fn, task, **kwargs):
        return _LostOnce(fn(task))

    def cancel(self, futures):
        raise AssertionError("nothing is left to cancel")

    def close(self):
        pass


def test_a_result_lost_with_its_worker_is_waited_for_not_taken_for_an_error(monkeypatch):
    monkeypatch.setattr(executor, "connect", lambda address, deadline=None: _FakeClient())
    assert dict(run_tasks_on(abs, [-1, -2, 3], cluster="tcp://nowhere:1")) == {0: 1, 1: 2, 2: 3}


def test_a_count_interrupted_half_way_resumes_from_its_checkpoint_exactly(tmp_path):
    path = tmp_path / "count.json"
    seen = []

    def stop_after_five(p):
        seen.append(p.tasks_done)
        if p.tasks_done == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as stop:
        ct.count_tours("6x6", method="backtrack", jobs=2, checkpoint=path, progress=stop_after_five)
    assert stop.value.partial.complete is False
    recorded = json.loads(path.read_text())["done"]
    assert len(recorded) == 5
    resumed = []
    c = ct.count_tours("6x6", method="backtrack", jobs=2, checkpoint=path, progress=lambda p: resumed.append(
        p.tasks_done))
    assert c.directed == SIX_OPEN and c.complete
    assert resumed[0] == 6 and len(resumed) == c.extra["tasks"] - 5  # the five recorded tasks were not run again
    with pytest.raises(InvalidArgument, match="records another run"):
        ct.count_tours("6x6", closed=True, method="backtrack", jobs=2, checkpoint=path)


def test_a_time_limit_stops_a_count_in_tasks_with_what_it_has():
    import multiprocessing

    before = set(multiprocessing.active_children())  # a Dask cluster of another test may be running
    with pytest.raises(ct.LimitReached, match="tasks counted") as stop:
        ct.count_tours("7x7", start="a1", method="backtrack", jobs=2, time_limit=1.5)
    assert stop.value.partial.complete is False
    assert set(multiprocessing.active_children()) <= before  # the workers were stopped, not left searching
    with pytest.raises(ct.LimitReached):
        for _ in ct.iter_tours("7x7", start="a1", jobs=2, time_limit=1.5):
            pass
    assert set(multiprocessing.active_children()) <= before


def test_tours_stream_from_all_workers():
    assert sum(1 for _ in ct.iter_tours("5x5", start="a1", jobs=2)) == 304
    paths = {tuple(t.path.tolist()) for t in ct.iter_tours("5x5", start="a1")}
    assert {tuple(t.path.tolist()) for t in ct.iter_tours("5x5", start="a1", jobs=2)} == paths


# -- properties against a brute force ------------------------------------------------


@functools.cache
def all_paths(board: Board, piece: Leaper, closed: bool) -> list[list[int]]:
    """Every Hamiltonian path (closed: every cycle, once, from its smallest square) by plain recursion.

    Kept for the tests that ask again (5x5: 20 seconds); a caller must not change the lists.
    """
    nb = neighbours(board, piece)
    free = sorted(nb)
    out: list[list[int]] = []

    def keep(path: list[int]) -> None:
        if not closed or (path[0] in nb[path[-1]] and path[1] < path[-1]):
            out.append(list(path))

    walk_all(nb, free[:1] if closed else free, keep)
    return out


def turned(board: Board, path: list[int], quarter: int) -> list[int]:
    out = []
    for v in path:
        r, c = divmod(v, board.cols)
        r, c = (board.rows - 1 - r, board.cols - 1 - c) if quarter == 2 else (c, board.rows - 1 - r)
        out.append(r * board.cols + c)
    return out


def symmetric(board: Board, path: list[int], closed: bool, quarter: int) -> bool:
    n = len(path)
    edges = {frozenset((path[i], path[(i + 1) % n])) for i in range(n if closed else n - 1)}
    image = turned(board, path, quarter)
    return {frozenset((image[i], image[(i + 1) % n])) for i in range(n if closed else n - 1)} == edges


CASES = [("4x5", "knight", False), ("3x6", "knight", False), ("3x8", "knight", True), ("4x4", "0,1", True),
         ("4x4", "0,1", False), ("5x4", "0,1", True), ("3x10", "knight", True), ("4x4 d4", "1,1", False)]


@pytest.mark.parametrize("spec, piece, closed", CASES)
def test_symmetric_tours_are_the_brute_forces(spec, piece, closed):
    size, _, holes = spec.partition(" ")
    board, p = Board.parse(size, holes), ct.parse_piece(piece)
    brute = all_paths(board, p, closed)
    for word, quarter in (("symmetric", 2), ("symmetric90", 1)):
        if quarter == 1 and board.rows != board.cols:
            continue
        if board.holes and not all(v in board.holes for v in turned(board, sorted(board.holes), quarter)):
            continue
        want = sum(symmetric(board, path, closed, quarter) for path in brute)
        got = [t.path.tolist() for t in ct.iter_tours(board, closed=closed, piece=p, where=word)]
        assert len(got) == want and all(symmetric(board, path, closed, quarter) for path in got)
        c = ct.count_tours(board, closed=closed, piece=p, where=word)
        assert (c.directed, c.undirected) == ((2 * want, want) if closed else (want, want // 2))
        assert sum(1 for _ in ct.iter_tours(board, closed=closed, piece=p, where=word, jobs=2)) == want


@pytest.mark.parametrize("spec, clues", [("4x5", "a1=1,d2=8"), ("3x8", "b2=3"), ("5x5", "c3=13,a1=1"),
                                         ("4x5", "e4=20"), ("5x5", "c3=13")])
def test_clue_searches_are_the_brute_forces(spec, clues):
    board = Board.parse(spec)
    rules = [(board.square(c.split("=")[0]), int(c.split("=")[1])) for c in clues.split(",")]
    want = [p for p in all_paths(board, KNIGHT, False) if all(p[k - 1] == v for v, k in rules)]
    got = sorted(t.path.tolist() for t in ct.iter_tours(spec, where=clues))
    assert got == sorted(want)
    c = ct.count_tours(spec, where=clues)
    assert (c.directed, c.undirected) == (len(want), len({min(tuple(p), tuple(p[::-1])) for p in want}))
    assert sorted(t.path.tolist() for t in ct.iter_tours(spec, where=clues, jobs=2)) == sorted(want)


def test_any_predicate_and_the_compiled_ones_agree():
    def starts_in_a_corner(tour):
        return tour.board.name(tour.start) in ("a1", "e1", "a5", "e5")

    corners = sum(1 for _ in ct.iter_tours("5x5", where=starts_in_a_corner))
    assert corners == 4 * 304
    with pytest.raises(InvalidArgument, match="defined at the top of a module"):
        list(ct.iter_tours("5x5", where=lambda t: True, jobs=2))


def test_bad_properties_are_one_sentence():
    board = Board(6, 6)
    for text, message in [("z9=1", "not on"), ("a1=0", "moves 1 to 36"), ("a1=1,b3=1", "two squares on one move"),
                          ("tilted", "not a condition")]:
        with pytest.raises(InvalidArgument, match=message):
            parse_where(text, board, False)
    with pytest.raises(InvalidArgument, match="not symmetric"):
        parse_where("symmetric", Board(6, 6, holes="a1"), True)
    rows = np.arange(36, dtype=np.int32)  # row by row: a cycle equal to its half-turn
    assert parse_where("symmetric", board, True)(rows) is True
    rows[[0, 1]] = rows[[1, 0]]
    assert parse_where("symmetric", board, True)(rows) is False


def test_a_count_sized_from_random_tasks_brackets_the_exact_one():
    from chesstours.scale import Spread, sample_count

    s = sample_count(Board(5, 5), KNIGHT, depth=8, draws=3000, spread=Spread(jobs=1), seed=3)
    assert s.count.low < 1728 < s.count.high and s.count.error < 1728
    assert s.nonzero > 0 and s.tasks.estimate > 1000


# -- the command line -------------------------------------------------------------------


def run(capsys, *args):
    from chesstours.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_counts_and_lists_in_tasks(capsys, tmp_path):
    code, out, err = run(capsys, "count", "6x6", "--closed", "--where", "symmetric", "--jobs", "2", "--json",
                         "--no-progress")
    data = json.loads(out)
    assert code == 0 and (data["directed"], data["undirected"], data["where"]) == (156, 78, "symmetric")
    code, out, _ = run(capsys, "count", "5x5", "--jobs", "2", "--checkpoint", str(tmp_path / "c.json"), "--json",
                       "--no-progress")
    assert code == 0 and json.loads(out)["directed"] == 1728 and (tmp_path / "c.json").exists()
    code, out, _ = run(capsys, "tours", "5x5", "--where", "a1=1,e5=25", "--jobs", "2", "--format", "moves")
    assert code == 0 and len(out.splitlines()) == 56 and all(line.split()[-1] == "e5" for line in out.splitlines())


@pytest.mark.parametrize("entry", [{"00": {"count": 1000000, "nodes": 0}}, {"-1": {"count": 1, "nodes": 0}}])
def test_a_finished_checkpoint_with_an_entry_added_is_refused_and_changes_no_count(capsys, tmp_path, entry):
    path = tmp_path / "c.json"
    args = ["count", "5x5", "--method", "backtrack", "--jobs", "1", "--checkpoint", str(path), "--json",
            "--no-progress"]
    code, out, _ = run(capsys, *args)
    assert code == 0 and json.loads(out)["directed"] == 1728
    data = json.loads(path.read_text())
    data["done"].update(entry)
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and "was altered" in err and len(err.strip().splitlines()) == 1


def test_a_plan_in_tasks_lists_every_task(capsys):
    code, out, _ = run(capsys, "count", "6x6", "--jobs", "2", "--plan", "--json")
    plan = json.loads(out)
    assert code == 0 and plan["method"] == "backtrack" and len(plan["tasks"]) == plan["task_count"] >= 128
    assert plan["cpu_hours"] > 0 and all(t["memory_bytes"] > 0 and t["states"] > 0 for t in plan["tasks"])


@pytest.mark.parametrize("args, message", [
    (["count", "6x6", "--jobs", "0"], "--jobs must be at least 1"),
    (["count", "6x6", "--jobs", "2", "--split-on", "0"], "--split-on must be at least 1"),
    (["count", "6x6", "--split-on", "1", "--method", "backtrack"], "splits the frontier count into parts"),
    (["count", "6x6", "--where", "q9=3"], "not on"),
    (["count", "6x6", "--cluster", "tcp://127.0.0.1:9"], "No Dask scheduler answers"),
])
def test_bad_task_options_are_one_sentence(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.fixture
def silent_peer():
    """A TCP port that takes connections and never answers."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()


def test_a_scheduler_that_never_answers_is_waited_for_until_the_deadline_only(silent_peer):
    import time

    pytest.importorskip("distributed")
    t0 = time.perf_counter()
    with pytest.raises(ct.LimitReached):
        executor.connect(silent_peer, deadline=t0 + 1.0)
    assert time.perf_counter() - t0 < 2.0


def test_a_scheduler_that_never_answers_is_named_in_one_sentence(silent_peer, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(executor, "CONNECT_SECONDS", 1.0)
    with pytest.raises(InvalidArgument, match=r"^No Dask scheduler answers at tcp://.*: no answer within 1 second\.$"):
        executor.connect(silent_peer)
