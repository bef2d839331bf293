"""The error function and the normal distribution (src/ops/special/erf.rs): erf,
erfcx, erfinv, erfcinv, ndtr, log_ndtr; with the scaled Bessel functions
whose large-argument test shares erfcx's.

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, ours, relative_to_mpmath


def test_ndtr_lower_tail():
    import torch

    x = np.array([-8.0, -9.0, -20.0, -30.0, -37.5, -5.0, -1.5, -0.3, 0.3, 3.0, 8.0])
    reference = [mp.ncdf(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.ndtr(x), reference).max() < 4e-16
    # subnormal results keep what their few bits can: ndtr(-38.4) = 6.6e-323 (13.4 units)
    assert abs(tb.special.ndtr(-38.4) - 6.6016e-323) <= 5e-324
    # libtorch's 0.5 (1 + erf(x / sqrt 2)) is 2% off at -8 and 0 from -9 on
    t = torch.special.ndtr(torch.from_numpy(x[:3])).numpy()
    assert abs(t[0] / float(reference[0]) - 1) > 1e-3 and t[1] == 0
    assert tb.special.ndtr(-9.0) == pytest.approx(1.1285884059538408e-19, rel=1e-15)
    # SciPy's rounding of x/sqrt(2) costs it up to 2e-13 in the tail
    x = -19.7656349101983
    assert relative_to_mpmath(sc.ndtr([x]), [mp.ncdf(mpf(x))]).max() > 5e-14
    assert relative_to_mpmath(tb.special.ndtr([x]), [mp.ncdf(mpf(x))]).max() < 4e-16


def test_log_ndtr_against_mpmath():
    x = np.array([-1e5, -1e3, -40.0, -20.0, -5.0, -1.0, -0.5, 0.0, 2.0, 5.0, 20.0, 37.0])
    reference = [mp.log(mp.ncdf(mpf(v))) if v <= 0 else mp.log1p(-mp.ncdf(-mpf(v))) for v in x]
    assert relative_to_mpmath(tb.special.log_ndtr(x), reference).max() < 1e-15
    assert tb.special.log_ndtr(-np.inf) == -np.inf and tb.special.log_ndtr(np.inf) == 0


def test_erfcx_and_scaled_bessels_for_large_arguments():
    x = np.array([-26.0, -5.0, 1e3, 1e5])
    ref = [mp.exp(mpf(v) ** 2) * mp.erfc(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.erfcx(x), ref).max() < 2e-15
    # beyond 1e10, erfcx(x) = (1 - 1/(2 x^2)) / (x sqrt(pi)) to far below an ulp
    huge = np.array([1e10, 1e100, 1e300])
    ref = [1 / (mpf(v) * mp.sqrt(mp.pi)) for v in huge]
    assert relative_to_mpmath(tb.special.erfcx(huge), ref).max() < 2e-16
    big = np.array([1e3, 1e10, 1e100, 1e300])
    for name, f in [("i0e", lambda v: mp.besseli(0, v) * mp.exp(-v)),
                    ("i1e", lambda v: mp.besseli(1, v) * mp.exp(-v)),
                    ("k0e", lambda v: mp.besselk(0, v) * mp.exp(v)),
                    ("k1e", lambda v: mp.besselk(1, v) * mp.exp(v))]:
        assert relative_to_mpmath(ours(name)(big), [f(mpf(v)) for v in big]).max() < 3e-15, name


def test_erfinv_near_one_and_erfcinv_for_tiny_arguments():
    x = 1 - np.array([1e-16, 1e-12, 1e-8, 1e-4])
    x = np.concatenate([x, -x, [0.5, 1e-300]])
    reference = [mp.erfinv(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.erfinv(x), reference).max() < 5e-16
    y = np.array([1e-300, 1e-100, 1e-20, 1e-5, 0.5, 1.5, 2 - 1e-10])
    with mp.workdps(350):
        reference = [mp.erfinv(1 - mp.mpf(float(v))) for v in y]
    assert relative_to_mpmath(tb.special.erfcinv(y), reference).max() < 1e-15
    assert tb.special.erfinv(1.0) == np.inf and tb.special.erfinv(-1.0) == -np.inf
    assert np.isnan(tb.special.erfinv(1.5)) and np.isnan(tb.special.erfcinv(-1e-300))
    assert tb.special.erfcinv(0.0) == np.inf and tb.special.erfcinv(2.0) == -np.inf


def test_ndtr_kernel_and_composite_agree():
    """Float64 CPU input takes csrc/ndtr.cpp's pass; input that requires grad the libtorch
    composite (erf.rs): the same formulas in the same order, the kernel on SLEEF's erfc, the
    composite on libtorch's (MKL's vmdErfc in the PyPI wheel): an ulp apart on 2% of these, two
    just above the subnormals,
    tail and bulk; the kernel's threads (above 16384 elements) change nothing."""
    import torch

    rng = np.random.default_rng(19)
    x = np.concatenate([rng.uniform(-39, 9, 100_000), [-np.inf, np.inf, np.nan, -0.0, 0.0, -1.0, -1e300, 1e300]])
    kernel = tb.special.ndtr(x)
    t = torch.from_numpy(x.copy()).requires_grad_()
    composite = tb.special.ndtr(t).detach().numpy()
    finite = ~np.isnan(composite)
    np.testing.assert_array_equal(np.isnan(kernel), ~finite)
    assert (np.abs(kernel - composite)[finite] <= 2 * np.spacing(composite[finite])).all()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        np.testing.assert_array_equal(tb.special.ndtr(x), kernel)
    finally:
        torch.set_num_threads(threads)
    reversed_view = x[::-1]  # a non-contiguous input goes through the kernel as a copy
    np.testing.assert_array_equal(tb.special.ndtr(reversed_view), kernel[::-1])
    # log_ndtr's kernel (csrc/ndtr.cpp, one pass) takes erfc, log and log1p from the C library, the
    # composite from libtorch's vectorized kernels: the same formulas, a few ulp apart (and subnormal results)
    np.testing.assert_allclose(tb.special.log_ndtr(x), tb.special.log_ndtr(t).detach().numpy(), rtol=1e-15,
                               atol=1e-300)


def test_log_ndtr_far_left_does_not_overflow_x_squared():
    # x^2 overflowed beyond 1.3e154: -inf where SciPy gives -9.8e307
    x = np.array([-1.4e154, -1e150, -1.8e154, -1e10])
    reference = [mp.log(mp.ncdf(mpf(v))) for v in x]
    assert relative_to_mpmath(tb.special.log_ndtr(x), reference).max() < 1e-15
    assert tb.special.log_ndtr(-1.4e154) == pytest.approx(sc.log_ndtr(-1.4e154), rel=1e-15)
    assert tb.special.log_ndtr(-1e155) == sc.log_ndtr(-1e155) == -np.inf
