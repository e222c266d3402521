"""The meet in the middle: a board counted as two halves swept towards a middle line, then joined.

Each half is swept by the frontier method (:mod:`chesstours.frontier.run`) up to the middle; two of
their states fit when their degrees add up to two on every middle square and their fragments, end to
end, make one cycle (closed tours) or one path (open tours). The count is the sum, over the pairs
that fit, of the products of their counts. :mod:`.halves` plans the cut and drives the join,
:mod:`.kernel` joins compiled (one half indexed by the key its partners must have, the other streamed
against it, in byte shuffles where the processor has them: :mod:`.shuffle_kernel`), and :mod:`.python`
joins small counts in numpy.
"""

from .halves import count_by_halves, plan_halves

__all__ = ["count_by_halves", "plan_halves"]
