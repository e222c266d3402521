"""Writing output files a user can trust: whole or not at all, and never in the wrong place.

Where :func:`open_atomic` writes depends on what ``path`` names:

- ``-``: standard output.
- a regular file: a temporary file beside it is written, given the old file's
  permissions, and renamed over it; a reader sees the old file or the new one,
  never half of one.
- a name that does not exist yet: the same, and the new file gets the
  permissions the umask allows (as any program's new file does).
- a symbolic link: the file it points to is written as above; the link stays.
- a FIFO, a terminal or another device (``/dev/null``): opened and written in
  place, since it cannot be replaced. Only what is not a regular file is: a
  regular file is replaced as above wherever it lies, ``/dev/shm`` included, and
  a new name is a new file even under ``/dev``.
- ``-``, ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``: written through the
  descriptor already open.
- a folder, an empty name, a name in a folder that does not exist, or symbolic
  links that loop: refused (:class:`~chesstours.errors.InvalidArgument`) before
  anything is written.

The temporary file's name fits the folder's limit on names however long the
target's name is (which may be up to that limit itself).

A write that fails (a full disk) or is interrupted (Ctrl-C) removes its
temporary file and leaves the old file as it was.
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
from pathlib import Path
from typing import IO, Any, Callable

from .errors import InvalidArgument, os_problem, os_reason

__all__ = ["write_atomic", "open_atomic", "check_output", "write_array", "save_npy", "save_npz", "write_in_place"]

#: The longest file name when the system does not say (Linux, macOS and Windows file systems alike).
_NAME_MAX = 255


def check_output(path: str | os.PathLike) -> None:
    """Refuse an output path that can never be written: an empty name, a folder, a missing folder.

    :raises InvalidArgument: with one sentence saying what is wrong.
    """
    name = os.fspath(path)
    if name == "-":
        return
    if not name or not name.strip():
        raise InvalidArgument("The output file name is empty; give a file name, or - for standard output.")
    if "\0" in name:
        raise InvalidArgument(f"The output file name {name!r} holds a NUL character, which no file name may.")
    if os.path.isdir(name):
        raise InvalidArgument(f"Cannot write {name}: it is a folder; give a file name.")
    try:
        os.stat(name)
    except FileNotFoundError:
        pass  # a new file (or a link to one)
    except OSError as exc:  # links that loop, a file taken for a folder, a name too long: the request's mistake
        problem = os_problem(exc, f"Cannot write {name}: {os_reason(exc)}.")
        if isinstance(problem, InvalidArgument):
            raise problem from None
    target = Path(os.path.realpath(name)) if os.path.islink(name) else Path(name)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidArgument(f"Cannot write {name}: the folder {folder} does not exist.")


def open_atomic(path: str | os.PathLike, write: Callable[[IO[bytes]], object]) -> None:
    """Call ``write(fileobj)`` on the file ``path`` names: atomically for files, in place for devices.

    See the module's docstring for what each kind of path gets. On any error
    (Ctrl-C included) a temporary file is removed and an existing file is left
    as it was.

    :raises InvalidArgument: for an empty name, a folder, or a folder that does not exist.
    :raises OSError: when the system refuses (permission denied, a full disk), naming the file.
    """
    name = os.fspath(path)
    check_output(name)
    fd = _open_descriptor(name)
    if fd is not None:
        _write_descriptor(fd, write)
        return
    try:
        info: os.stat_result | None = os.stat(name)  # follows symbolic links
    except FileNotFoundError:
        info = None  # a new file, or a link to one
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, name) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        write_in_place(name, write)
        return
    target = os.path.realpath(name) if os.path.islink(name) else name
    _replace(target, write, None if info is None else stat.S_IMODE(info.st_mode))


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` (text is UTF-8 encoded) to ``path`` as :func:`open_atomic` does."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    open_atomic(path, lambda fh: fh.write(payload))


def _open_descriptor(name: str) -> int | None:
    """The file descriptor ``name`` stands for: ``-`` and ``/dev/stdout`` 1, ``/dev/fd/N`` N; else None.

    These are written through the descriptor the program already holds: opened
    again, a file that standard output is redirected to would be truncated under it.
    """
    if name == "-":
        return 1
    absolute = os.path.normpath(os.path.abspath(name))
    if absolute in ("/dev/stdout", "/dev/stderr"):
        return 1 if absolute.endswith("out") else 2
    for prefix in ("/dev/fd/", "/proc/self/fd/", f"/proc/{os.getpid()}/fd/"):
        rest = absolute[len(prefix):] if absolute.startswith(prefix) else ""
        if rest.isdigit():
            return int(rest)
    return None


def _write_descriptor(fd: int, write: Callable[[IO[bytes]], object]) -> None:
    if fd in (1, 2):
        stream = sys.stdout if fd == 1 else sys.stderr
        stream.flush()
        write(stream.buffer)
        stream.buffer.flush()
        return
    try:
        fh = os.fdopen(os.dup(fd), "wb")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, f"/dev/fd/{fd}") from None
    with fh:
        write(fh)


def write_in_place(name: str, write: Callable[[IO[bytes]], object]) -> None:
    """Write ``name`` as it is, for what is not a regular file (a FIFO, ``/dev/null``, a terminal)."""
    try:
        with open(name, "wb") as fh:
            write(fh)
    except BrokenPipeError:
        raise
    except OSError as exc:
        if exc.errno is None or exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror, name) from None


def _temporary_name(folder: str, base: str) -> str:
    """``.BASE.XXXXXXXX.part``, ``BASE`` shortened (a character at a time) until the name fits the folder's limit."""
    try:
        longest = os.pathconf(folder or ".", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        longest = _NAME_MAX
    suffix = f".{secrets.token_hex(4)}.part"
    room = max(1, longest) - len(os.fsencode(suffix)) - 1
    while base and len(os.fsencode(base)) > room:
        base = base[:-1]
    return f".{base}{suffix}"


class _Stream:
    """A file object seen only through ``write``: numpy then writes an array in pieces through it.

    Given a real file, numpy writes with C stdio, whose error on a full disk
    carries no error number ("1000000 requested and 522208 written"); through
    ``write`` the file object raises the system's own error (ENOSPC).
    """

    def __init__(self, fh: IO[bytes]):
        self._fh = fh

    def write(self, data: Any) -> int:
        return self._fh.write(data)


def save_npy(fh: IO[bytes], array: Any) -> None:
    """Write ``array`` to ``fh`` in NumPy's ``.npy`` format, a full disk raising ENOSPC (see :class:`_Stream`)."""
    import numpy as np

    np.save(_Stream(fh), array, allow_pickle=False)


def save_npz(fh: IO[bytes], arrays: dict[str, Any]) -> None:
    """Write the named ``arrays`` to ``fh`` as NumPy's ``.npz`` archive (no pickles). The archive writes each
    array through :mod:`zipfile`'s file objects, never with C stdio, so a full disk raises ENOSPC as it is."""
    import numpy as np

    np.savez(fh, allow_pickle=False, **arrays)


def write_array(path: str | os.PathLike, array: Any) -> None:
    """Write the raw bytes of ``array`` to a new file ``path``, as ``array.tofile(path)`` does, but a full disk
    raising ENOSPC (see :class:`_Stream`)."""
    import numpy as np

    data = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
    with open(path, "wb") as fh:
        fh.write(data.data)


def _replace(target: str, write: Callable[[IO[bytes]], object], mode: int | None) -> None:
    """Write a temporary file beside ``target`` and rename it over ``target``."""
    folder, base = os.path.split(target)
    tmp = os.path.join(folder, _temporary_name(folder, base))
    try:
        # 0o666 less the umask, as for any new file; an existing file's own mode replaces it below
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, target) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.errno is not None and exc.filename is None:
            raise OSError(exc.errno, exc.strerror, target) from None
        raise
