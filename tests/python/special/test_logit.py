"""The logistic functions (src/ops/special/logit.rs): expit, log_expit.

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_expit_and_log_expit_for_large_arguments():
    import torch

    x = np.array([-745.0, -700.0, -40.0, 40.0, 700.0])
    reference = [-mp.log1p(mp.exp(-mpf(v))) for v in x]
    assert tb.special.log_expit(745.0) == sc.log_expit(745.0) == -5e-324
    assert relative_to_mpmath(tb.special.log_expit(x), reference).max() < 3e-16
    # libtorch's log_sigmoid flushes its subnormal results to 0
    assert torch.nn.functional.logsigmoid(torch.tensor(745.0, dtype=torch.float64)).item() == 0
    assert tb.special.log_expit(40.0) == pytest.approx(-4.248354255291589e-18, rel=1e-15)
    reference = [1 / (1 + mp.exp(-mpf(v))) for v in x[1:]]  # expit(-745) is subnormal
    assert relative_to_mpmath(tb.special.expit(x[1:]), reference).max() < 3e-16


def test_logit_keeps_its_digits_near_one_half():
    # the quotient form log(p / (1 - p)) lost 4 digits at 0.4999999999999 (rel err 2.8e-4)
    x = np.array([0.3, 0.4, 0.4999999999999, 0.5, 0.5000000000001, 0.6, 0.65, 0.2, 0.9, 1e-300, 0.0, 1.0])
    reference = [mp.log(mpf(v) / (1 - mpf(v))) if 0 < v < 1 else mpf(0) for v in x]
    ours = tb.special.logit(x)
    assert relative_to_mpmath(ours[:10], reference[:10]).max() < 4e-16
    assert ours[3] == 0.0 and ours[10] == -np.inf and ours[11] == np.inf
    assert np.array_equal(ours, sc.logit(x)) or np.allclose(ours, sc.logit(x), rtol=4e-16, atol=0)
    x32 = np.array([0.3, 0.4999, 0.5001, 0.6, 0.2], dtype=np.float32)
    reference = [mp.log(mpf(float(v)) / (1 - mpf(float(v)))) for v in x32]
    ours32 = tb.special.logit(x32)
    assert ours32.dtype == np.float32
    assert relative_to_mpmath(ours32, reference).max() < 2e-7  # was 2e-5


def test_logit_gradient_near_one_half_and_at_the_ends():
    import torch

    x = torch.tensor([1e-12, 0.3, 0.4999999999999, 0.5, 0.65, 0.9], dtype=torch.float64, requires_grad=True)
    tb.special.logit(x).sum().backward()
    expected = 1 / (x.detach() * (1 - x.detach()))
    assert torch.allclose(x.grad, expected, rtol=1e-14, atol=0)


# The one-pass CPU kernel (csrc/logit.cpp) against SciPy: edge values, both
# precisions, layouts, sizes that take threads.

def _logit_edges(dtype):
    f = np.dtype(dtype).type
    edges = [-np.inf, -1.0, -0.0, 0.0, 5e-324, 1e-300, 1e-30, 0.1, 0.3, 0.4999999999999, 0.5, 0.5000000000001,
             0.65, 0.9, 1 - 1e-16, 1.0, 1.5, np.inf, np.nan]
    x = np.array(edges, dtype=dtype)
    # the branch boundaries and their neighbours in this precision
    for b in (f(0.3), f(0.65), f(0.5)):
        x = np.concatenate([x, [np.nextafter(b, f(0)), b, np.nextafter(b, f(1))]]).astype(dtype)
    return x


def _assert_logit_like_scipy(ours, want, rtol):
    assert ours.dtype == want.dtype and ours.shape == want.shape
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(want))
    inf = np.isinf(want)
    np.testing.assert_array_equal(ours[inf], want[inf])
    finite = np.isfinite(want)
    np.testing.assert_allclose(ours[finite], want[finite], rtol=rtol, atol=0)


@pytest.mark.parametrize("dtype, rtol", [(np.float64, 5e-16), (np.float32, 2.5e-7)])
def test_logit_one_pass_edges_and_random(dtype, rtol):
    x = _logit_edges(dtype)
    ours = tb.special.logit(x)
    _assert_logit_like_scipy(ours, sc.logit(x), rtol)
    assert np.signbit(ours[x == 0]).all() and (ours[x == 0] == -np.inf).all()  # -0.0 and 0.0: -inf, as SciPy
    assert ours[x == 0.5][0] == 0.0
    rng = np.random.default_rng(20261207)
    for n in (1, 3, 7, 8, 9, 1000, 2**16 + 3, 300_001):  # vector tails; one thread and several
        x = rng.uniform(-0.05, 1.05, n).astype(dtype)
        _assert_logit_like_scipy(tb.special.logit(x), sc.logit(x), rtol)


def test_logit_one_pass_layouts_and_dtypes():
    rng = np.random.default_rng(7)
    x = rng.uniform(0, 1, (40, 30))
    for view in (x.T, x[::-1], x[:, ::-3], x[::2, 1::2]):
        _assert_logit_like_scipy(tb.special.logit(view), sc.logit(view), 5e-16)
    for empty in (np.empty(0), np.empty((3, 0), dtype=np.float32)):
        out = tb.special.logit(empty)
        assert out.shape == empty.shape and out.dtype == sc.logit(empty).dtype
    ints = np.array([0, 1, 2, -1])
    _assert_logit_like_scipy(tb.special.logit(ints), sc.logit(ints), 5e-16)
    half = np.array([0.25, 0.5, 0.75], dtype=np.float16)
    _assert_logit_like_scipy(tb.special.logit(half), sc.logit(half), 2.5e-7)


def test_logit_one_pass_second_derivative():
    import torch

    x = torch.tensor([1e-6, 0.2, 0.3, 0.45, 0.5, 0.65, 0.8], dtype=torch.float64, requires_grad=True)
    (first,) = torch.autograd.grad(tb.special.logit(x).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), x)
    p = x.detach()
    assert torch.allclose(first.detach(), 1 / (p * (1 - p)), rtol=1e-14, atol=0)
    assert torch.allclose(second, (2 * p - 1) / (p * (1 - p)) ** 2, rtol=1e-13, atol=1e-12)
    x32 = torch.tensor([0.2, 0.5, 0.7], dtype=torch.float32, requires_grad=True)
    out = tb.special.logit(x32)
    assert out.dtype == torch.float32
    out.sum().backward()
    assert torch.allclose(x32.grad, 1 / (x32.detach() * (1 - x32.detach())), rtol=1e-6, atol=0)


# The vectorized kernels (csrc/logit.cpp: one log per element of the quotient x / (1 - x) carried to twice the
# working precision; float32 widened to float64) against SciPy and against mpmath in ulps: the neighbourhoods
# of SciPy's branch boundaries 0.3 and 0.65, of the zero at 1/2, of 0 (subnormals) and of 1.

def _neighbours(b, steps, dtype):
    """b and its `steps` nearest floats of `dtype` on either side (b > 0)."""
    itype = np.int64 if np.dtype(dtype) == np.float64 else np.int32
    return (np.array(b, dtype=dtype).view(itype) + np.arange(-steps, steps + 1, dtype=itype)).view(dtype)


def _ulp_errors(got, x):
    """|got - logit(x)| in ulps (of got's dtype) of the exact value, by mpmath."""
    errors = []
    for g, v in zip(got.tolist(), x.tolist()):
        exact = mp.log(mpf(v) / (1 - mpf(v)))
        if exact == 0:
            errors.append(0.0 if g == 0 else np.inf)
            continue
        ulp = float(np.spacing(got.dtype.type(abs(float(exact)))))
        errors.append(float(abs(mpf(g) - exact) / ulp))
    return np.array(errors)


@pytest.mark.parametrize("dtype, rtol, max_ulp", [(np.float64, 5e-16, 1.5), (np.float32, 2.5e-7, 0.51)])
def test_logit_one_log_kernel_near_its_edges(dtype, rtol, max_ulp):
    f = np.dtype(dtype).type
    info = np.finfo(dtype)
    x = np.concatenate([
        _neighbours(0.5, 300, dtype), _neighbours(0.3, 40, dtype), _neighbours(0.65, 40, dtype),
        info.smallest_subnormal * np.arange(1, 40, dtype=dtype), _neighbours(info.tiny, 20, dtype),
        _neighbours(1e-20, 20, dtype), np.nextafter(f(1), f(0)) - info.epsneg * np.arange(40, dtype=dtype),
        np.random.default_rng(11).uniform(0, 1, 3000).astype(dtype),
    ])
    ours = tb.special.logit(x)
    _assert_logit_like_scipy(ours, sc.logit(x), rtol)
    errors = _ulp_errors(ours, x)
    assert errors.max() <= max_ulp, (x[errors.argmax()], errors.max())
    # the edges exactly, as SciPy: nan outside [0, 1] and for nan, -inf at 0 and -0.0, inf at 1, 0 at 1/2
    edges = np.array([np.nan, -np.inf, -1.0, -info.smallest_subnormal, -0.0, 0.0, 0.5, 1.0, np.nextafter(f(1), f(2)),
                      2.0, np.inf], dtype=dtype)
    ours = tb.special.logit(edges)
    np.testing.assert_array_equal(ours, sc.logit(edges))
    assert np.signbit(ours[4:6]).all() and not np.signbit(ours[6])
