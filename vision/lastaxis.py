"""Reductions over a short last axis (Lab's 3 channels, the 4 colour classes), column by column.

numpy reduces a (N, 3) or (N, 4) array along its last axis one short row at a time, which on a
photo's pixels is about ten times slower than a few whole-column operations. These functions
give the same results as the numpy reductions they replace (the columns are combined in the same
order: ``((a0 + a1) + a2) + ...``, as numpy sums fewer than eight elements), so a reading does
not change with them; ``tests/vision/test_vision_lastaxis.py`` checks that against numpy.
"""

from __future__ import annotations

import numpy as np


def _columns(a: np.ndarray) -> list[np.ndarray]:
    return [a[..., k] for k in range(a.shape[-1])]


def _fold(a: np.ndarray, op: np.ufunc) -> np.ndarray:
    """The columns of ``a`` combined by ``op`` from the first to the last (``op`` of the first two,
    then of that and the third, ...)."""
    cols = _columns(a)
    out = cols[0].copy()
    for c in cols[1:]:
        op(out, c, out=out)
    return out


def sum_last(a: np.ndarray) -> np.ndarray:
    """``a.sum(-1)``."""
    return _fold(a, np.add)


def min_last(a: np.ndarray) -> np.ndarray:
    """``a.min(-1)``."""
    return _fold(a, np.minimum)


def max_last(a: np.ndarray) -> np.ndarray:
    """``a.max(-1)``."""
    return _fold(a, np.maximum)


def argmin_last(a: np.ndarray) -> np.ndarray:
    """``a.argmin(-1)`` (the first of equal smallest values)."""
    cols = _columns(a)
    best = cols[0].copy()
    idx = np.zeros(best.shape, np.intp)
    for k, c in enumerate(cols[1:], start=1):
        lower = c < best
        idx[lower] = k
        np.minimum(best, c, out=best)
    return idx


def norm_last(a: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(a, axis=-1)`` of a real array."""
    return np.sqrt(sum_last(a * a))
