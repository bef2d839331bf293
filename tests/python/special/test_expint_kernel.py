"""The scalar CPU kernels of exp1, expi and expn (csrc/cephes_misc.cpp, used by
src/ops/special/expint.rs on CPU input that records no gradient) against the
composites they replace (still run under autograd, here reached through a
tensor that requires grad) and against SciPy at the edges."""

from __future__ import annotations

import time

import numpy as np
import pytest
import scipy.special as sc
import torch

import torchbridge as tb


def _grid(rng):
    return np.concatenate([
        rng.uniform(0, 3, 500),
        10.0 ** rng.uniform(-320, 2.86, 500),
        rng.uniform(0.3725 - 0.07, 0.3725 + 0.07, 200),  # Ei's zero
        rng.uniform(35, 45, 200),  # Ei's switch to the asymptotic series
        [0.0, 1.0, 2.0, 6.0, 40.0, 1e4, 5e-324, 709.8, 716.0, 717.0, 746.0, 747.0],
    ])


def _composite(f, *args):
    """`f` through the composite: one argument requires grad."""
    tensors = [torch.as_tensor(a, dtype=torch.float64) for a in args]
    tensors[-1] = tensors[-1].clone().requires_grad_(True)
    return f(*tensors).detach().numpy()


def _close(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(all="ignore"):
        err = np.where(same, 0.0, np.abs(got - want) / np.abs(want))
    return err.max()


@pytest.mark.parametrize("name", ["exp1", "expi"])
def test_kernel_matches_composite(rng, name):
    f = getattr(tb.special, name)
    x = _grid(rng)
    if name == "expi":
        x = np.concatenate([x, -x, -(10.0 ** rng.uniform(-5, 2.9, 300))])
    got = f(x)
    assert _close(got, _composite(f, x)) < 2e-15


def test_expn_kernel_matches_composite(rng):
    x = np.concatenate([_grid(rng), [1e300]])
    n = rng.integers(0, 130, x.size).astype(np.float64)
    n[:20] = [0, 1, 2, 50, 51, 2.9, 1e10, -1, 2**31, 2**31 - 1, np.nan, 1e300, -(2.0**62), np.inf, 3, 3, 3, 1, 0, 51]
    got = tb.special.expn(n, x)
    # the series below x = 1 differs by a few ulps: its psi(n) and (n-1)! are
    # exact sums and products here (the kernel is the closer to mpmath there)
    assert _close(got, _composite(tb.special.expn, n, x)) < 5e-15


def test_edges_against_scipy():
    x = np.array([0.0, -0.0, -1.0, -1e-300, -np.inf, np.inf, np.nan, 5e-324, 1e-300, 1.0, 700.0, 1e300])
    for name in ("exp1", "expi"):
        got = getattr(tb.special, name)(x)
        want = getattr(sc, name)(x)
        finite = ~np.isnan(want)
        np.testing.assert_array_equal(np.signbit(got[finite]), np.signbit(want[finite]))
        np.testing.assert_allclose(got, want, rtol=3e-15, err_msg=name)
    # exp1 of a negative real is nan in SciPy's real loop, Ei(-x) = -E1(x)
    assert np.isnan(tb.special.exp1(-2.0))
    assert tb.special.expi(-2.0) == -sc.exp1(2.0)
    np.testing.assert_allclose(tb.special.expn(1, x[:10]), sc.expn(1, x[:10]), rtol=3e-15)
    np.testing.assert_allclose(tb.special.expn(60, x[:10]), sc.expn(60, x[:10]), rtol=3e-15)


def test_shapes_and_dtypes(rng):
    x = rng.uniform(0.01, 50, (40, 30))
    for name in ("exp1", "expi"):
        f = getattr(tb.special, name)
        assert f(np.empty(0)).shape == (0,) and f(np.empty((0, 3), np.float32)).dtype == np.float32
        full = f(x)
        np.testing.assert_array_equal(f(x[::3, ::-2]), full[::3, ::-2])  # non-contiguous
        np.testing.assert_array_equal(f(x.T), full.T)
        t = torch.from_numpy(x).T  # a non-contiguous torch tensor
        np.testing.assert_array_equal(f(t).numpy(), full.T)
        np.testing.assert_array_equal(f(np.float64(3.0)), f(np.array([3.0]))[0])
        x32 = x.astype(np.float32)
        got32 = f(x32)
        assert got32.dtype == np.float32
        # float32 computed in double and rounded once
        np.testing.assert_array_equal(got32, f(x32.astype(np.float64)).astype(np.float32))
        np.testing.assert_allclose(got32, getattr(sc, name)(x32), rtol=2e-7)
    n = np.arange(6)[:, None]
    got = tb.special.expn(n, x[0])  # broadcast
    np.testing.assert_allclose(got, sc.expn(n, x[0]), rtol=1e-14)
    assert tb.special.expn(np.float32(2), np.float32(1.5)).dtype == np.float32


def test_large_threaded_equals_small():
    x = np.linspace(-50, 800, 200_001)
    for name in ("exp1", "expi"):
        f = getattr(tb.special, name)
        whole = f(x)
        pieces = np.concatenate([f(x[i : i + 1000]) for i in range(0, x.size, 1000)])
        np.testing.assert_array_equal(whole, pieces)


def test_huge_parameters_fast():
    bad = np.array([1e300, -(2.0**62), np.inf, -np.inf, np.nan, 5e-324, 1e-300] * 1000)
    start = time.perf_counter()
    for f in (tb.special.exp1, tb.special.expi):
        assert f(bad).shape == bad.shape
    assert tb.special.expn(bad, bad[::-1]).shape == bad.shape
    assert tb.special.expn(bad, 1.5).shape == bad.shape
    assert time.perf_counter() - start < 5.0


def test_autograd_keeps_the_composite():
    x = torch.tensor([0.5, 1.5, 3.0, 45.0], dtype=torch.float64, requires_grad=True)
    tb.special.exp1(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), -np.exp(-x.detach().numpy()) / x.detach().numpy(), rtol=1e-13)
    x.grad = None
    tb.special.expi(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp(x.detach().numpy()) / x.detach().numpy(), rtol=1e-13)
    with torch.no_grad():
        assert tb.special.exp1(x).grad_fn is None
