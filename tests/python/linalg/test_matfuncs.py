"""scipy.linalg._matfuncs' expm against SciPy: structures, dtypes, scalars,
and the badly scaled matrices of Al-Mohy & Higham where a plain scaling and
squaring (libtorch's ``matrix_exp``) loses every digit."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg
import torch

from torchbridge import linalg as tl

from .cases import (
    assert_same_structure,
    both,
    close,
)


def test_expm_structures_and_dtypes(rng):
    cases = [np.diag([1.0, -2.0, 30.0]), np.triu(rng.standard_normal((5, 5))) * 3,
             np.tril(rng.standard_normal((5, 5))), rng.standard_normal((6, 6)) * 4,
             rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)), np.zeros((3, 3))]
    for a in cases:
        got, want = both("expm", a)
        assert_same_structure(got, want)
        # SciPy's algorithm (degree, scaling, triangular fix) with another BLAS.
        close(got, want, 1e-13)
    for x in (np.float16(0.5), 2, 1.5, 1 + 2j, [[0.5]], np.array([[2]], dtype=np.int8),
              np.array([[1.0]], dtype=np.float16), np.array([[True]])):
        got, want = both("expm", x)
        assert_same_structure(got, want)
        close(got, want, 1e-3 if np.asarray(want).dtype == np.float16 else 1e-15)
    with pytest.raises(np.linalg.LinAlgError):
        tl.expm(np.ones(3))
    with pytest.raises(np.linalg.LinAlgError):
        tl.expm(np.ones((2, 3)))


def al_mohy_higham_2012_experiment_1():
    """The upper triangular matrix of Al-Mohy & Higham (2012), experiment 1
    (entries from 0.3 to 3e4; SciPy's tests use it for logm/expm)."""
    return np.array([
        [3.2346e-1, 3e4, 3e4, 3e4],
        [0, 3.0089e-1, 3e4, 3e4],
        [0, 0, 3.2210e-1, 3e4],
        [0, 0, 0, 3.0744e-1],
    ])


@pytest.mark.parametrize("transpose", [False, True], ids=["upper", "lower"])
def test_expm_of_logm_returns_the_badly_scaled_triangular_matrix(transpose):
    a = al_mohy_higham_2012_experiment_1()
    a = a.T if transpose else a
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # logm's own error estimate (1e-7)
        log = scipy.linalg.logm(a)
    round_trip = tl.expm(log)
    # logm(A) has entries up to 3e14 whose exponential cancels to 3e4: the
    # error is set by rounding. SciPy's own is 3.7e-7 of max|A| on this input
    # but 4e-7 to 1.4e-5 when the input moves by an ulp; torchbridge's (same
    # algorithm, another BLAS) 1.2e-5. libtorch's matrix_exp: 1.4e7.
    scale = np.abs(a).max()
    assert np.abs(round_trip - a).max() / scale < 3e-5
    assert np.abs(round_trip - scipy.linalg.expm(log)).max() / scale < 3e-5
    assert (np.tril(round_trip, -1) if not transpose else np.triu(round_trip, 1)).tolist() == np.zeros((4, 4)).tolist()
    plain = torch.linalg.matrix_exp(torch.from_numpy(log)).numpy()
    assert np.abs(plain - a).max() / np.abs(a).max() > 1e-3  # the failure this guards against


def test_expm_batches_pick_the_degree_per_matrix(rng):
    # Norms from 1e-3 (degree 3, no squaring) to 60 (degree 13, several squarings), triangular and not.
    mats = [rng.standard_normal((5, 5)) * scale for scale in (1e-3, 0.05, 0.3, 1.0, 3.0, 60.0)]
    mats += [np.triu(rng.standard_normal((5, 5))) * 40, np.diag(rng.standard_normal(5))]
    mats += [np.tril(rng.standard_normal((5, 5))) * 9]
    stack = np.stack(mats)
    got = tl.expm(stack)
    for g, m in zip(got, mats, strict=True):
        np.testing.assert_allclose(g, scipy.linalg.expm(m), rtol=1e-12, atol=1e-300)
    got32 = tl.expm(stack[:4].astype(np.float32))
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, scipy.linalg.expm(stack[:4].astype(np.float32)), rtol=2e-5, atol=1e-30)


def test_expm_of_non_finite_input_is_nan_without_hanging():
    for bad in (np.nan, np.inf):
        a = np.array([[1.0, bad], [0.5, 1.0]])
        assert np.isnan(tl.expm(a)).any()
