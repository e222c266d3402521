"""The compile cache: the folder where numba keeps the compiled kernels between runs.

The first import of chesstours points numba at it (``NUMBA_CACHE_DIR``): a
per-user folder, never the installed package, and only one that this user
owns and no one else may write, since numba unpickles what it holds.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path

import platformdirs

__all__ = ["compile_cache_dir", "in_cache_folder", "tables_cache_dir"]


def _own_folder(folder: Path, top: Path) -> bool:
    """Whether ``folder`` is a folder this user may keep compiled code in: it and every folder between it and
    ``top`` (made here with mode 0700 where missing) are real folders (no links), owned by this user and
    writable by no one else. numba unpickles what its cache folder holds, so a folder that another user made
    or may write could make this process run their code."""
    try:
        top.parent.mkdir(parents=True, exist_ok=True)
        for part in (top, *reversed(folder.relative_to(top).parents[:-1]), folder):
            part.mkdir(mode=0o700, exist_ok=True)
        uid = os.getuid() if hasattr(os, "getuid") else None
        for part in (folder, *folder.parents):
            info = os.lstat(part)
            if not stat.S_ISDIR(info.st_mode) or (uid is not None and (info.st_uid != uid or info.st_mode & 0o022)):
                return False
            if part == top:
                break
        probe = tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-")
        probe.close()
        return True
    except OSError:
        return False


def compile_cache_dir() -> str | None:
    """Where numba keeps the compiled kernels: a per-user cache folder, never the installed package.

    ``NUMBA_CACHE_DIR`` when it is set; else ``chesstours/numba`` in the
    user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``; ``~/Library/Caches``
    on macOS, ``%LOCALAPPDATA%`` on Windows), or in the temporary folder when
    that cannot be written. The first import of chesstours sets it for numba,
    so a read-only install or home compiles in memory at worst (None: no
    folder could be written), and uninstalling leaves nothing in site-packages.
    A folder that another user owns or may write is never taken (:func:`_own_folder`).
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    base = _user_cache()
    user = getattr(os, "getuid", lambda: "user")()
    private = Path(tempfile.gettempdir()) / f"chesstours-{user}"
    for folder, top in ((base / "numba", base), (private / "numba", private)):
        if _own_folder(folder, top):
            return str(folder)
    return None


def tables_cache_dir() -> str | None:
    """Where the sampling tables of the frontier method are kept between runs
    (:mod:`chesstours.sample`): ``CHESSTOURS_TABLES_DIR`` when it is set, else
    ``chesstours/tables`` in the user's cache folder (as for
    :func:`compile_cache_dir`), or None when no folder can be written: the
    tables are then built each time."""
    given = os.environ.get("CHESSTOURS_TABLES_DIR")
    if given:
        folder = Path(given)
        return str(folder) if _own_folder(folder, folder) else None
    base = _user_cache()
    folder = base / "tables"
    return str(folder) if _own_folder(folder, base) else None


def _user_cache() -> Path:
    """chesstours' folder in the user's cache folder, as the system names it (``$XDG_CACHE_HOME`` or
    ``~/.cache`` on Linux, ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows)."""
    return Path(platformdirs.user_cache_dir("chesstours", appauthor=False))


def in_cache_folder(source: str, name: str) -> bool:
    """Whether numba's cache folder holds an index of compiled code of the kernel ``name`` (``module.function``,
    as numba names its files) of the file ``source``, without loading numba: its folder for the source's
    folder is named after that folder and the SHA-1 of its path. True when there is no cache folder or it
    cannot be read: the caller then takes the cache for warm and does nothing more."""
    folder = compile_cache_dir()
    if folder is None:
        return True
    where = os.path.dirname(os.path.abspath(source))
    sub = f"{os.path.basename(where)}_{hashlib.sha1(where.encode()).hexdigest()}"
    try:
        return any(Path(folder, sub).glob(f"{name}-*.nbi"))
    except OSError:  # pragma: no cover - an unreadable folder
        return True


def _use_compile_cache() -> None:
    folder = compile_cache_dir()
    if folder is None:
        return
    os.environ["NUMBA_CACHE_DIR"] = folder
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported first: tell it too
        numba_config.CACHE_DIR = folder  # type: ignore[attr-defined]


_use_compile_cache()
