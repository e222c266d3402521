"""Running many independent tasks: on every core of this machine, or on a Dask cluster.

The largest counts and searches are sums over independent pieces: the
subtrees of a backtracking search below a set of prefixes, or the sub-counts
of a frontier count conditioned on the tour's choices at a few squares. This
package runs such pieces -- a picklable function applied to a list of
picklable tasks -- wherever they can run, and merges nothing itself: it
hands each result back with its task's index, in the order they finish.

Where the tasks run
    ``jobs=N`` starts a pool of ``N`` local processes (no set-up). A
    ``cluster="tcp://HOST:PORT"`` sends the same tasks to a Dask scheduler
    (:mod:`dask.distributed`, the optional extra ``chesstours[cluster]``):
    a LocalCluster on a laptop, ``dask-ssh``, ``dask-jobqueue`` (SLURM,
    PBS) or Kubernetes on a cluster, with the same code. A worker that dies
    has its tasks run again: Dask reschedules them; the local pool is
    started anew and the unfinished tasks are sent again.
Long runs survive
    With a checkpoint file (:class:`Checkpoint`), every finished task is
    recorded (the file is replaced atomically, never half-written), and a run
    started again with the same file and the same tasks skips them: nothing
    is counted twice or lost.
Estimates from a sample
    :func:`extrapolate` turns the results of a random sample of the tasks
    into an estimate of their total with a standard error, so that a count
    too large to run can be sized (and checked against a published value)
    from a few of its tasks.

Cost: a task costs what its function costs, plus pickling its argument and
its result (bytes) and, in a fresh worker process, loading the compiled
kernels once (numba's on-disk cache makes that a fraction of a second).
Tasks of a second or more keep that overhead in the noise.

Examples
--------
>>> from chesstours.jobs import run_tasks_on
>>> sorted(run_tasks_on(abs, [-3, 4, -5], jobs=1))
[(0, 3), (1, 4), (2, 5)]
>>> extrapolate([10.0, 12.0, 8.0, 10.0], total=100).estimate
1000.0
"""

from __future__ import annotations

from .checkpoint import Checkpoint
from .executor import TaskFailed, run_tasks_on
from .sample import Extrapolation, extrapolate, mean_estimate, sample_indices

__all__ = ["run_tasks_on", "TaskFailed", "Checkpoint", "Extrapolation", "extrapolate", "mean_estimate", "sample_indices"]
