"""cossin against SciPy 1.17: the defining properties (X = U CS VDH, U and VDH block-diagonal unitary, CS's
layout), SciPy's angles, the separate/swap_sign/compute_u/compute_vh forms, the block-input form, dtypes,
batches and SciPy's errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import to_numpy
from scipy.stats import ortho_group, unitary_group

from torchbridge import linalg as tl

SHAPES = [(2, 1, 1), (4, 2, 2), (5, 2, 3), (5, 3, 2), (6, 1, 5), (6, 5, 1), (7, 1, 1), (7, 6, 6), (8, 3, 5),
          (8, 6, 2), (9, 4, 4), (10, 7, 3)]


def _unitary(m, complex_, seed):
    return (unitary_group if complex_ else ortho_group).rvs(m, random_state=seed)


def _check(got, want, x, p, q, tol=1e-12, swap_sign=False):
    u, cs, vdh = (to_numpy(t) for t in got)
    uw, csw, vdhw = want
    assert (u.dtype, cs.dtype, vdh.dtype) == (uw.dtype, csw.dtype, vdhw.dtype)
    assert u.shape == uw.shape and cs.shape == csw.shape and vdh.shape == vdhw.shape
    m = x.shape[-1]
    np.testing.assert_allclose(u @ cs @ vdh, x, atol=tol * m, rtol=0)
    for f, k in ((u, p), (vdh, q)):
        np.testing.assert_allclose(np.conj(f.T) @ f, np.eye(m), atol=tol * m, rtol=0)
        assert not f[:k, k:].any() and not f[k:, :k].any()  # block diagonal
    # CS: SciPy's layout, the cosines and sines of SciPy's angles
    np.testing.assert_allclose(cs, csw, atol=1e-9 if tol < 1e-8 else 1e-3, rtol=0)


@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("m,p,q", SHAPES)
def test_cossin_matches_scipy(m, p, q, complex_):
    x = _unitary(m, complex_, 10 * m + p + q)
    for swap_sign in (False, True):
        got, want = tl.cossin(x, p=p, q=q, swap_sign=swap_sign), sl.cossin(x, p=p, q=q, swap_sign=swap_sign)
        _check(got, want, x, p, q, swap_sign=swap_sign)
    (u1, u2), theta, (v1h, v2h) = tl.cossin(x, p=p, q=q, separate=True)
    (u1w, u2w), thetaw, (v1hw, v2hw) = sl.cossin(x, p=p, q=q, separate=True)
    assert [np.asarray(t).shape for t in (u1, u2, theta, v1h, v2h)] == [t.shape for t in (u1w, u2w, thetaw, v1hw,
                                                                                           v2hw)]
    theta = to_numpy(theta)
    assert theta.dtype == thetaw.dtype
    assert (np.diff(theta) >= 0).all() and (theta >= 0).all() and (theta <= np.pi / 2).all()
    np.testing.assert_allclose(theta, thetaw, atol=1e-10, rtol=0)
    # the block-input form
    blocks = (x[:p, :q], x[:p, q:], x[p:, :q], x[p:, q:])
    _check(tl.cossin(blocks), sl.cossin(blocks), x, p, q)


def test_cossin_structured():
    split = sl.block_diag(ortho_group.rvs(3, random_state=1), ortho_group.rvs(4, random_state=2))
    for x, p, q in [(np.eye(4), 2, 2), (np.eye(6), 2, 4), (np.eye(5)[::-1], 2, 3),
                    (np.eye(6)[[1, 0, 3, 2, 5, 4]], 3, 3), (split, 3, 3), (split, 3, 4)]:
        _check(tl.cossin(x, p=p, q=q), sl.cossin(x, p=p, q=q), x, p, q)
        np.testing.assert_allclose(to_numpy(tl.cossin(x, p=p, q=q, separate=True)[1]),
                                   sl.cossin(x, p=p, q=q, separate=True)[1], atol=1e-10)
    # tiny angles (cosines at 1 - 5e-19 and 1 - 5e-13), a moderate one
    theta = np.array([1e-9, 1e-6, 0.3])
    c, s = np.diag(np.cos(theta)), np.diag(np.sin(theta))
    blocks = [ortho_group.rvs(3, random_state=k) for k in range(4)]
    x = sl.block_diag(*blocks[:2]) @ np.block([[c, -s], [s, c]]) @ sl.block_diag(*blocks[2:])
    _check(tl.cossin(x, p=3, q=3), sl.cossin(x, p=3, q=3), x, 3, 3)
    np.testing.assert_allclose(to_numpy(tl.cossin(x, p=3, q=3, separate=True)[1]), theta, atol=1e-13, rtol=0)


def test_cossin_dtypes_options_batches():
    x = ortho_group.rvs(5, random_state=7)
    for dtype in (np.float32, np.float64):
        got, want = tl.cossin(x.astype(dtype), p=2, q=3), sl.cossin(x.astype(dtype), p=2, q=3)
        _check(got, want, x, 2, 3, tol=2e-6 if dtype == np.float32 else 1e-12)
    z = unitary_group.rvs(4, random_state=1)
    got, want = tl.cossin(z.astype(np.complex64), p=2, q=1), sl.cossin(z.astype(np.complex64), p=2, q=1)
    _check(got, want, z, 2, 1, tol=2e-6)
    for dtype in (np.int64, np.int8, np.bool_, np.float16):
        perm = np.eye(5)[[2, 0, 4, 1, 3]].astype(dtype)
        got, want = tl.cossin(perm, p=2, q=2), sl.cossin(perm, p=2, q=2)
        assert [to_numpy(t).dtype for t in got] == [t.dtype for t in want], dtype
        _check(got, want, perm.astype(np.float64), 2, 2, tol=2e-6)
    for kw in ({"compute_u": False}, {"compute_vh": False}, {"compute_u": False, "compute_vh": False}):
        got, want = tl.cossin(x, p=2, q=3, **kw), sl.cossin(x, p=2, q=3, **kw)
        assert [np.shape(t) for t in got] == [t.shape for t in want]
        assert [to_numpy(t).dtype for t in got] == [t.dtype for t in want]
        got, want = tl.cossin(x, p=2, q=3, separate=True, **kw), sl.cossin(x, p=2, q=3, separate=True, **kw)
        assert [np.shape(t) for t in got[0] + got[2]] == [t.shape for t in want[0] + want[2]]
    # p or q alone (the other 1), as SciPy's `if p or q`
    _check(tl.cossin(x, p=3), sl.cossin(x, p=3), x, 3, 1)
    _check(tl.cossin(x, q=2), sl.cossin(x, q=2), x, 1, 2)
    batch = np.stack([ortho_group.rvs(5, random_state=s) for s in range(3)])
    got, want = tl.cossin(batch, p=2, q=3), sl.cossin(batch, p=2, q=3)
    assert isinstance(got, list) and isinstance(want, list)
    for i in range(3):
        _check([to_numpy(t)[i] for t in got], [t[i] for t in want], batch[i], 2, 3)


def test_cossin_errors():
    cases = [
        ((np.eye(4),), {"p": 0, "q": 1}),
        ((np.eye(4),), {"p": 4, "q": 1}),
        ((np.eye(4),), {"p": 1, "q": 5}),
        ((np.ones((3, 4)),), {"p": 1, "q": 1}),
        ((np.eye(4),), {}),
        (([np.eye(2)] * 3,), {}),
        (((np.eye(2), np.eye(2), np.eye(3), np.eye(2)),), {}),
        (((np.eye(2), np.ones((2, 3)), np.eye(2), np.eye(2)),), {}),
        (((np.ones((2, 0)), np.eye(2), np.eye(2), np.eye(2)),), {}),
        ((np.array([[np.nan, 1], [1, 1.0]]),), {"p": 1, "q": 1}),
        ((3.0,), {}),
    ]
    for args, kwargs in cases:
        with pytest.raises(ValueError) as theirs:
            sl.cossin(*args, **kwargs)
        with pytest.raises(ValueError) as ours:
            tl.cossin(*args, **kwargs)
        assert str(ours.value) == str(theirs.value), (args, kwargs)
