"""The runtime: what the machine offers, the compile cache, and how kernels are compiled and run.

This package is the only code that knows numba's machinery, processes and the
compile cache. The algorithm families ask it for threads and memory
(:mod:`.resources`), for the engine a search runs in, plain Python or compiled
(:mod:`.engine`), and for their kernels compiled ahead (:mod:`.families`,
``chesstours compile``) or in a second process on a first run
(:mod:`.background`). Each kernel is registered where it is defined, with its
family (:func:`kernel`, :mod:`.kernels`), and named in the compile cache by
:func:`cache_key`.

:mod:`.families` is not imported here: its jobs run the questions
(``count_tours``, ``find_tour``), which sit above the runtime.
"""

from .background import (
    COMPILE_WAIT,
    Compiling,
    Warm,
    await_compiled,
    compile_in_background,
    compile_unless_cached,
    compiled_beside,
    compiling,
    lowest_priority,
    ready_numba,
    stop_compiling,
)
from .cache import compile_cache_dir, in_cache_folder, tables_cache_dir
from .engine import (
    PLAIN_SEARCH_POSITIONS,
    PLAIN_SEARCH_SQUARES,
    PlainAllowance,
    advance_in_turn,
    compiled_below,
    kernels_loaded,
    plain_allowance,
    use_compiled_only,
)
from .kernels import cache_key, kernel, registered
from .processes import interrupts_deferred
from .resources import MEMORY_SHARE, cores, memory_limit, worker_count

__all__ = ["cores", "worker_count", "memory_limit", "MEMORY_SHARE", "compile_cache_dir", "in_cache_folder", "tables_cache_dir",
           "PlainAllowance", "advance_in_turn", "plain_allowance", "PLAIN_SEARCH_SQUARES", "PLAIN_SEARCH_POSITIONS",
           "use_compiled_only", "compiled_below", "kernels_loaded", "compile_in_background", "compile_unless_cached",
           "compiled_beside", "compiling", "await_compiled", "stop_compiling", "ready_numba", "lowest_priority",
           "Compiling", "interrupts_deferred", "COMPILE_WAIT", "Warm", "kernel", "cache_key", "registered"]
