"""How much a whole split is, from a random sample of its tasks.

Running ``k`` of ``n`` tasks drawn uniformly without replacement, the total
``n * mean(sample)`` is an unbiased estimate of the sum of all ``n``, with
standard error ``n * s / sqrt(k) * sqrt(1 - k / n)`` (``s`` the sample's
standard deviation; the last factor corrects for sampling without
replacement). The same holds for the time the tasks take, which is how a
plan's CPU-hours are checked before a long run.

Examples
--------
>>> e = extrapolate([4.0, 6.0], total=10)
>>> e.estimate, round(e.error, 3), e.low < 50 < e.high
(50.0, 8.944, True)
>>> mean_estimate([90.0, 110.0]).estimate, mean_estimate([90.0, 110.0]).error
(100.0, 10.0)
>>> sample_indices(10, 3, seed=1)
[1, 2, 4]
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

__all__ = ["Extrapolation", "extrapolate", "mean_estimate", "sample_indices"]


@dataclass(frozen=True)
class Extrapolation:
    """An estimate of a total from a sample, with its standard error and a 95% interval (``low``, ``high``)."""

    estimate: float
    error: float
    sampled: int
    total: int

    @property
    def low(self) -> float:
        return self.estimate - 1.96 * self.error

    @property
    def high(self) -> float:
        return self.estimate + 1.96 * self.error


def _mean_spread(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and their standard deviation (infinite for one value)."""
    k = len(values)
    mean = math.fsum(values) / k
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (k - 1)) if k > 1 else math.inf
    return mean, spread


def extrapolate(values: list[float], total: int) -> Extrapolation:
    """The sum over ``total`` tasks, estimated from the ``values`` of a uniform random sample of them."""
    k = len(values)
    if k == 0 or total < k:
        raise ValueError(f"a sample of {k} cannot stand for {total} tasks")
    mean, spread = _mean_spread(values)
    error = total * spread / math.sqrt(k) * math.sqrt(1 - k / total) if k < total else 0.0
    return Extrapolation(total * mean, error, k, total)


def mean_estimate(values: list[float]) -> Extrapolation:
    """The mean of independent unbiased estimates of one total (for example weighted random tasks), with its error.

    ``total`` is reported as the number of values.
    """
    k = len(values)
    if k < 2:
        raise ValueError(f"a spread needs two values or more, not {k}")
    mean, spread = _mean_spread(values)
    return Extrapolation(mean, spread / math.sqrt(k), k, k)


def sample_indices(total: int, k: int, seed: int = 0) -> list[int]:
    """``k`` distinct task indices out of ``total``, drawn uniformly with the given seed, in order."""
    return sorted(random.Random(seed).sample(range(total), min(k, total)))
