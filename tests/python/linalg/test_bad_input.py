"""Bad input across the routines: singular, ill-conditioned, non-finite and
empty input, extreme magnitudes, unsupported parameters named, inputs never written."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg as sl

from torchbridge import linalg as tl

from .cases import (
    ROUTINES,
    N,
    assert_same_structure,
    both,
    close,
    close_all,
    general,
    hpd,
)

SINGULAR = [
    ("solve", (np.zeros((3, 3)), np.ones(3)), {}),
    ("solve", (np.ones((3, 3)), np.ones(3)), {}),
    ("solve", (np.array([[1.0, 2], [2, 1]]), np.ones(2)), {"assume_a": "pos"}),
    ("solve", (np.array([[0.0]]), np.ones(2)), {}),
    ("solve", (np.diag([1.0, 0, 2]), np.ones(3)), {"assume_a": "diagonal"}),
    ("inv", (np.ones((3, 3)),), {}),
    ("inv", (np.diag([1.0, 0.0]),), {"assume_a": "upper triangular"}),
    ("solve_triangular", (np.triu(np.ones((3, 3))) - np.diag([0, 1, 0]), np.ones(3)), {}),
    ("cholesky", (np.array([[1.0, 2], [2, 1]]),), {}),
    ("cho_factor", (-np.eye(3),), {}),
    ("solve_banded", ((1, 1), np.zeros((3, 4)), np.ones(4)), {}),
    ("solveh_banded", (np.array([[0.0, 3, 3], [1, 1, 1]]), np.ones(3)), {}),
    ("cholesky_banded", (np.array([[0.0, 3, 3], [1, 1, 1]]),), {}),
]


@pytest.mark.parametrize("name,args,kwargs", SINGULAR)
def test_singular_input_raises_linalgerror(name, args, kwargs):
    with pytest.raises(np.linalg.LinAlgError) as want:
        getattr(sl, name)(*args, **kwargs)
    with pytest.raises(np.linalg.LinAlgError) as got:
        getattr(tl, name)(*args, **kwargs)
    assert type(got.value) is type(want.value)


def test_ill_conditioned_input_warns():
    h = sl.hilbert(12)
    for name, args in [("solve", (h, np.ones(12))), ("inv", (h,)), ("solve", (h.astype(np.float32) * 1e3, np.ones(12,
                                                                                                         np.float32)))]:
        with pytest.warns(sl.LinAlgWarning):
            want = getattr(sl, name)(*args)
        with pytest.warns(tl.LinAlgWarning, match="ill-conditioned"):
            got = getattr(tl, name)(*args)
        assert got.dtype == want.dtype
    with pytest.warns(tl.LinAlgWarning, match="Diagonal number 2 is exactly zero"):
        lu_, piv = tl.lu_factor(np.ones((3, 3)))
    with pytest.warns(sl.LinAlgWarning):
        lu_w, piv_w = sl.lu_factor(np.ones((3, 3)))
    close(lu_, lu_w)
    np.testing.assert_array_equal(piv, piv_w)
    # well-conditioned input does not warn (warnings are errors in this suite)
    tl.solve(sl.hilbert(4), np.ones(4))


CHECKED = ["solve", "solve_triangular", "inv", "det", "eigh", "eig", "svd", "cholesky", "cho_factor", "lu",
           "lu_factor", "qr", "rq", "lstsq", "pinv", "pinvh", "norm", "null_space", "orthogonal_procrustes",
           "solve_banded", "eigh_tridiagonal", "solve_toeplitz", "matrix_balance"]


@pytest.mark.parametrize("name", CHECKED)
def test_non_finite_input_raises_valueerror(name):
    rng = np.random.default_rng(3)
    args, kwargs = ROUTINES[name][0](rng, "float64")
    bad = list(args)
    first = bad[1] if name == "solve_banded" else bad[0]
    first = np.array(first[0] if isinstance(first, tuple) else first, dtype=float)
    first.flat[1] = np.nan
    if name == "solve_banded":
        bad[1] = first
    elif isinstance(bad[0], tuple):
        bad[0] = (first,) + bad[0][1:]
    else:
        bad[0] = first
    with pytest.raises(ValueError):
        getattr(sl, name)(*bad, **kwargs)
    with pytest.raises(ValueError, match="infs or NaNs"):
        getattr(tl, name)(*bad, **kwargs)
    if name == "cholesky":
        # libtorch's LAPACK (MKL) reports the NaN pivot as "not positive
        # definite"; SciPy's OpenBLAS potrf returns NaNs instead.
        with pytest.raises(np.linalg.LinAlgError):
            tl.cholesky(*bad, check_finite=False)
    if name in ("solve", "inv", "det", "lu", "qr", "solve_triangular"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tl.LinAlgWarning)
            result = getattr(tl, name)(*bad, check_finite=False, **kwargs)
        flat = np.concatenate([np.ravel(r) for r in (result if isinstance(result, tuple) else (result,))])
        assert np.isnan(flat).any()  # the NaN propagates; nothing raised


EMPTY = [
    ("solve", (np.empty((0, 0)), np.empty(0)), {}),
    ("solve", (np.empty((2, 0, 0)), np.empty((2, 0, 3))), {}),
    ("inv", (np.empty((0, 0), dtype=np.float32),), {}),
    ("det", (np.empty((0, 0)),), {}),
    ("det", (np.empty((3, 0, 0), dtype=complex),), {}),
    ("eigh", (np.empty((0, 0)),), {}),
    ("eig", (np.empty((0, 0)),), {}),
    ("svd", (np.empty((0, 3)),), {}),
    ("svd", (np.empty((3, 0)),), {"full_matrices": False}),
    ("cholesky", (np.empty((0, 0), dtype=int),), {}),
    ("lu", (np.empty((0, 3)),), {}),
    ("lu", (np.empty((3, 0)),), {"p_indices": True}),
    ("lu_factor", (np.empty((0, 0)),), {}),
    ("qr", (np.empty((0, 3)),), {}),
    ("qr", (np.empty((3, 0)),), {"mode": "economic"}),
    ("rq", (np.empty((3, 0)),), {}),
    ("lstsq", (np.empty((0, 3)), np.empty(0)), {}),
    ("lstsq", (np.empty((3, 0)), np.ones((3, 2))), {}),
    ("pinv", (np.empty((0, 3)),), {}),
    ("norm", (np.empty((0, 3)),), {}),
    ("expm", (np.empty((0, 0)),), {}),
    ("null_space", (np.empty((0, 3)),), {}),
    ("orth", (np.empty((3, 0)),), {}),
    ("toeplitz", (np.empty(0), np.ones(3)), {}),
    ("circulant", (np.empty(0),), {}),
    ("block_diag", (), {}),
    ("block_diag", (np.empty((0, 2)), [[1, 2]]), {}),
    ("fiedler", (np.empty(0),), {}),
    ("cho_solve", ((np.eye(3), False), np.empty((3, 0))), {}),
    ("solve_triangular", (np.eye(3), np.empty((3, 0))), {}),
]


@pytest.mark.parametrize("name,args,kwargs", EMPTY)
def test_empty_input(name, args, kwargs):
    got, want = both(name, *args, **kwargs)
    assert_same_structure(got, want)
    close_all(got, want)


@pytest.mark.parametrize("name,args,kwargs,parameter", [
    ("qr", (np.ones((2, 3, 3)),), {"mode": "raw"}, "mode"),
    ("invhilbert", (15,), {"exact": True}, "n > 14"),
    ("pascal", (35,), {}, "n >= 35"),
    ("invpascal", (35,), {}, "n > 34"),
])
def test_unsupported_parameters_are_named(name, args, kwargs, parameter):
    with pytest.raises(NotImplementedError, match=parameter):
        getattr(tl, name)(*args, **kwargs)


def test_inputs_are_never_written(rng):
    a = hpd(rng)
    a.flags.writeable = False
    snapshot = a.copy()
    for name in ("solve", "inv", "cholesky", "cho_factor", "lu", "lu_factor", "qr", "eigh", "svd", "expm",
                 "matrix_balance", "cholesky_banded"):
        band = np.vstack([np.full(N, 0.5), np.full(N, 4.0)])
        band.flags.writeable = False
        args = (a, a) if name == "solve" else (band,) if name == "cholesky_banded" else (a,)
        result = getattr(tl, name)(*args)
        first = result[0] if isinstance(result, tuple) else result
        assert not np.shares_memory(np.asarray(first), args[0])
    np.testing.assert_array_equal(a, snapshot)


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1e150, 1e300, -0.0])
def test_extreme_magnitudes(scale, rng):
    a = general(rng) * scale if scale != -0.0 else np.diag([-0.0, 1.0, 2.0, 3.0, 4.0]) + np.eye(5)
    with np.errstate(all="ignore"):
        for name, args in [("det", (a,)), ("inv", (a,)), ("solve", (a, np.ones(N))), ("eigvalsh", (a + a.T,)),
                           ("svdvals", (a,)), ("norm", (a,)), ("expm", (a / max(abs(scale), 1.0),))]:
            want = getattr(sl, name)(*args)
            if name == "norm" and scale in (1e-300, 1e300):
                # NumPy's unscaled sum of squares underflows to 0 (overflows to
                # inf) here; the true
                # norm (SciPy's norm of the rescaled matrix) is what torchbridge returns.
                want = np.float64(sl.norm(a / scale) * scale)
            got = getattr(tl, name)(*args)
            assert_same_structure(got, want)
            if name == "det":
                # det overflows to inf (underflows to 0) in both, as float64 must
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
            else:
                # relative to the largest entry: inverses of 1e-300-scaled
                # matrices reach 1e299, where an absolute 1e-12 means nothing
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())
