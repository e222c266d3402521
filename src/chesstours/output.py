"""Writing output files atomically: a reader never sees half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Callable

from .errors import InvalidArgument

__all__ = ["write_atomic", "open_atomic"]


def open_atomic(path: str | os.PathLike, write: Callable[[IO[bytes]], object]) -> None:
    """Call ``write(fileobj)`` on a temporary file beside ``path``, then rename it into place.

    On any error (Ctrl-C included) the temporary file is removed and ``path``
    is left as it was.

    :raises InvalidArgument: if the folder does not exist or is not writable.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidArgument(f"Cannot write {target}: the folder {folder} does not exist.")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise InvalidArgument(f"Cannot write {target}: {exc.strerror}.") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` (text is UTF-8 encoded) to ``path`` atomically."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    open_atomic(path, lambda fh: fh.write(payload))
