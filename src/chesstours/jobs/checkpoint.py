"""A record of finished tasks, so that an interrupted run resumes where it stopped.

The file is JSON: the run's ``fingerprint`` (what was being computed, so that
a checkpoint is never applied to another question) and each finished task's
result under its index. It is replaced atomically
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
>>> with Checkpoint(path, {"count": "6x6"}) as ck:
...     ck.record(3, {"count": 7})
>>> Checkpoint(path, {"count": "6x6"}).done
{3: {'count': 7}}
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from ..errors import InvalidArgument, os_problem
from ..output import write_atomic

__all__ = ["Checkpoint"]


class Checkpoint:
    """Finished tasks' results, kept in the JSON file ``path`` for the run described by ``fingerprint``.

    :raises InvalidArgument: if the file holds another run's record, or cannot be read.
    """

    def __init__(self, path: str | os.PathLike[str], fingerprint: dict[str, Any], every: float = 1.0):
        self.path = Path(path)
        self.fingerprint = fingerprint
        self.every = every
        self.done: dict[int, Any] = {}
        self._written = time.monotonic()
        self._dirty = False
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                stored = data["fingerprint"]
                done = {int(k): v for k, v in data["done"].items()}
            except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
                raise InvalidArgument(f"{self.path} is not a chesstours checkpoint ({exc}).") from None
            if stored != fingerprint:
                raise InvalidArgument(f"{self.path} records another run ({stored}); give a new checkpoint file "
                                      "or remove it.")
            self.done = done

    def record(self, index: int, result: Any) -> None:
        """Note task ``index`` as finished with ``result`` (JSON-ready); write the file if it is time."""
        self.done[index] = result
        self._dirty = True
        if time.monotonic() - self._written >= self.every:
            self.save()

    def save(self) -> None:
        """Replace the file atomically with the record as it is now."""
        if not self._dirty and self.path.exists():
            return
        data = {"fingerprint": self.fingerprint, "done": {str(k): v for k, v in sorted(self.done.items())}}
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
