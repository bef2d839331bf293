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
    not_batched_in_scipy = {"hankel", "solve_circulant", "matrix_balance", "expm_cond", "qr_update", "qr_insert",
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
