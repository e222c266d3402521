"""Layers of a frontier sweep kept on disk, for counts whose states outgrow memory.

With a spill folder, every step of :func:`chesstours.frontier.run.run_sweep`
writes its new states to files, one file an array of a part of the hash
space, and the next step reads them back part by part, deleting each file
once it is extended: the disk holds about two layers. A file is opened only
while it is read (a :class:`Spilled` array knows its path and size): a long
sweep writes tens of thousands of files, more than a process may hold open. When the
tables of one step outgrow their memory budget, every table is written out as
it stands (a *partial* table, already sorted by hash) and emptied; at the end
of the step the partial tables of each part are merged in one table of that
part alone. So memory holds the tables of one budget and one part, however
many states a step has.

Files live in a temporary folder made inside the spill folder and removed
when the count ends, however it ends; the folder of a count that was killed
is removed by the next count in the same spill folder (:func:`remove_stale`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading

import numpy as np

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system
    fcntl = None  # type: ignore[assignment]

from ..errors import InvalidArgument, ResourceError, os_problem, os_reason
from ..output import write_array

__all__ = ["Layers", "Spilled", "disk_needed", "load", "remove_stale", "FOLDER_PREFIX"]

#: Bytes a state takes on disk: key and one count limb.
STATE_BYTES = 16


def disk_needed(states: float) -> float:
    """Disk a sweep of at most ``states`` live states needs: two layers and the partial tables of one."""
    return 3 * states * STATE_BYTES


class Spilled:
    """An array of ``uint64`` written to a file: its size without the file open, its values by :meth:`load`."""

    __slots__ = ("path", "size", "nbytes")

    def __init__(self, path: str, size: int):
        self.path = path
        self.size = size
        self.nbytes = 8 * size

    def load(self) -> np.ndarray:
        """The values, read into memory (the file is closed again)."""
        try:
            values = np.fromfile(self.path, dtype=np.uint64)
        except OSError as exc:
            raise os_problem(exc, f"Reading the frontier's layers back from {self.path} failed: "
                                  f"{os_reason(exc)}.") from None
        if values.size != self.size:
            raise InvalidArgument(f"The frontier's layer {self.path} holds {values.size:,} values where "
                                  f"{self.size:,} were written; the count stops rather than go on wrong.")
        return values


def load(a) -> np.ndarray:
    """``a`` itself, or its values read back if it is :class:`Spilled`."""
    return a.load() if isinstance(a, Spilled) else a


#: The name of a count's folder of layers: the prefix, then the pid of the process that made it.
FOLDER_PREFIX = "chesstours-frontier-"
#: The file in a count's folder that its process holds locked (``flock``) as long as it lives.
LOCK_NAME = "lock"


def remove_stale(spill_dir: str | os.PathLike) -> list[str]:
    """Remove the folders of layers in ``spill_dir`` that no count uses any more (killed, or a machine that
    went down). Returns the folders removed.

    A folder is ``chesstours-frontier-PID-XXXX``, but its pid says nothing of another PID namespace (a
    container, a machine sharing the folder) where the same number may be another process or none: a
    count holds its folder's lock file locked as long as it lives, and the system lets the lock go however
    the count ends. A folder whose lock can be taken is stale; one that is locked, or has no lock file (it
    is being made, or an older chesstours made it), stays. Where the system has no ``flock``, every folder
    stays.
    """
    removed: list[str] = []
    try:
        names = os.listdir(spill_dir)
    except OSError:
        return removed
    for name in names:
        if not name.startswith(FOLDER_PREFIX):
            continue
        path = os.path.join(spill_dir, name)
        lock = _take_lock(os.path.join(path, LOCK_NAME))
        if lock is not None:
            try:
                shutil.rmtree(path, ignore_errors=True)  # with the lock held: no other count takes it meanwhile
            finally:
                os.close(lock)
            removed.append(path)
    return removed


def _take_lock(path: str) -> int | None:
    """The open lock file at ``path``, locked; None where it is missing, or locked by a count that lives."""
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _hold_folder(folder: str) -> int | None:
    """Lock ``folder``'s lock file for the life of this process's count (:func:`remove_stale`): the open file
    (closing it lets the lock go), or None where the system has no ``flock``. The file is locked under a
    name of its own and then renamed, so that no other count finds it before it is locked."""
    if fcntl is None:
        return None
    making = os.path.join(folder, f".{LOCK_NAME}-new")
    fd = os.open(making, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.rename(making, os.path.join(folder, LOCK_NAME))
    except BaseException:
        os.close(fd)
        raise
    return fd


class Layers:
    """The files of the states of one count, in a temporary folder under ``spill_dir``.

    The folder's name carries this process's id, and its lock file is held locked while the count lives;
    making one first removes the folders of counts now gone (:func:`remove_stale`).
    """

    def __init__(self, spill_dir: str | os.PathLike):
        try:
            os.makedirs(spill_dir, exist_ok=True)
            remove_stale(spill_dir)
            self.dir = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-", dir=spill_dir)
            try:
                self._held = _hold_folder(self.dir)
            except BaseException:
                shutil.rmtree(self.dir, ignore_errors=True)
                raise
        except OSError as exc:
            raise os_problem(exc, f"Cannot keep the frontier's layers in {spill_dir}: {os_reason(exc)}.") from None
        self._next = 0
        self._lock = threading.Lock()  # the threads of a sweep write and remove files at once
        self.bytes = 0
        self.peak_bytes = 0

    def _name(self) -> str:
        with self._lock:
            self._next += 1
            return os.path.join(self.dir, f"{self._next}.bin")

    def _account(self, nbytes: int) -> None:
        with self._lock:
            self.bytes += nbytes
            self.peak_bytes = max(self.peak_bytes, self.bytes)

    def write(self, arrays: list[np.ndarray]) -> tuple[list, list[str]]:
        """Write ``arrays`` (keys, low limbs, high limbs) to files; return them as :class:`Spilled`, and the files."""
        out: list[np.ndarray | Spilled] = []
        paths: list[str] = []
        for a in arrays:
            if a.size == 0:
                out.append(a)
                continue
            path = self._name()
            try:
                write_array(path, a)
            except OSError as exc:
                raise ResourceError(f"Writing the frontier's layers to {self.dir} failed: {os_reason(exc)}.",
                                    exc.errno) from None
            self._account(a.nbytes)
            paths.append(path)
            out.append(Spilled(path, a.size))
        return out, paths

    def remove(self, paths: list[str]) -> None:
        """Delete files already read."""
        for path in paths:
            try:
                size = os.path.getsize(path)
                os.remove(path)
            except OSError:
                continue
            self._account(-size)

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
        self.bytes = 0
        if self._held is not None:  # the folder is gone: its lock may go
            os.close(self._held)
            self._held = None

    def __enter__(self) -> Layers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
