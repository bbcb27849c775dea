"""The column-by-column reductions give numpy's own results, bit for bit (a reading must not
change with them)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.lastaxis import argmin_last, max_last, min_last, norm_last, sum_last


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_the_column_reductions_equal_numpys(dtype: type, n: int) -> None:
    rng = np.random.default_rng(n)
    a = (rng.standard_normal((5000, n)) * 10 ** rng.uniform(-3, 3, (5000, 1))).astype(dtype)
    assert sum_last(a).dtype == a.sum(-1).dtype
    assert np.array_equal(sum_last(a), a.sum(-1))
    assert np.array_equal(min_last(a), a.min(-1))
    assert np.array_equal(max_last(a), a.max(-1))
    assert np.array_equal(norm_last(a), np.linalg.norm(a, axis=-1))
    ties = np.round(a).astype(dtype)  # equal values: the first index wins, as numpy's
    assert np.array_equal(argmin_last(ties), ties.argmin(-1))
    assert np.array_equal(argmin_last(a), a.argmin(-1))


def test_the_column_reductions_keep_the_leading_shape() -> None:
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    assert sum_last(a).shape == (2, 3)
    assert np.array_equal(sum_last(a), a.sum(-1))
    assert np.array_equal(argmin_last(-a), (-a).argmin(-1))
