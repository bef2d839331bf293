"""qr_update, qr_insert, qr_delete against SciPy 1.17: SciPy's Givens/reflector loops are ported, so the
updated factors are SciPy's (signs included) to rounding, for full and economic factors, real and complex,
float32 and float64; the paths not ported raise UnsupportedParameterError naming them; SciPy's errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

from torchbridge import linalg as tl
from torchbridge.errors import UnsupportedParameterError


def _close(got, want, dtype):
    tol = 2e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * max(1.0, np.abs(w).max()))


def _data(rng, dtype, *shape):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


CASES = [
    ("qr_update", lambda q, r, d: (q, r, d(q.shape[0]), d(r.shape[1])), {}),
    ("qr_insert", lambda q, r, d: (q, r, d(r.shape[1]), 2), {}),
    ("qr_insert", lambda q, r, d: (q, r, d(3, r.shape[1]), 1), {}),
    ("qr_insert", lambda q, r, d: (q, r, d(q.shape[0]), 1), {"which": "col"}),
    ("qr_insert", lambda q, r, d: (q, r, d(q.shape[0]), -1), {"which": "col"}),
    ("qr_delete", lambda q, r, d: (q, r, 1), {}),
    ("qr_delete", lambda q, r, d: (q, r, 0, 2), {}),
    ("qr_delete", lambda q, r, d: (q, r, 1), {"which": "col"}),
    ("qr_delete", lambda q, r, d: (q, r, -3, 2), {"which": "col"}),
]
ECONOMIC = [
    ("qr_update", lambda q, r, d: (q, r, d(q.shape[0]), d(r.shape[1])), {}),
    ("qr_update", lambda q, r, d: (q, r, d(q.shape[0], 2), d(r.shape[1], 2)), {}),
    ("qr_insert", lambda q, r, d: (q, r, d(r.shape[1]), 3), {}),
    ("qr_delete", lambda q, r, d: (q, r, 1), {"which": "col"}),
    ("qr_delete", lambda q, r, d: (q, r, 1, 2), {"which": "col"}),
]


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32", "complex64"])
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5)])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_full_factors_match_scipy(dtype, shape, case):
    rng = np.random.default_rng(case)
    name, make, kwargs = CASES[case]
    q, r = sl.qr(_data(rng, dtype, *shape))
    args = make(q, r, lambda *s: _data(rng, dtype, *s))
    _close(getattr(tl, name)(*args, **kwargs), getattr(sl, name)(*args, **kwargs), dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
@pytest.mark.parametrize("case", range(len(ECONOMIC)))
def test_economic_factors_match_scipy(dtype, case):
    rng = np.random.default_rng(100 + case)
    name, make, kwargs = ECONOMIC[case]
    q, r = sl.qr(_data(rng, dtype, 7, 4), mode="economic")
    args = make(q, r, lambda *s: _data(rng, dtype, *s))
    _close(getattr(tl, name)(*args, **kwargs), getattr(sl, name)(*args, **kwargs), dtype)


def test_the_updated_factors_factor_the_updated_matrix():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 4))
    q, r = tl.qr(a)
    u, v = rng.standard_normal(6), rng.standard_normal(4)
    q1, r1 = tl.qr_update(q, r, u, v)
    np.testing.assert_allclose(q1 @ r1, a + np.outer(u, v), atol=1e-12)
    np.testing.assert_allclose(q1.T @ q1, np.eye(6), atol=1e-12)
    q2, r2 = tl.qr_delete(q, r, 2, 2)
    np.testing.assert_allclose(q2 @ r2, np.delete(a, [2, 3], 0), atol=1e-12)


@pytest.mark.parametrize(("name", "args", "kwargs"), [
    ("qr_update", lambda q, r: (q, r, np.ones((6, 2)), np.ones((4, 2))), {}),
    ("qr_insert", lambda q, r: (q[:, :4], r[:4], np.ones((6, 2)), 1), {"which": "col"}),
    ("qr_insert", lambda q, r: (q[:, :4], r[:4], np.ones((2, 4)), 1), {}),
    ("qr_delete", lambda q, r: (q[:, :4], r[:4], 1), {}),
])
def test_paths_not_ported_are_named(name, args, kwargs):
    q, r = sl.qr(np.random.default_rng(0).standard_normal((6, 4)))
    with pytest.raises(UnsupportedParameterError, match=name):
        getattr(tl, name)(*args(q, r), **kwargs)


@pytest.mark.parametrize(("name", "args", "kwargs"), [
    ("qr_delete", lambda q, r: (q, r, 6), {}),
    ("qr_delete", lambda q, r: (q, r, 5, 2), {}),
    ("qr_delete", lambda q, r: (q, r, 1), {"which": "diag"}),
    ("qr_insert", lambda q, r: (q, r, np.ones(4), 1), {"rcond": 1e-3}),
    ("qr_insert", lambda q, r: (q, r, np.ones(6), 1), {}),
    ("qr_insert", lambda q, r: (q, r, np.ones(6), 1), {"which": "col", "rcond": 1e-3}),
    ("qr_insert", lambda q, r: (q, r, np.ones(4, dtype=np.float32), 1), {}),
    ("qr_update", lambda q, r: (q, r, np.ones(5), np.ones(4)), {}),
    ("qr_update", lambda q, r: (q.astype(int), r.astype(int), np.ones(6, int), np.ones(4, int)), {}),
    ("qr_update", lambda q, r: (q, r[:3], np.ones(6), np.ones(4)), {}),
    ("qr_update", lambda q, r: (q, np.where(r == r[0, 0], np.nan, r), np.ones(6), np.ones(4)), {}),
])
def test_scipys_errors(name, args, kwargs):
    q, r = sl.qr(np.random.default_rng(0).standard_normal((6, 4)))
    with pytest.raises(ValueError) as want:
        getattr(sl, name)(*args(q, r), **kwargs)
    with pytest.raises(ValueError) as got:
        getattr(tl, name)(*args(q, r), **kwargs)
    assert str(got.value) == str(want.value) or "infs or NaNs" in str(got.value)
