"""Batches: SciPy 1.17 applies most routines over leading dimensions (and
returns lists, not tuples, from its batching decorator); torchbridge does the
same for every routine of the BATCHED table of ``cases``, zero-size batches included."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

from torchbridge import linalg as tl

from .cases import (
    BATCHED,
    ROUTINE_RTOL,
    ROUTINES,
    _call,
    assert_same_structure,
    close_all,
    compare_result,
)


@pytest.mark.parametrize("name", BATCHED)
def test_batches_match_scipy(name, rng):
    args, kwargs = BATCHED[name](rng)
    want = _call(sl, name, args, kwargs)
    got = _call(tl, name, args, kwargs)
    assert_same_structure(got, want)
    if name == "eigvalsh":
        close_all(got, want)
    else:
        compare_result(name, got, want, args, ROUTINE_RTOL.get(name, 1e-12))


def test_every_batched_scipy_routine_is_tested():
    not_batched_in_scipy = {"hankel", "solve_circulant", "expm_cond", "qr_update", "qr_insert",
                            "qr_delete"}  # see their own tests
    assert set(BATCHED) == set(ROUTINES) - not_batched_in_scipy


@pytest.mark.parametrize("name", ["inv", "eigh", "svd", "cholesky", "qr", "lu_factor", "pinv", "expm", "toeplitz"])
def test_zero_size_batches(name):
    a = np.zeros((0, 3, 3)) if name != "toeplitz" else np.zeros((0, 3))
    try:
        want = getattr(sl, name)(a)
    except ValueError as exc:
        with pytest.raises(ValueError, match="zero-size batches"):
            getattr(tl, name)(a)
        assert "zero-size" in str(exc)
        return
    got = getattr(tl, name)(a)
    assert_same_structure(got, want)


def test_solve_banded_with_per_matrix_band_counts():
    """SciPy 1.17 batches ``l`` and ``u`` with ``ab``: each matrix its own split of the same band rows."""
    rng = np.random.default_rng(8)
    ab = np.stack([np.vstack([np.r_[0, np.ones(4)], 4 + np.zeros(5), np.r_[np.ones(4), 0]]),
                   np.vstack([4 + np.zeros(5), np.r_[np.ones(4), 0], np.r_[np.ones(3), 0, 0]])])
    for l_and_u, b in [((np.array([1, 2]), np.array([1, 0])), rng.standard_normal(5)),
                       ((np.array([1, 2]), np.array([1, 0])), rng.standard_normal((2, 5, 3))),
                       ((1, np.array([1, 1])), rng.standard_normal(5))]:
        if np.ndim(l_and_u[0]) == 0:
            ab_ = ab[:1].repeat(2, 0)
        else:
            ab_ = ab
        want = sl.solve_banded(l_and_u, ab_, b)
        got = tl.solve_banded(l_and_u, ab_, b)
        assert_same_structure(got, want)
        close_all(got, want)
