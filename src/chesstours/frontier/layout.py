"""What the frontier kernels share with Python: the codes of a state's slots, its limits, the tables' markers.

Kept apart from the compiled kernels (:mod:`chesstours.frontier.kernel`,
:mod:`chesstours.frontier.table_kernel`, :mod:`chesstours.frontier.join.kernel`) so
that planning a count -- whether the frontier fits, what it will cost -- does
not load numba: the kernels and their callers all import them from here. The
codes are explained in :mod:`chesstours.frontier.kernel`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["FREE", "ENDED", "FULL", "MAX_LABEL", "MAX_SLOTS", "RADIX", "PACKED_ENDED", "PACKED_FULL", "PLACE",
           "UNPACKED", "CAP", "EMPTY_KEY", "NARROW_OVERFLOW", "OVERFLOW", "MAX_MIDDLE", "EMPTY"]

FREE, ENDED, FULL = 0, 14, 15
#: Largest label in a work array (labels above 8 live only until the state is packed).
MAX_LABEL = 13
#: Most frontier slots a 64-bit state holds.
MAX_SLOTS = 17
#: Values of a packed slot, and the packed codes of ``ENDED`` and ``FULL``.
RADIX = 11
PACKED_ENDED, PACKED_FULL = 9, 10
#: ``11**i``, the place value of slot ``i`` (after the factor 3 of the ends).
PLACE = np.array([3 * RADIX**i for i in range(MAX_SLOTS + 1)], np.uint64)
#: Work code of a packed code.
UNPACKED = np.array(list(range(9)) + [ENDED, FULL], np.int64)
#: An edge choice that *caps* the new square: a virtual edge to an end of the tour (meet in the middle).
CAP = -2

#: The key of a free slot of a hash table (:mod:`chesstours.frontier.table_kernel`).
EMPTY_KEY = np.uint64(0xFFFFFFFFFFFFFFFF)
#: ``err[0]`` after a carry out of a one-limb count.
NARROW_OVERFLOW = 2
#: ``err[0]`` after a carry out of a two-limb count.
OVERFLOW = 1

#: Most places of a middle frontier (four bits a mate in a 64-bit word).
MAX_MIDDLE = 16
#: A free slot of the join's index of a half.
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
