"""comb, perm, bernoulli and euler (SciPy's ``_basic.py``) against SciPy and
exact integer arithmetic."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest
import scipy.special as sc
from conftest import with_device

import torchbridge as tb

from .cases import mp


def test_comb_float_matches_scipy(rng):
    n = rng.integers(-5, 60, 2000)
    k = rng.integers(-5, 60, 2000)
    for repetition in (False, True):
        got = tb.special.comb(n, k, repetition=repetition)
        want = sc.comb(n, k, repetition=repetition)
        assert got.dtype == want.dtype == np.float64
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)
    x = rng.uniform(-10, 50, 2000)
    y = rng.uniform(-10, 50, 2000)
    for repetition in (False, True):
        np.testing.assert_allclose(tb.special.comb(x, y, repetition=repetition),
                                   sc.comb(x, y, repetition=repetition), rtol=1e-13, atol=0)


def test_comb_types_and_edges():
    f32 = np.float32([5, 10, 3.5, -1])
    for repetition in (False, True):
        got = tb.special.comb(f32, f32[::-1], repetition=repetition)
        want = sc.comb(f32, f32[::-1], repetition=repetition)
        assert got.dtype == want.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-6)
        assert tb.special.comb(f32, 2, repetition=repetition).dtype == sc.comb(f32, 2, repetition=repetition).dtype
    for args in [(5, 2), (5.0, 2.5), (-1, 0), (0, 0), (3, 5), (np.nan, 2), (np.inf, 2), (10, -0.0)]:
        for repetition in (False, True):
            got = tb.special.comb(*args, repetition=repetition)
            want = sc.comb(*args, repetition=repetition)
            assert type(got) is type(want), args
            np.testing.assert_allclose(got, want, rtol=1e-14, equal_nan=True)
    empty = np.zeros((0, 3))
    assert tb.special.comb(empty, 1).shape == sc.comb(empty, 1).shape == (0, 3)
    np.testing.assert_array_equal(tb.special.comb([[10], [20]], [1, 2, 3]), sc.comb([[10], [20]], [1, 2, 3]))


def test_comb_exact_is_python_int():
    for n, k in [(10, 3), (100, 50), (1000, 10), (-1, 2), (5, -1), (3, 5), (0, 0), (np.int64(30), 15), (7.0, 3.0)]:
        for repetition in (False, True):
            got = tb.special.comb(n, k, exact=True, repetition=repetition)
            want = sc.comb(n, k, exact=True, repetition=repetition)
            assert type(got) is int and got == want, (n, k, repetition)
    assert tb.special.comb(300, 150, exact=True) == math.comb(300, 150)
    with pytest.raises(ValueError, match="Non-integer"):
        tb.special.comb(5.5, 2, exact=True)


def test_perm_matches_scipy(rng):
    n = rng.integers(-5, 60, 2000)
    k = rng.integers(-5, 60, 2000)
    got, want = tb.special.perm(n, k), sc.perm(n, k)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)
    x, y = rng.uniform(-10, 30, 2000), rng.uniform(-10, 30, 2000)
    np.testing.assert_allclose(tb.special.perm(x, y), sc.perm(x, y), rtol=1e-12, atol=0)
    f32 = np.float32([5, 10, 3.5])
    assert tb.special.perm(f32, f32).dtype == sc.perm(f32, f32).dtype == np.float32
    for args in [(5, 2), (3, 5), (-1, 0), (np.nan, 1), (4.5, 2)]:
        got, want = tb.special.perm(*args), sc.perm(*args)
        assert type(got) is type(want)
        np.testing.assert_allclose(got, want, rtol=1e-14, equal_nan=True)


def test_perm_exact():
    for n, k in [(10, 3), (100, 50), (3, 5), (-1, 0), (np.array([7]), np.array(3)), (6.0, 2)]:
        got, want = tb.special.perm(n, k, exact=True), sc.perm(n, k, exact=True)
        assert type(got) is int and got == want
    with pytest.raises(ValueError, match="scalar integers"):
        tb.special.perm([1, 2], 1, exact=True)
    with pytest.raises(ValueError, match="Non-integer"):
        tb.special.perm(5.5, 2, exact=True)


def test_bernoulli_is_correctly_rounded():
    got = tb.special.bernoulli(300)
    want = sc.bernoulli(300)
    assert got.dtype == want.dtype and got.shape == want.shape
    exact = []
    for i in range(301):
        value = mp.bernoulli(i)
        exact.append(float(value) if abs(value) < mp.mpf("1.7e308") else float(mp.sign(value)) * np.inf)
    np.testing.assert_array_equal(got, exact)
    # SciPy's series is up to 2e-12 off (B(4)); elsewhere the same numbers
    np.testing.assert_allclose(got, want, rtol=2e-12, atol=0)
    for n in (0, 1, 2, 3, np.int64(5)):
        np.testing.assert_array_equal(tb.special.bernoulli(n).shape, sc.bernoulli(n).shape)
    with pytest.raises(ValueError, match="non-negative"):
        tb.special.bernoulli(-1)
    with pytest.raises(ValueError, match="non-negative"):
        tb.special.bernoulli([3])


def test_euler_is_correctly_rounded():
    got = tb.special.euler(200)
    want = sc.euler(200)
    assert got.dtype == want.dtype and got.shape == want.shape
    exact = []
    for i in range(201):
        value = mp.eulernum(i)
        exact.append(float(value) if abs(value) < mp.mpf("1.7e308") else float(mp.sign(value)) * np.inf)
    np.testing.assert_array_equal(got, exact)
    np.testing.assert_allclose(got, want, rtol=2e-14, atol=0)
    assert tb.special.euler(22)[-1] == -69348874393137904.0  # the exact E(22), correctly rounded
    for n in (0, 1, 2, 3):
        assert tb.special.euler(n).shape == sc.euler(n).shape
    with pytest.raises(ValueError, match="non-negative"):
        tb.special.euler(-2)


@pytest.mark.parametrize("name", ["comb", "perm", "bernoulli", "euler"])
def test_signatures_are_scipys(name):
    assert inspect.signature(getattr(tb.special, name)) == with_device(inspect.signature(getattr(sc, name)))


def test_comb_on_torch_tensors():
    torch = pytest.importorskip("torch")
    n = torch.tensor([10.0, 5.0, 3.0])
    got = tb.special.comb(n, torch.tensor([3.0, 6.0, 1.0]))
    assert isinstance(got, torch.Tensor)
    assert got.tolist() == [120.0, 0.0, 3.0]
    assert tb.special.perm(n, 2, device="cpu").tolist() == [90.0, 20.0, 6.0]
