"""scipy.linalg._basic's routines as compiled builtins: options parsed in
Rust with SciPy's exceptions, ``device=``, SciPy's lists for batches and
tuples otherwise, its result types (Python ints, numpy scalars)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import scipy.linalg as sl
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from torchbridge import linalg as tl
from torchbridge.linalg import _basic

from . import cases
from .cases import (
    assert_same_structure,
    both,
    check_eigh,
    close,
    close_all,
    general,
    hpd,
    rect,
)

RNG = np.random.default_rng(20261202)
N = 4


def _general(batch=()):
    return RNG.standard_normal(batch + (N, N)) + 2 * N * np.eye(N)


def _hpd(batch=()):
    x = RNG.standard_normal(batch + (N, N))
    return x @ np.swapaxes(x, -1, -2) + 2 * N * np.eye(N)


def _band():
    return np.vstack([np.full(N, 0.5), np.full(N, 4.0), np.full(N, -0.3)])


def _cases():
    a, b = _general(), RNG.standard_normal(N)
    c = RNG.standard_normal(N)
    c[0] += 9
    return {
        "solve": ((a, b), {}),
        "solve_triangular": ((np.triu(a), b), {"trans": "T"}),
        "inv": ((a,), {"assume_a": "gen"}),
        "det": ((a,), {}),
        "lstsq": ((RNG.standard_normal((6, N)), RNG.standard_normal(6)), {}),
        "pinv": ((RNG.standard_normal((6, N)),), {"return_rank": True}),
        "pinvh": ((_hpd(),), {"return_rank": True}),
        "solve_banded": (((1, 1), _band(), b), {}),
        "solveh_banded": ((_band()[:2], b), {}),
        "solve_toeplitz": (((c, c[::-1]), b), {}),
        "matmul_toeplitz": (((c, c[::-1]), b), {}),
        "solve_circulant": ((c, b), {}),
        "matrix_balance": ((a * np.array([1, 100, 1e-2, 1]),), {"separate": True}),
    }


CASES = _cases()


def _flat(result):
    if isinstance(result, (tuple, list)):
        return [x for r in result for x in _flat(r)]
    return [result]


def test_every_routine_is_a_compiled_builtin_behind_its_public_face():
    assert set(CASES) == set(_basic.__all__)
    for name in _basic.__all__:
        routine = getattr(tl, name)
        assert inspect.isbuiltin(routine.__wrapped__) and routine.__wrapped__ is getattr(_basic, name), name
        assert routine.__doc__ and "scipy.linalg." + name in routine.__doc__, name


@pytest.mark.parametrize("device", ["cpu", torch.device("cpu"), None])
@pytest.mark.parametrize("name", sorted(CASES))
def test_device_cpu_computes_the_same(name, device):
    args, kwargs = CASES[name]
    want = getattr(sl, name)(*args, **kwargs)
    got = getattr(tl, name)(*args, **kwargs, device=device)
    assert type(got) is type(want)
    for g, w in zip(_flat(got), _flat(want)):
        assert type(g) is type(w), name
        np.testing.assert_allclose(g, w, rtol=1e-10)


@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_input_on_device_cpu_returns_torch(name):
    args, kwargs = CASES[name]
    moved = tuple(torch.from_numpy(x.copy()) if isinstance(x, np.ndarray) else
                  tuple(torch.from_numpy(y.copy()) for y in x) if isinstance(x, tuple) and name != "solve_banded"
                  else x for x in args)
    got = getattr(tl, name)(*moved, **kwargs, device="cpu")
    first = _flat(got)[0]
    assert isinstance(first, torch.Tensor)


def test_ill_conditioned_warns_under_device_too():
    h = sl.hilbert(12)
    for call in (lambda: tl.solve(h, np.ones(12), device="cpu"), lambda: tl.inv(h, device="cpu")):
        with pytest.warns(tl.LinAlgWarning, match=r"An ill-conditioned matrix detected: rcond = [0-9.e-]+: result"):
            call()


# ---------------------------------------------------------------------------
# option errors: SciPy's classes and messages
# ---------------------------------------------------------------------------


def _same_error(call, exc_type):
    with pytest.raises(exc_type) as want:
        call(sl)
    with pytest.raises(exc_type) as got:
        call(tl)
    assert str(got.value) == str(want.value)
    return got.value


@pytest.mark.parametrize("call,exc_type", [
    (lambda m: m.solve(np.eye(3), np.ones(3), assume_a="unknown"), ValueError),
    (lambda m: m.inv(np.eye(3), assume_a="symmetric"), KeyError),
    (lambda m: m.inv(np.eye(3), assume_a="tridiagonal"), KeyError),
    (lambda m: m.inv(np.eye(3), assume_a=5), KeyError),
    (lambda m: m.lstsq(np.eye(3), np.ones(3), lapack_driver="gels"), ValueError),
    (lambda m: m.lstsq(np.eye(3), np.ones(3), lapack_driver=5), ValueError),
    (lambda m: m.lstsq(np.ones(3), np.ones(3)), ValueError),
    (lambda m: m.pinv(np.eye(3), atol=-1), ValueError),
    (lambda m: m.pinv(np.eye(3), rtol=-1e-3), ValueError),
    (lambda m: m.pinvh(np.eye(3), atol=-1), ValueError),
    (lambda m: m.solve_banded((1,), np.ones((3, 3)), np.ones(3)), ValueError),
    (lambda m: m.solve_banded((1, 1, 1), np.ones((3, 3)), np.ones(3)), ValueError),
    (lambda m: m.solve_banded(1, np.ones((3, 3)), np.ones(3)), TypeError),
    (lambda m: m.solve_toeplitz((np.ones(3),), np.ones(3)), ValueError),
    (lambda m: m.solve_toeplitz((np.ones(3), np.ones(3), np.ones(3)), np.ones(3)), ValueError),
    (lambda m: m.matmul_toeplitz((np.ones(3),), np.ones(3)), ValueError),
    (lambda m: m.matrix_balance(np.ones((2, 3))), ValueError),
    (lambda m: m.solve_circulant(np.ones(4), np.ones(4)), np.linalg.LinAlgError),
])
def test_option_errors_like_scipy(call, exc_type):
    _same_error(call, exc_type)


def test_inv_unhashable_assume_a_is_a_typeerror_like_scipy():
    for module in (sl, tl):
        with pytest.raises(TypeError):
            module.inv(np.eye(2), assume_a=["gen"])


@pytest.mark.parametrize("trans,code", [(0, 0), (1, 1), (2, 2), ("N", 0), ("T", 1), ("C", 2), (True, 1),
                                        (False, 0), (np.int64(2), 2), (1.0, 1), (np.str_("C"), 2)])
def test_solve_triangular_trans_values(trans, code):
    a = np.triu(_general()) + 1j * np.triu(_general())
    b = RNG.standard_normal((N, 2))
    want = sl.solve_triangular(a, b, trans=code)
    np.testing.assert_allclose(tl.solve_triangular(a, b, trans=trans), want, rtol=1e-12)
    np.testing.assert_allclose(tl.solve_triangular(a, b, trans=trans, device="cpu"), want, rtol=1e-12)


@pytest.mark.parametrize("trans", ["X", 3, -1, 1.5, None, [0]])
def test_solve_triangular_bad_trans(trans):
    with pytest.raises(ValueError, match=r"trans must be one of 0, 1, 2, 'N', 'T', 'C'; got " + repr(trans)
                       .replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        tl.solve_triangular(np.eye(2), np.ones(2), trans=trans)


def test_signature_defaults_shown_as_scipy():
    assert inspect.signature(tl.solve_triangular).parameters["trans"].default == 0
    assert inspect.signature(tl.solve_circulant).parameters["singular"].default == "raise"


@pytest.mark.parametrize("singular", ["raise", "lstsq", "other", None, 0])
def test_solve_circulant_singular_read_as_scipy(singular):
    # SciPy tests `singular == 'raise'`: every other value means least squares.
    c, b = np.array([1.0, 1, 1, 1]), np.arange(4.0)
    if singular == "raise":
        _same_error(lambda m: m.solve_circulant(c, b, singular=singular), np.linalg.LinAlgError)
        return
    np.testing.assert_allclose(tl.solve_circulant(c, b, singular=singular),
                               sl.solve_circulant(c, b, singular=singular), rtol=1e-12)


def test_solve_banded_l_and_u_any_pair():
    ab, b = _band(), RNG.standard_normal(N)
    want = sl.solve_banded((1, 1), ab, b)
    for l_and_u in ([1, 1], np.array([1, 1]), (np.int64(1), 1), iter((1, 1))):
        np.testing.assert_allclose(tl.solve_banded(l_and_u, ab, b), want, rtol=1e-12)
    with pytest.raises(TypeError):
        tl.solve_banded((1.0, 1), ab, b)


def test_matrix_balance_of_a_stack_is_scipys():
    """SciPy 1.17 balances a stack matrix by matrix (a list back; with separate=True one float64
    (..., 2, n) array of the scalings and permutations)."""
    a = np.random.default_rng(4).standard_normal((2, 3, 4, 4)) * np.array([1, 100, 1e-2, 1e3])
    for kwargs in ({}, {"separate": True}, {"permute": False, "scale": True, "separate": True}):
        got, want = tl.matrix_balance(a, **kwargs, device="cpu"), sl.matrix_balance(a, **kwargs)
        assert type(got) is type(want) is list
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-12)


# ---------------------------------------------------------------------------
# result containers and types: lists for batches, tuples and Python ints otherwise
# ---------------------------------------------------------------------------


def _same_types(got, want):
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same_types(g, w)
    elif isinstance(want, (np.ndarray, np.generic)):
        assert got.dtype == want.dtype and np.shape(got) == np.shape(want)


@pytest.mark.parametrize("name,args,kwargs", [
    ("lstsq", (RNG.standard_normal((6, N)), RNG.standard_normal(6)), {}),
    ("lstsq", (RNG.standard_normal((6, N)), RNG.standard_normal((6, 2))), {"lapack_driver": "gelsy"}),
    ("lstsq", (RNG.standard_normal((3, 6, N)), RNG.standard_normal((3, 6, 1))), {}),
    ("lstsq", (RNG.standard_normal((3, 6, N)), RNG.standard_normal((6, 2))), {"lapack_driver": "gelss"}),
    ("pinv", (RNG.standard_normal((6, N)),), {"return_rank": True}),
    ("pinv", (RNG.standard_normal((2, 6, N)),), {"return_rank": True}),
    ("pinv", (RNG.standard_normal((2, 6, N)),), {}),
    ("pinvh", (_hpd(),), {"return_rank": True}),
    ("pinvh", (_hpd((2,)),), {"return_rank": True}),
    ("pinvh", (_hpd((2,)),), {"return_rank": False}),
    ("det", (_general(),), {}),
    ("det", (_general((2,)),), {}),
    ("matrix_balance", (_general(),), {}),
    ("matrix_balance", (_general(),), {"separate": True}),
    ("solve_triangular", (np.triu(_general((2,))), RNG.standard_normal((2, N, 1))), {}),
])
def test_result_containers_like_scipy(name, args, kwargs):
    want = getattr(sl, name)(*args, **kwargs)
    got = getattr(tl, name)(*args, **kwargs)
    _same_types(got, want)
    got = getattr(tl, name)(*args, **kwargs, device="cpu")
    _same_types(got, want)


@pytest.mark.parametrize("name,args", [
    ("solve_triangular", (np.zeros((0, 3, 3)), np.zeros((0, 3)))),
    ("lstsq", (np.zeros((0, 3, 3)), np.zeros((0, 3, 1)))),
    ("pinv", (np.zeros((0, 3, 3)),)),
    ("pinvh", (np.zeros((0, 3, 3)),)),
    ("solve_banded", ((1, 1), np.zeros((0, 3, 3)), np.ones(3))),
    ("solveh_banded", (np.zeros((0, 2, 3)), np.ones(3))),
    ("solve_toeplitz", (np.zeros((0, 3)), np.ones(3))),
    ("matmul_toeplitz", (np.zeros((0, 3)), np.ones(3))),
])
def test_zero_size_batches_refused_like_scipy(name, args):
    with pytest.raises(ValueError, match="does not support zero-size batches"):
        getattr(sl, name)(*args)
    with pytest.raises(ValueError, match=f"`{name}` does not support zero-size batches"):
        getattr(tl, name)(*args)


def test_overwrite_flags_are_accepted_and_inputs_kept():
    a, b = _general(), RNG.standard_normal(N)
    a0, b0 = a.copy(), b.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tl.solve(a, b, overwrite_a=True, overwrite_b=True)
        tl.inv(a, overwrite_a=True)
        tl.det(a, overwrite_a=True)
        tl.lstsq(a, b, overwrite_a=True, overwrite_b=True)
        tl.solve_triangular(a, b, overwrite_b=True)
        tl.solve_banded((1, 1), _band(), b, overwrite_ab=True, overwrite_b=True)
        tl.solveh_banded(_band()[:2], b, overwrite_ab=True, overwrite_b=True)
        tl.matmul_toeplitz(b, b, workers=2)
        tl.matrix_balance(a, overwrite_a=True)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


@pytest.mark.parametrize("assume_a", [None, "general", "gen", "diagonal", "tridiagonal", "banded",
                                      "upper triangular", "lower triangular", "symmetric", "sym", "hermitian",
                                      "her", "positive definite", "pos"])
@pytest.mark.parametrize("lower", [False, True])
def test_solve_structures(assume_a, lower, rng):
    a = hpd(rng, "complex128") + np.triu(general(rng, "complex128"), 1)  # one triangle Hermitian PD
    if lower:
        a = np.conj(a.T)
    b = general(rng, "complex128")[:, :2]
    got, want = both("solve", a, b, lower=lower, assume_a=assume_a)
    assert_same_structure(got, want)
    close(got, want)
    if assume_a in (None, "gen", "sym", "pos", "diagonal"):
        real = a.real.copy()
        got, want = both("solve", real, b.real[:, 0], lower=lower, assume_a=assume_a, transposed=True)
        close(got, want)


@pytest.mark.parametrize("assume_a", [None, "general", "diagonal", "upper triangular", "lower triangular", "pos",
                                      "sym", "her"])
def test_inv_structures(assume_a, rng):
    a = hpd(rng, "complex128") + np.tril(general(rng, "complex128"), -1)
    if assume_a == "diagonal":
        # SciPy 1.17's inv(assume_a='diagonal') inverts the diagonal in place
        # and returns the off-diagonal entries unchanged (a SciPy bug);
        # torchbridge returns the inverse of the diagonal part. They agree on
        # diagonal input, the case the option is for.
        np.testing.assert_array_equal(np.triu(sl.inv(a, assume_a="diagonal"), 1), np.triu(a, 1))
        close(tl.inv(a, assume_a="diagonal"), np.diag(1 / np.diag(a)))
        a = np.diag(np.diag(a))
    for lower in (False, True):
        got, want = both("inv", a, assume_a=assume_a, lower=lower)
        assert_same_structure(got, want)
        close(got, want)
    with pytest.raises(KeyError):
        tl.inv(a, assume_a="symmetric")  # SciPy's inv has no long names


def test_solve_errors_like_scipy(rng):
    a = general(rng)
    with pytest.raises(ValueError, match="not a recognized matrix structure"):
        tl.solve(a, a, assume_a="unknown")
    with pytest.raises(ValueError, match="incompatible shapes"):
        tl.solve(a, np.ones(4))
    with pytest.raises(ValueError, match="square"):
        tl.solve(np.ones((2, 3)), np.ones(2))
    with pytest.raises(NotImplementedError):
        tl.solve(a + 0j, np.ones(cases.N), transposed=True)
    # a 1x1 `a` scales any b, as SciPy's
    close(tl.solve([[2.0]], [1.0, 2.0, 4.0]), sl.solve([[2.0]], [1.0, 2.0, 4.0]))


@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
def test_triangular_and_lu_transposes(trans, rng):
    a = general(rng, "complex128")
    b = general(rng, "complex128")[:, :3]
    for lower in (False, True):
        for unit in (False, True):
            got, want = both("solve_triangular", a, b, trans=trans, lower=lower, unit_diagonal=unit)
            close(got, want)
    if isinstance(trans, int):
        lu_piv = sl.lu_factor(a)
        got, want = both("lu_solve", lu_piv, b, trans=trans)
        close(got, want)


def test_lstsq_cases(rng):
    a = rect(rng, "float64", 6, 4)
    cases = [
        (a, rng.standard_normal((6, 2)), {}),
        (a.T, rng.standard_normal(4), {}),  # underdetermined: minimum norm
        (np.hstack([a, a[:, :1]]), rng.standard_normal(6), {}),  # rank deficient
        (a, rng.standard_normal(6), {"cond": 0.5}),
        (a, rng.standard_normal((6, 3)), {"lapack_driver": "gelss"}),
        (a + 1j * a[::-1], rng.standard_normal(6) + 0j, {}),
    ]
    for x, b, kwargs in cases:
        got, want = both("lstsq", x, b, **kwargs)
        assert_same_structure(got, want)
        close_all(got, want)
    got, want = both("lstsq", a, rng.standard_normal(6), lapack_driver="gelsy")
    assert_same_structure(got, want)
    close(got[0], want[0])
    with pytest.raises(ValueError, match="not found"):
        tl.lstsq(a, np.ones(6), lapack_driver="gels")
    with pytest.raises(ValueError, match="same number of rows"):
        tl.lstsq(a, np.ones(5))


def test_pinv_tolerances(rng):
    a = rect(rng, "float64", 6, 4) @ np.diag([1, 1e-3, 1e-9, 1e-15])
    for kwargs in ({}, {"atol": 1e-6}, {"rtol": 1e-2}, {"atol": 1e-12, "rtol": 1e-8}):
        b, rank = tl.pinv(a, return_rank=True, **kwargs)
        bw, rank_w = sl.pinv(a, return_rank=True, **kwargs)
        assert type(rank) is type(rank_w) and rank == rank_w
        close(b, bw, 1e-9)  # pinv amplifies rounding by 1/s_min kept (up to 1e9 here)
    s = hpd(rng) @ np.diag([1, 1, 1, 1e-14, 0]) @ hpd(rng)
    s = s + s.T
    got, want = both("pinvh", s, return_rank=True)
    assert got[1] == want[1] and type(got[1]) is type(want[1])
    with pytest.raises(ValueError, match="positive"):
        tl.pinv(a, atol=-1)


def test_matrix_balance_like_gebal(rng):
    a = rng.standard_normal((6, 6)) * np.logspace(-6, 6, 6)
    isolated = a.copy()
    isolated[3, :] = 0
    isolated[3, 3] = 7.0  # row with only a diagonal entry: permuted down
    isolated[:, 1] = 0
    isolated[1, 1] = -2.0  # column with only a diagonal entry: permuted left
    for x in (a, isolated, a + 1j * a[::-1], a.astype(np.float32), np.array([[1, 100], [0.01, 1.0]])):
        for kwargs in ({}, {"permute": False}, {"scale": False}, {"separate": True}):
            got, want = both("matrix_balance", x, **kwargs)
            assert_same_structure(got, want)
            close_all(got, want, 1e-12 if x.dtype != np.float32 else 1e-6)
    with pytest.raises(ValueError):
        tl.matrix_balance(np.array([[np.nan, 1], [1, 1]]))
    with pytest.raises(ValueError, match="zero-size batches"):  # a stack is balanced matrix by matrix, as SciPy's
        tl.matrix_balance(np.ones((0, 3, 3)))


def test_structured_solvers_options(rng):
    c = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    c[0] += 8
    b = rng.standard_normal((6, 2))
    for singular in ("raise", "lstsq"):
        got, want = both("solve_circulant", c, b, singular=singular)
        close(got, want)
    got, want = both("solve_circulant", np.array([1.0, 1, 1, 1]), np.ones(4), singular="lstsq")
    close(got, want)
    with pytest.raises(np.linalg.LinAlgError, match="near singular"):
        tl.solve_circulant(np.array([1.0, 1, 1, 1]), np.ones(4))
    cs = rng.standard_normal((3, 6))
    cs[:, 0] += 8
    got, want = both("solve_circulant", cs, rng.standard_normal((6, 3)), caxis=1, baxis=0, outaxis=1)
    close(got, want)
    got, want = both("solve_toeplitz", c, b)
    close(got, want)
    got, want = both("matmul_toeplitz", (c, c[::-1].conj()), b + 1j)
    close(got, want)
    ab = np.vstack([np.full(6, 0.3), np.full(6, 5.0), np.full(6, -0.7)])
    for lower in (False, True):
        got, want = both("solveh_banded", ab[1:] if lower else ab[:2], b, lower=lower)
        close(got, want)
        got, want = both("cholesky_banded", ab[1:] if lower else ab[:2], lower=lower)
        close(got, want)
    got, want = both("solve_banded", (1, 1), ab, b)
    close(got, want)
    got, want = both("solve_banded", (0, 0), np.array([[4.0]]), np.array([2.0]))
    close(got, want)
    d, e = rng.standard_normal(7), rng.standard_normal(6)
    t = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    for kwargs in ({"select": "v", "select_range": (-1, 1)}, {"select": "i", "select_range": (2, 4)},
                   {"lapack_driver": "stemr"}):
        got, want = both("eigh_tridiagonal", d, e, **kwargs)
        check_eigh(got, want, t, 1e-12)
    got, want = both("eigh_tridiagonal", np.array([3]), np.array([], dtype=int), select="v", select_range=(0, 1))
    assert_same_structure(got, want)
    got, want = both("eigh_tridiagonal", np.array([3]), np.array([], dtype=int))
    assert_same_structure(got, want)
    with pytest.raises(ValueError, match="sterf"):
        tl.eigh_tridiagonal(d, e, lapack_driver="sterf")
    with pytest.raises(TypeError):
        tl.eigvalsh_tridiagonal(d + 0j, e)
    for mode in ("full", "same", "valid"):
        for n in (2, 7):
            got, want = both("convolution_matrix", [1.0, 2, 3, 4], n, mode)
            assert_same_structure(got, want)
            close(got, want)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 6)).map(lambda t: (t[0], t[0])),
                  elements=st.floats(-1e3, 1e3, allow_nan=False)),
       st.sampled_from([None, "gen", "sym", "pos"]))
def test_solve_any_matrix(a, assume_a):
    n = a.shape[0]
    a = a + a.T + (2 * np.abs(a).sum() + 1) * np.eye(n)  # symmetric, diagonally dominant: all structures apply
    b = np.arange(1.0, n + 1)
    got, want = both("solve", a, b, assume_a=assume_a)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


# SciPy's levinson raises on a zero leading principal minor, even where T itself is regular
@pytest.mark.parametrize("c, r, b", [
    ([0.0, 1.0], [0.0, 1.0], [1.0, 1.0]),  # c[0] == 0
    ([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 2.0, 3.0]),  # x_den == 0 at m = 1
    ([1.0, 2.0, 3.0], [1.0, 0.5, 0.0], [1.0, 0.0, 1.0]),
    ([1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 2.0, 0.0], [1.0, 1.0, 1.0, 1.0]),  # g_den == 0
])
def test_solve_toeplitz_singular_principal_minor(c, r, b):
    c, r, b = np.array(c), np.array(r), np.array(b)
    try:
        want = sl.solve_toeplitz((c, r), b)
    except np.linalg.LinAlgError as e:
        with pytest.raises(np.linalg.LinAlgError, match=str(e)):
            tl.solve_toeplitz((c, r), b)
        with pytest.raises(np.linalg.LinAlgError, match="Singular principal minor"):
            tl.solve_toeplitz((np.stack([c + 5, c]), r), b)  # one singular member of a batch
    else:
        close(tl.solve_toeplitz((c, r), b), want, rtol=1e-12)


def test_solve_toeplitz_levinson_values(rng):
    # the same recursion as SciPy's: agreement to rounding, also where T is ill-conditioned
    for n in (1, 2, 5, 33):
        c = rng.standard_normal(n) + np.eye(n)[0] * 3
        r = rng.standard_normal(n)
        b = rng.standard_normal((n, 3))
        close(tl.solve_toeplitz((c, r), b), sl.solve_toeplitz((c, r), b), rtol=1e-10)
        close(tl.solve_toeplitz((c, r), b[:, 0]), sl.solve_toeplitz((c, r), b[:, 0]), rtol=1e-10)
        cz = c + 1j * rng.standard_normal(n)
        close(tl.solve_toeplitz(cz, b), sl.solve_toeplitz(cz, b), rtol=1e-10)
    cs = rng.standard_normal((2, 3, 6)) + np.eye(6)[0] * 4
    bs = rng.standard_normal((3, 6, 2))
    got, want = tl.solve_toeplitz((cs, cs[0, 0]), bs), sl.solve_toeplitz((cs, cs[0, 0]), bs)
    close(got, want, rtol=1e-10)
