"""The registry of compiled kernels: each kernel names its family where it is defined.

Every numba function of the package is marked, above its ``@njit``, with the
family of kernels it is compiled with (a :class:`~chesstours.runtime.families.Family`
of ``chesstours compile``)::

    @kernel("backtracking")
    @numba.njit(cache=True, nogil=True)
    def advance(...): ...

:func:`kernel` records the dispatcher and returns it unchanged, so no list of
kernel names is kept by hand. :func:`cache_key` gives the name numba gives a
kernel's cache files, which :func:`~chesstours.runtime.in_cache_folder` looks
for; :func:`registered` gives a family's kernels; :func:`loaded` tells whether
a module's kernels have been compiled or loaded in this process (importing
a module of kernels, to read a cache key, loads none).

Importing this module does not import numba: the dispatchers come from the
kernel modules, which do.
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from . import compile_events

__all__ = ["kernel", "cache_key", "registered", "declare_family", "has_cache_files", "loaded"]

Dispatcher = TypeVar("Dispatcher")

#: family -> {(module, qualified name): dispatcher}; a module imported again replaces its kernels.
_REGISTRY: dict[str, dict[tuple[str, str], Any]] = {}
#: family -> the import paths of the modules that define its kernels (:func:`declare_family`).
_MODULES: dict[str, tuple[str, ...]] = {}


def kernel(family: str) -> Callable[[Dispatcher], Dispatcher]:
    """Record the numba dispatcher below it as a kernel of ``family``, and return it unchanged.

    :raises TypeError: for anything but a numba dispatcher (it goes above ``@njit``, not below).
    """

    def register(dispatcher: Dispatcher) -> Dispatcher:
        py_func = getattr(dispatcher, "py_func", None)
        if py_func is None:
            raise TypeError(f"@kernel({family!r}) goes above @njit: {dispatcher!r} is no numba dispatcher")
        _REGISTRY.setdefault(family, {})[(py_func.__module__, py_func.__qualname__)] = dispatcher
        compile_events.listen()  # numba is imported by now: from here on, this process knows when it compiles
        return dispatcher

    return register


def cache_key(dispatcher: Any) -> tuple[str, str]:
    """The source file of a kernel and the name numba gives its cache files (``module.qualname``, the module
    named after its file, without ``<`` and ``>``), as :func:`~chesstours.runtime.in_cache_folder` takes them.

    numba's cache index of a kernel is ``<name>-<line>.py<version>.nbi``, in a folder named after the source
    file's folder (``numba.core.caching``).
    """
    py_func = dispatcher.py_func
    source = inspect.getfile(py_func)
    module = os.path.splitext(os.path.basename(source))[0]
    return source, f"{module}.{py_func.__qualname__}".replace("<", "").replace(">", "")


def declare_family(family: str, modules: Iterable[str]) -> None:
    """Name the modules (import paths) that define the kernels of ``family``, for :func:`registered`."""
    _MODULES[family] = tuple(modules)


def registered(family: str) -> list[Any]:
    """The kernels of ``family``, in the order they are defined, once its modules (:func:`declare_family`) are
    imported: this imports numba.

    :raises KeyError: for a family no module list was declared for.
    """
    for module in _MODULES[family]:
        importlib.import_module(module)
    return list(_REGISTRY.get(family, {}).values())


def has_cache_files(dispatcher: Any) -> bool:
    """Whether numba writes cache files of this kernel's own: it is cached (``cache=True``) and not inlined
    into the kernels that call it (``inline="always"``: numba then compiles it only as part of them)."""
    from numba.core.caching import NullCache

    return dispatcher.targetoptions.get("inline") != "always" and not isinstance(dispatcher._cache, NullCache)


def loaded(module: str) -> bool:
    """Whether a kernel of the module ``module`` has been compiled, or loaded from the cache, in this process."""
    return any(dispatcher.signatures for kernels in list(_REGISTRY.values())
               for (home, _), dispatcher in list(kernels.items()) if home == module)
