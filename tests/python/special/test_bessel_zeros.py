"""jnyn_zeros, jn_zeros, jnp_zeros, yn_zeros and ynp_zeros against SciPy (specfun's JYZO) and mpmath."""

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

NAMES = ["jn_zeros", "jnp_zeros", "yn_zeros", "ynp_zeros"]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 20, 50, 100, -4])
@pytest.mark.parametrize("nt", [1, 4, 200])
def test_each_zero_matches_scipy(n, nt):
    ours = tb.special.jnyn_zeros(n, nt)
    theirs = sc.jnyn_zeros(n, nt)
    assert isinstance(ours, tuple) and len(ours) == 4
    for name, got, want in zip(NAMES, ours, theirs):
        assert got.dtype == np.float64 and got.shape == (nt,), name
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, err_msg=name)
        np.testing.assert_array_equal(getattr(tb.special, name)(n, nt), got)


def test_zeros_against_mpmath():
    """Not only SciPy's values: mpmath's besseljzero/besselyzero at 30 digits."""
    with mp.workdps(30):
        _check_zeros_against_mpmath()


def _check_zeros_against_mpmath():
    for n in (0, 1, 5):
        for k in (1, 2, 10):
            for name, derivative, function in [("jn_zeros", 0, mp.besseljzero), ("jnp_zeros", 1, mp.besseljzero),
                                               ("yn_zeros", 0, mp.besselyzero), ("ynp_zeros", 1, mp.besselyzero)]:
                got = getattr(tb.special, name)(n, k)[-1]
                # mpmath counts x = 0 as J0' first zero; SciPy and torchbridge do not
                want = float(function(n, k + (name == "jnp_zeros" and n == 0), derivative=derivative))
                assert got == pytest.approx(want, rel=2e-15, abs=0), (name, n, k)


def test_derivative_zeros_exclude_the_origin():
    # J0' = -J1 vanishes at 0; SciPy's first zero of J0' is J1's first positive zero
    np.testing.assert_allclose(tb.special.jnp_zeros(0, 2), sc.jn_zeros(1, 2), rtol=1e-14)
    assert tb.special.jnp_zeros(3, 1)[0] > 3


def test_zeros_are_increasing_and_interlaced():
    j, jp, y, yp = tb.special.jnyn_zeros(10, 300)
    for zeros in (j, jp, y, yp):
        assert np.all(np.diff(zeros) > 2)
    assert np.all(jp < j) and np.all(j[:-1] < jp[1:])  # j'_k < j_k < j'_(k+1)


@pytest.mark.parametrize("name", ["jnyn_zeros", *NAMES])
@pytest.mark.parametrize(("n", "nt", "message"), [
    (1.5, 2, "Arguments must be integers."),
    (1, 2.5, "Arguments must be integers."),
    (1, 0, "nt > 0"),
    (1, -3, "nt > 0"),
    ([1], 2, "Arguments must be scalars."),
    (1, np.array([2]), "Arguments must be scalars."),
])
def test_bad_arguments_raise_scipys_errors(name, n, nt, message):
    with pytest.raises(ValueError, match=message):
        getattr(sc, name)(n, nt)
    with pytest.raises(ValueError, match=message):
        getattr(tb.special, name)(n, nt)


def test_integral_floats_are_accepted_as_scipy_accepts_them():
    np.testing.assert_allclose(tb.special.jn_zeros(2.0, 3.0), sc.jn_zeros(2.0, 3.0), rtol=1e-14)
