"""A record of finished tasks, so that an interrupted run resumes where it stopped.

The file is JSON: the run's ``fingerprint`` (what was being computed, so that
a checkpoint is never applied to another question), each finished task's
result under its index, and a SHA-256 digest of both. A file is taken only
whole and as written: the digest must match, every index must be one of the
run's own tasks, and every result must hold exactly the run's fields, each a
whole number of at least zero; anything else is refused, so an edited or
foreign record never changes a count. It is replaced atomically
(:func:`chesstours.output.write_atomic`: written beside itself, flushed to
disk, then renamed over the old one) at most once every
``every`` seconds and when the run ends, so an interruption at any moment
leaves either the old record or the new one, never half of one. A task is in
the record only once its whole result is, so resuming counts nothing twice
and loses nothing.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "run.json")
>>> with Checkpoint(path, {"count": "6x6"}, tasks=4, fields=("count",)) as ck:
...     ck.record(3, {"count": 7})
>>> Checkpoint(path, {"count": "6x6"}, tasks=4, fields=("count",)).done
{3: {'count': 7}}
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from ..errors import InvalidArgument, os_problem
from ..output import write_atomic

__all__ = ["Checkpoint"]


#: The largest checkpoint file read: a record holds a few numbers a task, and runs have at most some
#: hundred thousand tasks.
MAX_BYTES = 64 << 20


def _digest(fingerprint: dict[str, Any], done: dict[str, Any]) -> str:
    canonical = json.dumps({"fingerprint": fingerprint, "done": done}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


class Checkpoint:
    """Finished tasks' results, kept in the JSON file ``path`` for the run described by ``fingerprint``.

    ``tasks`` is the number of the run's tasks (indices ``0 .. tasks - 1``) and ``fields`` the keys of each
    task's result, every one a whole number of at least zero.

    :raises InvalidArgument: if the file holds another run's record, was altered, or cannot be read.
    """

    def __init__(self, path: str | os.PathLike[str], fingerprint: dict[str, Any], *, tasks: int,
                 fields: tuple[str, ...], every: float = 1.0):
        self.path = Path(path)
        self.fingerprint = fingerprint
        self.tasks = tasks
        self.fields = fields
        self.every = every
        self.done: dict[int, dict[str, int]] = {}
        self._written = time.monotonic()
        self._dirty = False
        if self.path.exists():
            self.done = self._read()

    def _read(self) -> dict[int, dict[str, int]]:
        """The record in the file, refused unless it is this run's own and whole."""
        name = self.path
        try:
            with open(self.path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
        except OSError as exc:
            raise InvalidArgument(f"Cannot read the checkpoint {name}: {exc.strerror or exc}.") from None
        if len(raw) > MAX_BYTES:
            raise InvalidArgument(f"{name} is not a chesstours checkpoint (it is over {MAX_BYTES >> 20} MiB).")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise InvalidArgument(f"{name} is not a chesstours checkpoint (not JSON).") from None
        if not isinstance(data, dict) or set(data) != {"fingerprint", "done", "digest"} \
                or not isinstance(data["done"], dict):
            raise InvalidArgument(f"{name} is not a chesstours checkpoint (it needs a fingerprint, a record of "
                                  "finished tasks and their digest).")
        if data["fingerprint"] != self.fingerprint:
            raise InvalidArgument(f"{name} records another run ({data['fingerprint']}); give a new checkpoint "
                                  "file or remove it.")
        if data["digest"] != _digest(data["fingerprint"], data["done"]):
            raise InvalidArgument(f"{name} was altered after it was written (its digest does not match); give a "
                                  "new checkpoint file or remove it.")
        done: dict[int, dict[str, int]] = {}
        for key, result in data["done"].items():
            if not (key.isdigit() and key == str(int(key)) and int(key) < self.tasks):
                raise InvalidArgument(f"{name} names a task {key!r} that this run does not have (its tasks are "
                                      f"0 to {self.tasks - 1}).")
            if not (isinstance(result, dict) and set(result) == set(self.fields) and all(
                    type(v) is int and v >= 0 for v in result.values())):
                raise InvalidArgument(f"{name} holds a result of task {key} that is not this run's (each is "
                                      f"{', '.join(self.fields)}, whole numbers of at least zero).")
            done[int(key)] = result
        return done

    def record(self, index: int, result: dict[str, Any]) -> None:
        """Note task ``index`` as finished with ``result`` (its ``fields``); write the file if it is time."""
        self.done[index] = {k: int(result[k]) for k in self.fields}
        self._dirty = True
        if time.monotonic() - self._written >= self.every:
            self.save()

    def save(self) -> None:
        """Replace the file atomically with the record as it is now."""
        if not self._dirty and self.path.exists():
            return
        done = {str(k): v for k, v in sorted(self.done.items())}
        data = {"fingerprint": self.fingerprint, "done": done, "digest": _digest(self.fingerprint, done)}
        try:
            write_atomic(self.path.absolute(), json.dumps(data))  # absolute: a checkpoint named "-" is a file
        except OSError as exc:
            raise os_problem(exc, f"Cannot write the checkpoint {self.path}: {exc.strerror or exc}.") from None
        self._written = time.monotonic()
        self._dirty = False

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.save()
