"""``python -m chesstours.runtime MODULE FUNCTION [WORD ...]``: compile kernels in this new process.

The process that :func:`chesstours.runtime.background.compile_in_background` starts: it imports
``MODULE``, takes its function ``FUNCTION`` (a family's ``warm``) and calls it with the words given.
Nothing is evaluated: the module and the function are looked up by name. It ends when the process
that started it ends.
"""

import importlib
import sys

from .background import end_with_starter

if __name__ == "__main__":
    end_with_starter()
    module, function, *words = sys.argv[1:]
    getattr(importlib.import_module(module), function)(*words)
