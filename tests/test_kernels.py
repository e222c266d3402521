"""The registry of kernels holds every compiled function of the package, and names their cache files as numba does."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba import njit
from numba.extending import is_jitted

import chesstours
from chesstours.runtime import cache_key, kernel, registered
from chesstours.runtime.families import FAMILIES

PACKAGE = Path(chesstours.__file__).parent


def _modules() -> list[str]:
    """Every module of the package, imported (the ``__main__`` modules, which run a command, left out)."""
    names = [m.name for m in pkgutil.walk_packages(chesstours.__path__, "chesstours.")
             if not m.name.endswith("__main__")]
    for name in names:
        importlib.import_module(name)
    return names


def _compiled_functions() -> dict[str, list]:
    """module -> the numba dispatchers it defines (those it imports from another module left out)."""
    found: dict[str, list] = {}
    for name in _modules():
        for value in vars(sys.modules[name]).values():
            if is_jitted(value) and value.py_func.__module__ == name:
                found.setdefault(name, []).append(value)
    return found


def test_every_compiled_function_of_the_package_is_registered_in_the_family_of_its_module():
    compiled = _compiled_functions()
    assert compiled, "no compiled function found"
    members = {f.name: {id(k) for k in registered(f.name)} for f in FAMILIES}
    for module, dispatchers in compiled.items():
        for dispatcher in dispatchers:
            families = [f for f in FAMILIES if id(dispatcher) in members[f.name]]
            assert len(families) == 1, f"{module}.{dispatcher.py_func.__qualname__} is in no family (@kernel)"
            assert module in families[0].modules, f"{module} is not among the modules of {families[0].name!r}"
    # and the families list no module that defines no kernel
    assert {m for f in FAMILIES for m in f.modules} == set(compiled)


def test_a_kernel_is_registered_above_its_njit_only():
    with pytest.raises(TypeError, match="above @njit"):
        kernel("backtracking")(lambda x: x)


def test_the_cache_key_of_every_kernel_names_the_index_file_numba_keeps_for_it(tmp_path):
    # numba's own cache object of each kernel knows the index file it writes (and reads); without compiling, an
    # empty file there is what in_cache_folder looks for under the kernel's cache key, and no other kernel's
    code = ("from pathlib import Path\n"
            "from chesstours.runtime import cache_key, in_cache_folder, registered\n"
            "from chesstours.runtime.families import FAMILIES\n"
            "from chesstours.runtime.kernels import has_cache_files\n"
            "kernels = [k for f in FAMILIES for k in registered(f.name) if has_cache_files(k)]\n"
            "for k in kernels:\n"
            "    index = Path(k._cache._cache_file._index_path)\n"
            "    assert not in_cache_folder(*cache_key(k)), cache_key(k)\n"
            "    index.parent.mkdir(parents=True, exist_ok=True)\n"
            "    index.touch()\n"
            "    assert in_cache_folder(*cache_key(k)), (cache_key(k), index)\n"
            "print(len(kernels))\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == sum(len(f.kernels) for f in FAMILIES)


def test_a_kernel_compiled_writes_its_index_under_its_cache_key_and_counts_as_loaded_then(tmp_path):
    code = ("import numpy as np\n"
            "from chesstours.runtime.xorshift_kernel import xorshift\n"
            "from chesstours.runtime import cache_key, in_cache_folder, kernels_loaded\n"
            "print(in_cache_folder(*cache_key(xorshift)), kernels_loaded('chesstours.runtime.xorshift_kernel'))\n"
            "xorshift(np.ones(1, np.uint64))\n"
            "print(in_cache_folder(*cache_key(xorshift)), kernels_loaded('chesstours.runtime.xorshift_kernel'))\n")
    cache = tmp_path / "cache"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["False False", "True True"]  # imported: nothing loaded; called: compiled
    from chesstours.runtime import xorshift_kernel

    source, name = cache_key(xorshift_kernel.xorshift)
    assert source == str(PACKAGE / "runtime" / "xorshift_kernel.py") and name == "xorshift_kernel.xorshift"
    line = xorshift_kernel.xorshift.py_func.__code__.co_firstlineno
    version = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    assert [p.name for p in cache.rglob("*.nbi")] == [f"{name}-{line}.{version}.nbi"]


def test_a_cache_key_drops_what_numba_leaves_out_of_its_file_names():
    def outer():
        @njit(cache=True)
        def inner(x):
            return x

        return inner

    inner = outer()
    source, name = cache_key(inner)
    assert "<" not in name and name.endswith(".locals.outer.locals.inner") and name.startswith("test_kernels.")
    assert os.path.abspath(source) == os.path.abspath(__file__)
    assert Path(inner._cache._cache_file._index_path).name.startswith(f"{name}-")  # numba's own name for it


def _imports_numba(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("numba", "llvmlite") for a in node.names):
            return True
        if (isinstance(node, ast.ImportFrom) and not node.level and node.module
                and node.module.split(".")[0] in ("numba", "llvmlite")):
            return True
    return False


def test_only_the_runtime_and_the_modules_that_define_kernels_import_numba():
    defining = {m for f in FAMILIES for m in f.modules}
    outside = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if module.startswith("chesstours.runtime.") or "kernel" in path.stem or module in defining:
            continue
        if _imports_numba(path):
            outside.append(module)
    assert outside == []
