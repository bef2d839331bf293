"""The small-matrix path (float64 CPU matrices up to 64x64, direct LAPACK
calls on host copies, src/ops/linalg/small.rs) against SciPy and against the
tensor path it stands in for (the same routines on float64 torch tensors that
record gradients, or on 65x65 and larger input, take the tensor path)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg as sl
import torch

import torchbridge as tb
from torchbridge import linalg as tl

SIZES = (1, 2, 8, 64)


def _general(n, rng, batch=()):
    return rng.standard_normal(batch + (n, n)) + 0.5 * n * np.eye(n)


def _spd(n, rng, batch=()):
    a = rng.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _close(got, want, rtol=1e-12, atol=1e-12):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("transposed", [False, True])
def test_solve_matches_scipy(n, transposed):
    rng = np.random.default_rng(n)
    a, b = _general(n, rng), rng.standard_normal((n, 3))
    _close(tl.solve(a, b, transposed=transposed), sl.solve(a, b, transposed=transposed), rtol=1e-10)
    _close(tl.solve(a, b[:, 0]), sl.solve(a, b[:, 0]), rtol=1e-10)


def test_solve_batched_and_broadcast():
    rng = np.random.default_rng(1)
    a, b = _general(8, rng, (4,)), rng.standard_normal((4, 8, 2))
    _close(tl.solve(a, b), np.stack([sl.solve(a[i], b[i]) for i in range(4)]), rtol=1e-10)
    # one matrix against a batch of right-hand sides
    _close(tl.solve(a[0], b), np.stack([sl.solve(a[0], b[i]) for i in range(4)]), rtol=1e-10)


def test_solve_warning_as_the_tensor_path():
    # ill-conditioned: the host estimate warns as the tensor path (autograd input) does
    a = np.array([[1.0, 1.0], [1.0, np.nextafter(np.nextafter(1.0, 2.0), 2.0)]])
    b = np.ones(2)
    with warnings.catch_warnings(record=True) as host:
        warnings.simplefilter("always")
        tl.solve(a, b)
    at = torch.tensor(a, requires_grad=True)
    with warnings.catch_warnings(record=True) as tensor:
        warnings.simplefilter("always")
        tl.solve(at, torch.tensor(b))
    assert [type(w.message) for w in host] == [type(w.message) for w in tensor]
    assert any(w.category.__name__ == "LinAlgWarning" for w in host)


@pytest.mark.parametrize("n", [3, 8, 64])
def test_rcond_estimate_equals_the_tensor_path(n):
    rng = np.random.default_rng(n)
    # graded conditioning, the warning threshold crossed by neither path
    a = _general(n, rng) @ np.diag(np.logspace(0, 8, n))
    b = rng.standard_normal(n)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = tl.solve(a, b)
        xt = tl.solve(torch.tensor(a, requires_grad=True), torch.tensor(b)).detach().numpy()
    _close(x, xt, rtol=1e-9)


def test_singular_and_nonfinite():
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        tl.solve(np.zeros((3, 3)), np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        tl.inv(np.ones((4, 4)))
    bad = np.eye(3)
    bad[1, 1] = np.nan
    for fn, args in ((tl.solve, (bad, np.ones(3))), (tl.inv, (bad,)), (tl.det, (bad,)), (tl.cholesky, (bad,)),
                     (tl.lu_factor, (bad,)), (tl.svd, (bad,))):
        with pytest.raises(ValueError, match="infs or NaNs"):
            fn(*args)
    assert np.isnan(tl.det(bad, check_finite=False))
    assert tl.det(np.zeros((3, 3))) == 0.0


@pytest.mark.parametrize("n", SIZES)
def test_det_inv(n):
    rng = np.random.default_rng(n + 10)
    a = _general(n, rng)
    _close(tl.det(a), sl.det(a), rtol=1e-12)
    _close(tl.inv(a), sl.inv(a), rtol=1e-10, atol=1e-13)
    batch = _general(n, rng, (3,))
    _close(tl.det(batch), [sl.det(m) for m in batch], rtol=1e-12)
    _close(tl.inv(batch), [sl.inv(m) for m in batch], rtol=1e-10, atol=1e-13)
    # an odd permutation flips the sign
    p = np.eye(n)[::-1]
    _close(tl.det(p), sl.det(p))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_family(n, lower):
    rng = np.random.default_rng(n + 20)
    a = _spd(n, rng)
    _close(tl.cholesky(a, lower=lower), sl.cholesky(a, lower=lower), rtol=1e-12)
    c, low = tl.cho_factor(a, lower=lower)
    cs, _ = sl.cho_factor(a, lower=lower)
    assert low == lower
    _close(c, cs, rtol=1e-12)  # the other triangle is a's own, as SciPy's
    b = rng.standard_normal((n, 2))
    _close(tl.cho_solve((c, lower), b), sl.cho_solve((cs, lower), b), rtol=1e-10)
    _close(tl.cho_solve((c, lower), b[:, 0]), sl.cho_solve((cs, lower), b[:, 0]), rtol=1e-10)


def test_cholesky_not_positive_definite():
    a = np.diag([1.0, 2.0, -1.0, 4.0])
    with pytest.raises(np.linalg.LinAlgError, match="3-th leading minor"):
        tl.cholesky(a)
    with pytest.raises(np.linalg.LinAlgError, match="2-th leading minor"):
        tl.cholesky(np.stack([a, np.diag([1.0, -1.0, 1.0, 1.0])]))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("trans", [0, 1, 2])
def test_lu_factor_solve(n, trans):
    rng = np.random.default_rng(n + 30)
    a = _general(n, rng)
    lu, piv = tl.lu_factor(a)
    lus, pivs = sl.lu_factor(a)
    _close(lu, lus, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(piv), pivs)
    b = rng.standard_normal((n, 2))
    _close(tl.lu_solve((lu, piv), b, trans=trans), sl.lu_solve((lus, pivs), b, trans=trans), rtol=1e-10)
    _close(tl.lu_solve((lus, pivs), b[:, 0], trans=trans), sl.lu_solve((lus, pivs), b[:, 0], trans=trans),
           rtol=1e-10)


def test_lu_factor_singular_warns_as_scipy():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        lu, piv = tl.lu_factor(a)
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        lus, pivs = sl.lu_factor(a)
    assert [w.category.__name__ for w in got] == [w.category.__name__ for w in want]
    _close(lu, lus)


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (8, 8), (64, 64), (5, 3), (3, 5), (4, 8, 8)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(shape, full):
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    u, s, vh = tl.svd(a, full_matrices=full)
    us, ss, vhs = sl.svd(a, full_matrices=full)
    _close(s, ss, rtol=1e-12, atol=1e-13)
    assert np.shape(u) == us.shape and np.shape(vh) == vhs.shape
    k = min(shape[-2:])
    recon = (np.asarray(u)[..., :, :k] * np.asarray(s)[..., None, :]) @ np.asarray(vh)[..., :k, :]
    _close(recon, a, atol=1e-12)
    _close(tl.svd(a, compute_uv=False), ss, rtol=1e-12, atol=1e-13)


def test_svd_nonfinite_unchecked_is_the_tensor_paths_error():
    a = np.eye(3)
    a[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        tl.svd(a, check_finite=False)


def test_autograd_input_keeps_the_graph():
    a = torch.tensor(_general(4, np.random.default_rng(3)), requires_grad=True)
    b = torch.ones(4, dtype=torch.float64)
    for out in (tl.solve(a, b), tl.inv(a), tl.det(a)):
        assert out.requires_grad
    assert tl.cholesky(a @ a.T + 4 * torch.eye(4, dtype=torch.float64)).requires_grad


def test_float32_and_large_take_the_tensor_path():
    rng = np.random.default_rng(4)
    a32 = _general(8, rng).astype(np.float32)
    assert np.asarray(tl.inv(a32)).dtype == np.float32
    a = _general(65, rng)
    _close(tl.solve(a, np.ones(65)), sl.solve(a, np.ones(65)), rtol=1e-9)
    assert tb is not None


def _garbage_other_triangle(a, lower, rng):
    """``a`` with its unread triangle (upper for ``lower``, else lower) replaced by noise."""
    noise = rng.standard_normal(a.shape) * 1e3
    keep = np.tril(np.ones(a.shape[-2:], bool)) if lower else np.triu(np.ones(a.shape[-2:], bool))
    return np.where(keep, a, noise)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_reads_only_the_requested_triangle(n, lower):
    # the host path factors the row-major copy as LAPACK's other triangle
    rng = np.random.default_rng(n + 40)
    a = _garbage_other_triangle(_spd(n, rng), lower, rng)
    _close(tl.cholesky(a, lower=lower), sl.cholesky(a, lower=lower), rtol=1e-12)
    c, _ = tl.cho_factor(a, lower=lower)
    cs, _ = sl.cho_factor(a, lower=lower)
    _close(c, cs, rtol=1e-12)  # the garbage kept, as SciPy keeps it
    c = _garbage_other_triangle(np.asarray(c), lower, rng)
    b = rng.standard_normal((n, 3))
    _close(tl.cho_solve((c, lower), b), sl.cho_solve((cs, lower), b), rtol=1e-10)
    batch = _garbage_other_triangle(_spd(n, rng, (3,)), lower, rng)
    _close(tl.cholesky(batch, lower=lower), [sl.cholesky(m, lower=lower) for m in batch], rtol=1e-12)


@pytest.mark.parametrize("n", SIZES)
def test_batched_against_numpy(n):
    rng = np.random.default_rng(n + 50)
    a, b = _general(n, rng, (2, 3)), rng.standard_normal((2, 3, n, 4))
    _close(tl.det(a), np.linalg.det(a), rtol=1e-11)
    _close(tl.inv(a), np.linalg.inv(a), rtol=1e-10, atol=1e-13)
    _close(tl.solve(a, b), np.linalg.solve(a, b), rtol=1e-10, atol=1e-13)
    at = np.swapaxes(a, -1, -2)
    _close(tl.solve(a, b, transposed=True), np.linalg.solve(at, b), rtol=1e-10, atol=1e-13)
    # one right-hand side broadcast to every matrix, one matrix to every right-hand side
    _close(tl.solve(a, b[0, 0, :, 0]), np.linalg.solve(a, b[0, 0, :, :1])[..., 0], rtol=1e-10, atol=1e-13)
    _close(tl.solve(a[0, 0], b), np.linalg.solve(a[0, 0], b), rtol=1e-10, atol=1e-13)
    lu, piv = tl.lu_factor(a)
    for i in range(2):
        for j in range(3):
            lus, pivs = sl.lu_factor(a[i, j])
            _close(np.asarray(lu)[i][j], lus, rtol=1e-12)
            np.testing.assert_array_equal(np.asarray(piv)[i][j], pivs)


def test_non_contiguous_input():
    # a transposed view: the host copy is of the matrix, not of its memory
    rng = np.random.default_rng(60)
    a = _general(8, rng).T
    b = rng.standard_normal((8, 2))
    _close(tl.det(a), sl.det(a), rtol=1e-12)
    _close(tl.inv(a), sl.inv(a), rtol=1e-10, atol=1e-13)
    _close(tl.solve(a, b), sl.solve(a, b), rtol=1e-10)
    s = _spd(8, rng).T
    _close(tl.cholesky(s), sl.cholesky(s), rtol=1e-12)
    lu, piv = tl.lu_factor(a)
    lus, pivs = sl.lu_factor(a)
    _close(lu, lus, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(piv), pivs)
    # the factors in either memory order (SciPy's and ours are column-major)
    for factors in (lus, np.ascontiguousarray(lus), np.asarray(lu)):
        _close(tl.lu_solve((factors, pivs), b), sl.lu_solve((lus, pivs), b), rtol=1e-10)
        _close(tl.lu_solve((factors, pivs), b, trans=1), sl.lu_solve((lus, pivs), b, trans=1), rtol=1e-10)
