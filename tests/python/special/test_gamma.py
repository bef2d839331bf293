"""The gamma family (src/ops/special/gamma.rs): gamma, loggamma, digamma,
polygamma.

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_polygamma_against_mpmath():
    n = np.array([0, 1, 1, 2, 3, 5, 1, 2, 10])
    x = np.array([1.37, 1.37, 0.01, 2.5, -2.5, 30.0, -1.5, 1e-5, 7.0])
    reference = [mp.polygamma(int(a), mpf(b)) for a, b in zip(n, x)]
    assert relative_to_mpmath(tb.special.polygamma(n, x), reference).max() < 1e-14
    got = tb.special.polygamma(n, x)
    np.testing.assert_allclose(got, sc.polygamma(n, x), rtol=1e-13)
    # libtorch's trigamma is 5e-10 off at 1.37
    import torch

    t = torch.polygamma(1, torch.tensor([1.37], dtype=torch.float64)).item()
    assert abs(t / float(reference[1]) - 1) > 1e-12


def test_gamma_signs_poles_and_exact_factorials():
    x = np.array([-0.5, -1.5, -2.5, -10.3, -100.7, -170.2, 0.1, 5.5, 100.5, 171.5])
    reference = [mp.gamma(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.gamma(x), reference).max() < 2e-15
    np.testing.assert_array_equal(np.sign(tb.special.gamma(x)), np.sign(sc.gamma(x)))
    poles = np.array([0.0, -0.0, -1.0, -2.0, -170.0, -np.inf, np.inf])
    np.testing.assert_array_equal(tb.special.gamma(poles), sc.gamma(poles))
    n = np.arange(1, 24, dtype=np.float64)
    assert [int(v) for v in tb.special.gamma(n)[:22]] == [int(mp.factorial(k - 1)) for k in range(1, 23)]
    np.testing.assert_array_equal(tb.special.gamma(n), sc.gamma(n))
    assert tb.special.gamma(-1e-300) == pytest.approx(-1e300, rel=2e-16)
    assert tb.special.gamma(-5e-324) == -np.inf


def test_loggamma_near_its_zeros():
    x = np.array([1 - 1e-3, 0.9986277579343437, 1 + 1e-8, 2 - 1e-4, 2 + 1e-9])
    reference = [mp.loggamma(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.loggamma(x), reference).max() < 1e-15
    assert relative_to_mpmath(sc.loggamma(x[1:2]), reference[1:2]).max() > 1e-13
    assert np.isnan(tb.special.loggamma(-2.5))  # real loggamma: nan for x < 0, as SciPy


def test_digamma_against_mpmath():
    x = np.array([1.4616321449683622, 1.4616321449, 1.5, 1.2, -0.5040830082644554, -0.45, 1e-300,
                  -1e-10, 0.3, 7.0, 1e15, -3.6352992839079015 + 0.02])
    reference = [mp.digamma(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.digamma(x), reference).max() < 5e-15
    # libtorch's digamma loses everything next to the positive zero
    import torch

    t = torch.digamma(torch.tensor([x[1]], dtype=torch.float64)).item()
    assert abs(t / float(reference[1]) - 1) > 1e-6
    assert tb.special.digamma(0.0) == -np.inf and tb.special.digamma(-0.0) == np.inf
    assert np.isnan(tb.special.digamma(-3.0)) and np.isnan(tb.special.psi(-np.inf))


def test_gammaln_kernel_is_scipys_cephes():
    """Float64 CPU gammaln runs SciPy's Cephes lgam (csrc/gammaln.cpp): SciPy's bits away from the zeros at
    1 and 2 (there, and below 1e-300, the C library's more accurate lgamma), in one thread or several."""
    import torch

    rng = np.random.default_rng(20)
    x = np.concatenate([rng.uniform(-200, 200, 50_000), rng.uniform(0, 15, 50_000), rng.uniform(1e3, 1e12, 1000),
                        -np.arange(1.0, 40.0), [-np.inf, np.inf, np.nan, 0.0, -0.0, 3.0, 13.0, 34.5, -34.5, 1e306]])
    away = (np.abs(x - 1) >= 0.125) & (np.abs(x - 2) >= 0.125)
    got = tb.special.gammaln(x)
    np.testing.assert_array_equal(got[away], sc.gammaln(x[away]))
    near = x[~away]
    np.testing.assert_allclose(got[~away], torch.lgamma(torch.from_numpy(near)).numpy(), rtol=1e-15, atol=1e-16)
    assert tb.special.gammaln(-np.inf) == -np.inf and tb.special.gammaln(5e-324) == -np.log(5e-324)
    # the composite (input that records gradients) agrees to rounding
    t = torch.from_numpy(x.copy()).requires_grad_()
    np.testing.assert_allclose(got, tb.special.gammaln(t).detach().numpy(), rtol=1e-13, atol=1e-11)
    np.testing.assert_array_equal(tb.special.gammaln(x[::-1]), got[::-1])


def test_gammaln_kernel_regimes_and_tails():
    """csrc/gammaln.cpp's vectorized kernel (AVX-512, where the CPU has it) gives SciPy's bits in every regime of
    Cephes' lgam and at its boundaries, at every tail length; the scalar-only cases as the scalar loop."""
    bounds = [-34.5, -34.0, -33.5, -2.5, -1.0, 0.5, 0.875, 1.125, 1.875, 2.125, 2.5, 3.0, 4.0, 12.0, 13.0, 1000.0,
              1e8, 2.556348e305]
    x = np.concatenate([(np.array(b).view(np.int64) + np.arange(-3, 4)).view(np.float64) for b in bounds])
    rng = np.random.default_rng(21)
    x = np.concatenate([x, rng.uniform(-40, 60, 3000), 10 ** rng.uniform(0, 12, 300), -np.arange(0.0, 36.0),
                        [np.nan, np.inf, -np.inf, 1e306, np.finfo(float).max]])
    near = (np.abs(x - 1) < 0.125) | (np.abs(x - 2) < 0.125) | ((np.abs(x) < 1e-300) & (x != 0))
    away = ~near  # nan included
    for n in (1, 2, 7, 8, 9, 15, 17, 255, 256, 257, x.size):
        got = tb.special.gammaln(x[-n:])
        np.testing.assert_array_equal(got[away[-n:]], sc.gammaln(x[-n:][away[-n:]]))
    got = tb.special.gammaln(x)
    poles = np.isfinite(x) & (x <= 0) & (x == np.floor(x))
    assert poles.sum() >= 36 and (got[poles] == np.inf).all()
    import torch

    np.testing.assert_allclose(got[near], torch.lgamma(torch.from_numpy(x[near])).numpy(), rtol=1e-15, atol=1e-16)
