"""torchbridge.linalg against scipy.linalg 1.17: values, dtypes, types, batches, edges.

Tolerances. Both libraries call LAPACK (SciPy: OpenBLAS; libtorch: MKL), so
results agree to rounding in the factorizations: for the well-conditioned
inputs used here (condition numbers below about 50) float64 results agree to
``rtol=1e-12`` with an absolute slack of ``1e-12 * max|result|`` for entries
that cancel to near zero; float32 results to ``rtol=atol=2e-5`` (relative to
the largest entry). Routines whose results are not unique (eigenvectors,
singular vectors, bases of subspaces, the RQ factors' signs) are compared
through what is unique: reconstructions, projectors, invariants.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import LIBRARIES, library_type, to_library, to_numpy, with_device
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from torchbridge import linalg as tl

# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------

DTYPES = ["float64", "float32", "complex128", "complex64", "int64", "int32", "int16", "int8", "uint8", "bool",
          "float16"]
N = 5


def is_complex(dtype) -> bool:
    return np.dtype(dtype).kind == "c"


def general(rng, dtype="float64", n=N, batch=()):
    """A well-conditioned (diagonally dominant) square matrix of `dtype`."""
    shape = batch + (n, n)
    eye = np.eye(n)
    kind = np.dtype(dtype).kind
    if kind == "b":
        return (np.triu(rng.random(shape) < 0.5) | np.eye(n, dtype=bool)).astype(bool)
    if kind in "iu":
        return (rng.integers(0 if kind == "u" else -3, 4, shape) + 14 * eye).astype(dtype)
    a = rng.standard_normal(shape) + 2 * n * eye
    if kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def hpd(rng, dtype="float64", n=N, batch=()):
    """A Hermitian positive definite matrix of `dtype` (condition number below ~20)."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return np.broadcast_to(np.eye(n, dtype=bool), batch + (n, n)).copy()
    if kind in "iu":
        x = rng.integers(0 if kind == "u" else -2, 3, batch + (n, n))
        return (x @ np.swapaxes(x, -1, -2) + 3 * n * np.eye(n, dtype=int)).astype(dtype)
    x = rng.standard_normal(batch + (n, n))
    if kind == "c":
        x = x + 1j * rng.standard_normal(batch + (n, n))
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + 2 * n * np.eye(n)).astype(dtype)


def rect(rng, dtype="float64", m=6, n=4, batch=()):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return (rng.random(batch + (m, n)) < 0.5) | np.eye(m, n, dtype=bool)
    if kind in "iu":
        return (rng.integers(0 if kind == "u" else -5, 6, batch + (m, n)) + 7 * np.eye(m, n, dtype=int)).astype(dtype)
    a = rng.standard_normal(batch + (m, n)) + 3 * np.eye(m, n)
    if kind == "c":
        a = a + 1j * rng.standard_normal(batch + (m, n))
    return a.astype(dtype)


def vec(rng, dtype="float64", n=N, batch=()):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return rng.random(batch + (n,)) < 0.5
    if kind in "iu":
        return rng.integers(0 if kind == "u" else -5, 6, batch + (n,)).astype(dtype)
    v = rng.standard_normal(batch + (n,))
    if kind == "c":
        v = v + 1j * rng.standard_normal(batch + (n,))
    return v.astype(dtype)


def tolerance(dtype) -> float:
    """Inputs SciPy computes in single precision (LAPACK's choice for float32,
    complex64, float16, bool and 8/16-bit integers) get float32's tolerance."""
    return 2e-5 if np.dtype(dtype) in (np.float32, np.complex64, np.float16, np.bool_, np.int8, np.uint8,
                                       np.int16) else 1e-12


def result_tolerance(x) -> float:
    dt = np.asarray(x).dtype
    return 2e-5 if dt in (np.float32, np.complex64, np.float16) else 1e-12


# ---------------------------------------------------------------------------
# comparison helpers
# ---------------------------------------------------------------------------


def assert_same_structure(got, want, path="result"):
    """Same Python types all the way down; same dtype and shape for arrays."""
    assert type(got) is type(want), f"{path}: {type(got).__name__} != {type(want).__name__}"
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same_structure(g, w, f"{path}[{i}]")
    elif isinstance(want, (np.ndarray, np.generic)):
        assert got.dtype == want.dtype, f"{path}: dtype {got.dtype} != {want.dtype}"
        assert np.shape(got) == np.shape(want), f"{path}: shape {np.shape(got)} != {np.shape(want)}"


def close(got, want, rtol=None, atol_rel=None):
    got, want = to_numpy(got), np.asarray(want)
    tol = result_tolerance(want) if rtol is None else rtol
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size and np.all(np.isfinite(want)) else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=(tol if atol_rel is None else atol_rel) * scale,
                               equal_nan=True)


def close_all(got, want, rtol=None):
    if isinstance(want, (tuple, list)):
        for g, w in zip(got, want):
            close_all(g, w, rtol)
    elif want is None:
        assert got is None
    elif isinstance(want, (bool, int)):
        assert got == want
    else:
        close(got, want, rtol)


def hermitian_part(a, lower=True):
    """The Hermitian matrix LAPACK sees when it reads one triangle of `a`."""
    a = np.asarray(a)
    t = np.tril(a, -1) if lower else np.triu(a, 1)
    d = np.real(np.diagonal(a, axis1=-2, axis2=-1)) if np.iscomplexobj(a) else np.diagonal(a, axis1=-2, axis2=-1)
    return t + np.conj(np.swapaxes(t, -1, -2)) + d[..., None] * np.eye(a.shape[-1])


def check_eigh(got, want, a, rtol):
    w, v = (to_numpy(x) for x in got)
    close(w, want[0], rtol)
    h = hermitian_part(np.asarray(a).astype(v.dtype))
    close(h @ v, v * w[..., None, :], rtol * 10, rtol * 10)
    close(np.conj(np.swapaxes(v, -1, -2)) @ v, np.broadcast_to(np.eye(v.shape[-1]), v.shape[:-2] + (v.shape[-1],) * 2),
          rtol * 10, rtol * 10)


def check_svd(got, want, a, rtol):
    u, s, vh = (to_numpy(x) for x in got)
    close(s, want[1], rtol)
    k = s.shape[-1]
    rebuilt = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    close(rebuilt, np.asarray(a).astype(u.dtype), rtol * 10, rtol * 10)
    uhu = np.conj(np.swapaxes(u, -1, -2)) @ u
    vvh = vh @ np.conj(np.swapaxes(vh, -1, -2))
    close(uhu, np.broadcast_to(np.eye(u.shape[-1]), uhu.shape), rtol * 10, rtol * 10)
    close(vvh, np.broadcast_to(np.eye(vh.shape[-2]), vvh.shape), rtol * 10, rtol * 10)


def sorted_eigenvalues(w):
    w = np.asarray(w)
    return np.sort_complex(np.round(w, 9)) if w.ndim == 1 else np.array([np.sort_complex(np.round(x, 9)) for x in w])


def check_eig(got, want, a, rtol):
    w, v = (to_numpy(x) for x in got)
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(to_numpy(want[0])), rtol=rtol * 100,
                               atol=rtol * 100 * np.abs(want[0]).max())
    a = np.asarray(a).astype(np.result_type(v.dtype, w.dtype))
    close(a @ v, v * w[..., None, :], rtol * 100, rtol * 100)


def check_projector(got, want, rtol):
    q, qw = to_numpy(got), np.asarray(want)
    assert q.shape == qw.shape
    close(q @ np.conj(np.swapaxes(q, -1, -2)), qw @ np.conj(np.swapaxes(qw, -1, -2)), rtol * 10, rtol * 10)


def check_rq(got, want, a, rtol):
    r, q = (to_numpy(x) for x in got)
    close(np.abs(r), np.abs(want[0]), rtol * 10, rtol * 10)
    close(r @ q, np.asarray(a).astype(r.dtype), rtol * 10, rtol * 10)
    qqh = q @ np.conj(np.swapaxes(q, -1, -2))
    close(qqh, np.broadcast_to(np.eye(q.shape[-2]), qqh.shape), rtol * 10, rtol * 10)


# ---------------------------------------------------------------------------
# the routines: name -> (arguments from (rng, dtype), comparison)
# A comparison of None compares every array of the result directly.
# ---------------------------------------------------------------------------


def _ab(rng, dt):
    return (general(rng, dt), vec(rng, dt)), {}


ROUTINES = {
    "solve": (_ab, None),
    "solve_triangular": (lambda rng, dt: ((np.triu(general(rng, dt)), vec(rng, dt)), {}), None),
    "inv": (lambda rng, dt: ((general(rng, dt),), {}), None),
    "det": (lambda rng, dt: ((general(rng, dt),), {}), None),
    "eigh": (lambda rng, dt: ((hpd(rng, dt),), {}), "eigh"),
    "eigvalsh": (lambda rng, dt: ((hpd(rng, dt),), {}), None),
    "eig": (lambda rng, dt: ((general(rng, dt),), {}), "eig"),
    "eigvals": (lambda rng, dt: ((general(rng, dt),), {}), "eigvals"),
    "svd": (lambda rng, dt: ((rect(rng, dt),), {}), "svd"),
    "svdvals": (lambda rng, dt: ((rect(rng, dt),), {}), None),
    "cholesky": (lambda rng, dt: ((hpd(rng, dt),), {}), None),
    "cho_factor": (lambda rng, dt: ((hpd(rng, dt),), {"lower": True}), None),
    "cho_solve": (lambda rng, dt: (((sl.cho_factor(hpd(rng, "float64"))[0].astype(dt) if dt != "bool"
                                     else np.eye(N, dtype=bool), False), vec(rng, dt)), {}), None),
    "lu": (lambda rng, dt: ((rect(rng, dt),), {}), None),
    "lu_factor": (lambda rng, dt: ((general(rng, dt),), {}), None),
    "lu_solve": (lambda rng, dt: ((sl.lu_factor(general(rng, dt)), vec(rng, dt)), {}), None),
    "qr": (lambda rng, dt: ((rect(rng, dt),), {}), None),
    "rq": (lambda rng, dt: ((rect(rng, dt, 4, 6),), {}), "rq"),
    "lstsq": (lambda rng, dt: ((rect(rng, dt), vec(rng, dt, 6)), {}), None),
    "pinv": (lambda rng, dt: ((rect(rng, dt),), {}), None),
    "pinvh": (lambda rng, dt: ((hpd(rng, dt),), {}), None),
    "norm": (lambda rng, dt: ((rect(rng, dt),), {}), None),
    "expm": (lambda rng, dt: ((general(rng, dt) / (20 if np.dtype(dt).kind in "fc" else 1),), {}), None),
    "expm_frechet": (lambda rng, dt: ((general(rng, dt) * 0.1 if dt != "bool" else general(rng, dt),
                                       general(rng, dt)), {}), None),
    "cosm": (lambda rng, dt: ((general(rng, dt) * (0.1 if dt != "bool" else 1),), {}), None),
    "sinm": (lambda rng, dt: ((general(rng, dt) * (0.1 if dt != "bool" else 1),), {}), None),
    "tanm": (lambda rng, dt: ((general(rng, dt) * (0.1 if dt != "bool" else 1),), {}), None),
    "coshm": (lambda rng, dt: ((general(rng, dt) * 0.1,), {}), None),
    "sinhm": (lambda rng, dt: ((general(rng, dt) * 0.1,), {}), None),
    "tanhm": (lambda rng, dt: ((general(rng, dt) * 0.1,), {}), None),
    "null_space": (lambda rng, dt: ((rect(rng, dt, 3, 5),), {}), "null_space"),
    "orth": (lambda rng, dt: ((rect(rng, dt),), {}), "orth"),
    "polar": (lambda rng, dt: ((general(rng, dt),), {}), None),
    "subspace_angles": (lambda rng, dt: ((rect(rng, dt, 6, 2), rect(rng, dt, 6, 3)), {}), None),
    "orthogonal_procrustes": (lambda rng, dt: ((rect(rng, dt), rect(rng, dt)), {}), None),
    "block_diag": (lambda rng, dt: ((rect(rng, dt, 2, 3), vec(rng, dt, 2), general(rng, dt, 2)), {}), None),
    "toeplitz": (lambda rng, dt: ((vec(rng, dt, 4), vec(rng, dt, 6)), {}), None),
    "circulant": (lambda rng, dt: ((vec(rng, dt),), {}), None),
    "hankel": (lambda rng, dt: ((vec(rng, dt, 4), vec(rng, dt, 6)), {}), None),
    "khatri_rao": (lambda rng, dt: ((rect(rng, dt, 3, 4), rect(rng, dt, 2, 4)), {}), None),
    "companion": (lambda rng, dt: ((vec(rng, dt) + (np.array([1, 0, 0, 0, 0], dtype=dt) if dt != "bool"
                                                    else np.array([1, 0, 0, 0, 0], dtype=bool)),), {}), None),
    "fiedler": (lambda rng, dt: ((vec(rng, dt),), {}), None),
    "leslie": (lambda rng, dt: ((vec(rng, dt), vec(rng, dt, N - 1)), {}), None),
    "diagsvd": (lambda rng, dt: ((vec(rng, dt, 3), 3, 5), {}), None),
    "convolution_matrix": (lambda rng, dt: ((vec(rng, dt, 4), 6), {"mode": "same"}), None),
    "bandwidth": (lambda rng, dt: ((np.triu(np.tril(general(rng, dt), 2), -1),), {}), None),
    "issymmetric": (lambda rng, dt: ((hpd(rng, dt),), {}), None),
    "ishermitian": (lambda rng, dt: ((hpd(rng, dt),), {}), None),
    "solve_banded": (lambda rng, dt: (((1, 1), general(rng, dt)[:3], vec(rng, dt)), {}), None),
    "solveh_banded": (lambda rng, dt: ((np.vstack([np.full(N, 0.5), np.full(N, 4.0)]).astype(dt)
                                        if dt != "bool" else np.vstack([np.zeros(N, bool), np.ones(N, bool)]),
                                        vec(rng, dt)), {}), None),
    "cholesky_banded": (lambda rng, dt: ((np.vstack([np.full(N, 1), np.full(N, 4)]).astype(dt)
                                          if dt != "bool" else np.vstack([np.zeros(N, bool), np.ones(N, bool)]),),
                                         {}), None),
    "eigh_tridiagonal": (lambda rng, dt: ((vec(rng, dt), vec(rng, dt, N - 1)), {}), "eigh"),
    "eigvalsh_tridiagonal": (lambda rng, dt: ((vec(rng, dt), vec(rng, dt, N - 1)), {}), None),
    "solve_toeplitz": (lambda rng, dt: (((vec(rng, dt) + np.array([9, 0, 0, 0, 0]).astype(dt)
                                          if dt != "bool" else np.eye(N, dtype=bool)[0], vec(rng, dt)),
                                         vec(rng, dt)), {}), None),
    "matmul_toeplitz": (lambda rng, dt: (((vec(rng, dt), vec(rng, dt, 4)), vec(rng, dt, 4)), {}), None),
    "solve_circulant": (lambda rng, dt: ((vec(rng, dt) + (np.array([9, 0, 0, 0, 0]).astype(dt)
                                                          if dt != "bool" else np.eye(N, dtype=bool)[0]),
                                          vec(rng, dt)), {}), None),
    "matrix_balance": (lambda rng, dt: ((general(rng, dt) * np.array([1, 100, 1e-2, 1, 1e3])
                                         if np.dtype(dt).kind in "fc" else general(rng, dt),), {}), None),
}

#: Routines taking an order `n` instead of an array: (args, kwargs) sets.
ORDER_ROUTINES = {
    "hilbert": [((0,), {}), ((1,), {}), ((7,), {})],
    "invhilbert": [((4,), {}), ((9,), {}), ((6,), {"exact": True}), ((14,), {"exact": True}), ((20,), {})],
    "helmert": [((5,), {}), ((5,), {"full": True}), ((1,), {})],
    "dft": [((0,), {}), ((6,), {}), ((8,), {"scale": "sqrtn"}), ((5,), {"scale": "n"})],
    "hadamard": [((1,), {}), ((8,), {}), ((4,), {"dtype": complex}), ((4,), {"dtype": np.float32})],
    "pascal": [((6,), {}), ((6,), {"kind": "lower"}), ((6,), {"kind": "upper", "exact": False}),
               ((34,), {}), ((12,), {"exact": False})],
    "invpascal": [((6,), {}), ((6,), {"kind": "lower"}), ((7,), {"kind": "upper", "exact": False}),
                  ((12,), {"exact": False}), ((20,), {})],
}


#: (routine, dtype) -> the dtype SciPy gets the reference values from, where
#: SciPy's own result on that dtype is inaccurate.
SCIPY_REFERENCE_FROM = {
    # SciPy forms B.T @ conj(A) in float16 (about 1e-3 relative) before its
    # float32 SVD; torchbridge forms it in float32.
    ("orthogonal_procrustes", "float16"): "float32",
    # SciPy negates unsigned coefficients with wraparound (-a[..., 1:] on
    # uint8); torchbridge computes in float64 first, as for signed input.
    ("companion", "uint8"): "int16",
}


def test_every_scipy_signature_matches():
    assert len(tl.__all__) == len(set(tl.__all__)) >= 28
    for name in tl.__all__:
        assert inspect.signature(getattr(tl, name)) == with_device(inspect.signature(getattr(sl, name))), name


def test_every_routine_is_tested():
    assert set(tl.__all__) == set(ROUTINES) | set(ORDER_ROUTINES)


def _call(module, name, args, kwargs):
    with warnings.catch_warnings():
        # SciPy 1.17 warns when hankel gets >1-D input, never here; keep
        # pytest's "warnings are errors" for everything else.
        return getattr(module, name)(*args, **kwargs)


def _scipy_dtype_error(name, args, kwargs):
    try:
        with np.errstate(all="ignore"):
            return None, _call(sl, name, args, kwargs)
    except Exception as exc:
        return exc, None


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ROUTINES)
def test_matches_scipy_types_dtypes_values(name, dtype):
    rng = np.random.default_rng(20261201)
    make, compare = ROUTINES[name]
    args, kwargs = make(rng, dtype)
    error, want = _scipy_dtype_error(name, args, kwargs)
    if (name, dtype) in SCIPY_REFERENCE_FROM:
        # SciPy loses accuracy on this dtype; see SCIPY_REFERENCE_FROM.
        ref_dtype = SCIPY_REFERENCE_FROM[name, dtype]
        ref = _call(sl, name, tuple(np.asarray(a).astype(ref_dtype) if isinstance(a, np.ndarray) else a
                                    for a in args), kwargs)
        want = ref.astype(want.dtype) if isinstance(want, np.ndarray) else \
            type(want)(np.asarray(r).astype(np.asarray(w).dtype)[()] for r, w in zip(ref, want))
    if error is not None:
        # SciPy refuses this dtype (e.g. -bool in coshm): so does torchbridge.
        with pytest.raises(type(error) if not isinstance(error, np.linalg.LinAlgError) else Exception):
            _call(tl, name, args, kwargs)
        return
    got = _call(tl, name, args, kwargs)
    assert_same_structure(got, want)
    rtol = max(tolerance(dtype), result_tolerance(want[0] if isinstance(want, (tuple, list)) else want))
    compare_result(name, got, want, args, rtol)


def compare_result(name, got, want, args, rtol):
    compare = ROUTINES[name][1]
    if compare is None:
        close_all(got, want, rtol)
    elif compare == "eigh":
        a = args[0] if name == "eigh" else (np.apply_along_axis(np.diag, -1, np.asarray(args[0]))
                                            + np.diag(args[1], 1) + np.diag(args[1], -1))
        check_eigh(got, want, a, rtol)
    elif compare == "eig":
        check_eig(got, want, args[0], rtol)
    elif compare == "eigvals":
        np.testing.assert_allclose(np.sort_complex(to_numpy(got)), np.sort_complex(want), rtol=rtol * 100,
                                   atol=rtol * 100 * np.abs(want).max())
    elif compare == "svd":
        check_svd(got, want, args[0], rtol)
    elif compare in ("null_space", "orth"):
        check_projector(got, want, rtol)
    elif compare == "rq":
        check_rq(got, want, args[0], rtol)
    else:
        raise AssertionError(compare)


@pytest.mark.parametrize("name", ORDER_ROUTINES)
def test_order_constructors_match_scipy(name):
    for args, kwargs in ORDER_ROUTINES[name]:
        want = getattr(sl, name)(*args, **kwargs)
        got = getattr(tl, name)(*args, **kwargs)
        assert_same_structure(got, want)
        if name == "invhilbert" and not kwargs.get("exact"):
            # SciPy multiplies floating-point binomials (comb(exact=False)),
            # about 1e-15 off for each; torchbridge rounds the exact integer once.
            np.testing.assert_allclose(got, want, rtol=1e-13)
        elif name == "dft":
            # SciPy raises omega to integer powers; torchbridge reduces jk mod n first.
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-14)
        else:
            np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------------------
# batches: SciPy 1.17 applies most routines over leading dimensions (and
# returns lists, not tuples, from its batching decorator)
# ---------------------------------------------------------------------------

B = (3,)


def _batched_cases():
    f = "float64"
    return {
        "solve": lambda r: ((general(r, f, batch=B), vec(r, f)), {}),
        "solve_triangular": lambda r: ((np.triu(general(r, f, batch=B)), vec(r, f, batch=B)[..., None]), {}),
        "inv": lambda r: ((general(r, f, batch=B),), {}),
        "det": lambda r: ((general(r, f, batch=B),), {}),
        "eigh": lambda r: ((hpd(r, "complex128", batch=B),), {}),
        "eigvalsh": lambda r: ((hpd(r, f, batch=B),), {"subset_by_index": (1, 3)}),
        "eig": lambda r: ((general(r, f, batch=B),), {}),
        "eigvals": lambda r: ((general(r, f, batch=B),), {}),
        "svd": lambda r: ((rect(r, f, batch=B),), {}),
        "svdvals": lambda r: ((rect(r, f, batch=B),), {}),
        "cholesky": lambda r: ((hpd(r, f, batch=B),), {}),
        "cho_factor": lambda r: ((hpd(r, f, batch=B),), {}),
        "cho_solve": lambda r: ((sl.cho_factor(hpd(r, f, batch=B)), vec(r, f)), {}),
        "lu": lambda r: ((rect(r, f, batch=B),), {"p_indices": True}),
        "lu_factor": lambda r: ((general(r, f, batch=B),), {}),
        "lu_solve": lambda r: ((sl.lu_factor(general(r, f, batch=B)), vec(r, f, batch=B)[..., None]), {}),
        "qr": lambda r: ((rect(r, f, batch=B),), {"mode": "economic"}),
        "rq": lambda r: ((rect(r, f, 4, 6, batch=B),), {}),
        "lstsq": lambda r: ((rect(r, f, batch=B), vec(r, f, 6, batch=B)[..., None]), {}),
        "pinv": lambda r: ((rect(r, f, batch=B),), {"return_rank": True}),
        "pinvh": lambda r: ((hpd(r, f, batch=B),), {"return_rank": True}),
        "norm": lambda r: ((rect(r, f, batch=B),), {"axis": (1, 2), "ord": 2}),
        "expm": lambda r: ((general(r, f, batch=B) / 10,), {}),
        "expm_frechet": lambda r: ((general(r, f, batch=B) / 10, general(r, f, batch=B)), {}),
        "cosm": lambda r: ((general(r, f, batch=B) / 10,), {}),
        "sinm": lambda r: ((general(r, f, batch=B) / 10,), {}),
        "tanm": lambda r: ((general(r, f, batch=B) / 10,), {}),
        "coshm": lambda r: ((general(r, f, batch=B) / 10,), {}),
        "sinhm": lambda r: ((general(r, f, batch=B) / 10,), {}),
        "tanhm": lambda r: ((general(r, f, batch=B) / 10,), {}),
        "null_space": lambda r: ((rect(r, f, 3, 5, batch=B),), {}),
        "orth": lambda r: ((rect(r, f, batch=B),), {}),
        "polar": lambda r: ((general(r, f, batch=B),), {"side": "left"}),
        "subspace_angles": lambda r: ((rect(r, f, 6, 2, batch=B), rect(r, f, 6, 3)), {}),
        "orthogonal_procrustes": lambda r: ((rect(r, f, batch=B), rect(r, f, batch=B)), {}),
        "block_diag": lambda r: ((rect(r, f, 2, 3, batch=B), general(r, f, 2)), {}),
        "toeplitz": lambda r: ((vec(r, f, 4, batch=B), vec(r, f, 6)), {}),
        "circulant": lambda r: ((vec(r, f, batch=B),), {}),
        "khatri_rao": lambda r: ((rect(r, f, 3, 4, batch=B), rect(r, f, 2, 4)), {}),
        "companion": lambda r: ((vec(r, f, batch=B) + np.array([3, 0, 0, 0, 0]),), {}),
        "fiedler": lambda r: ((vec(r, f, batch=B),), {}),
        "leslie": lambda r: ((vec(r, f, batch=B), vec(r, f, N - 1)), {}),
        "diagsvd": lambda r: ((vec(r, f, 3, batch=B), 3, 5), {}),
        "convolution_matrix": lambda r: ((vec(r, f, 4, batch=B), 6), {"mode": "valid"}),
        "bandwidth": lambda r: ((np.triu(general(r, f, batch=B), -1),), {}),
        "issymmetric": lambda r: ((np.stack([hpd(r, f), general(r, f), hpd(r, f)]),), {}),
        "ishermitian": lambda r: ((np.stack([hpd(r, "complex128"), hpd(r, "complex128").T, hpd(r, "complex128")]),),
                                  {}),
        "solve_banded": lambda r: (((1, 1), general(r, f, batch=B)[..., :3, :], vec(r, f)), {}),
        "solveh_banded": lambda r: ((np.stack([np.vstack([np.full(N, 0.5 + i), np.full(N, 4.0 + i)])
                                               for i in range(3)]), vec(r, f)), {}),
        "cholesky_banded": lambda r: ((np.stack([np.vstack([np.full(N, 0.5 + i), np.full(N, 4.0 + i)])
                                                 for i in range(3)]),), {"lower": False}),
        "eigh_tridiagonal": lambda r: ((vec(r, f, batch=B), vec(r, f, N - 1)), {}),
        "eigvalsh_tridiagonal": lambda r: ((vec(r, f, batch=B), vec(r, f, N - 1)), {}),
        "solve_toeplitz": lambda r: (((vec(r, f, batch=B) + np.array([9, 0, 0, 0, 0]), vec(r, f)), vec(r, f)), {}),
        "matmul_toeplitz": lambda r: (((vec(r, f, batch=B), vec(r, f, 4)), vec(r, f, 4)), {}),
    }


BATCHED = _batched_cases()


@pytest.mark.parametrize("name", BATCHED)
def test_batches_match_scipy(name, rng):
    args, kwargs = BATCHED[name](rng)
    want = _call(sl, name, args, kwargs)
    got = _call(tl, name, args, kwargs)
    assert_same_structure(got, want)
    if name == "eigvalsh":
        close_all(got, want)
    else:
        compare_result(name, got, want, args, 1e-12)


def test_every_batched_scipy_routine_is_tested():
    not_batched_in_scipy = {"hankel", "solve_circulant", "matrix_balance"}  # see their own tests
    assert set(BATCHED) == set(ROUTINES) - not_batched_in_scipy


@pytest.mark.parametrize("name", ["inv", "eigh", "svd", "cholesky", "qr", "lu_factor", "pinv", "expm", "toeplitz"])
def test_zero_size_batches(name):
    a = np.zeros((0, 3, 3)) if name != "toeplitz" else np.zeros((0, 3))
    try:
        want = getattr(sl, name)(a)
    except ValueError as exc:
        with pytest.raises(ValueError, match="zero-size batches"):
            getattr(tl, name)(a)
        assert "zero-size" in str(exc)
        return
    got = getattr(tl, name)(a)
    assert_same_structure(got, want)


# ---------------------------------------------------------------------------
# every array library: results in the caller's type, values as SciPy's
# ---------------------------------------------------------------------------


def _to_lib(x, lib):
    if isinstance(x, np.ndarray):
        return to_library(lib, x)
    if isinstance(x, tuple):
        return tuple(_to_lib(y, lib) for y in x)
    return x


def _assert_library_types(got, want, lib):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _assert_library_types(g, w, lib)
    elif isinstance(want, (np.ndarray, np.generic)):
        if lib == "numpy":
            assert type(got) is type(want)
        else:
            assert isinstance(got, library_type(lib)), type(got)
    else:
        assert type(got) is type(want)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", ROUTINES)
def test_every_library(name, lib):
    rng = np.random.default_rng(7)
    args, kwargs = ROUTINES[name][0](rng, "complex128" if name in ("ishermitian",) else "float64")
    want = _call(sl, name, args, kwargs)
    got = _call(tl, name, _to_lib(args, lib), kwargs)
    _assert_library_types(got, want, lib)
    compare_result(name, got, want, args, 1e-12)


# ---------------------------------------------------------------------------
# options, against SciPy
# ---------------------------------------------------------------------------


def both(name, *args, **kwargs):
    return _call(tl, name, args, kwargs), _call(sl, name, args, kwargs)


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
        tl.solve(a + 0j, np.ones(N), transposed=True)
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


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5)])
def test_decomposition_modes(shape, rng):
    a = rect(rng, "float64", *shape)
    for mode in ("full", "economic", "r"):
        got, want = both("qr", a, mode=mode)
        assert_same_structure(got, want)
        close_all(got, want)
    (qr_raw, tau), r = tl.qr(a, mode="raw")
    (qr_w, tau_w), r_w = sl.qr(a, mode="raw")
    close(qr_raw, qr_w)
    close(tau, tau_w)
    close(r, r_w)
    for mode in ("full", "economic"):
        got, want = both("rq", a, mode=mode)
        assert_same_structure(got, want)
        check_rq(got, want, a, 1e-12)
    r_only, want = both("rq", a, mode="r")
    close(np.abs(r_only), np.abs(want))
    for kwargs in ({}, {"permute_l": True}, {"p_indices": True}):
        got, want = both("lu", a, **kwargs)
        assert_same_structure(got, want)
        close_all(got, want)
    for full in (True, False):
        got, want = both("svd", a, full_matrices=full)
        assert_same_structure(got, want)
        check_svd(got, want, a, 1e-12)
    got, want = both("lu", a[:1, :1])  # SciPy's 1x1 path
    assert_same_structure(got, want)
    got, want = both("lu", a[:1, :1], p_indices=True)
    assert_same_structure(got, want)


def test_eigh_options(rng):
    a = hpd(rng, "complex128", n=6)
    b = hpd(rng, "complex128", n=6)
    for lower in (True, False):
        got, want = both("eigh", np.tril(a) if lower else np.triu(a), lower=lower)
        check_eigh(got, want, a, 1e-12)
    for kind in (1, 2, 3):
        w, v = tl.eigh(a, b, type=kind)
        ww, _ = sl.eigh(a, b, type=kind)
        close(w, ww)
        bv = b @ v
        if kind == 1:
            close(a @ v, bv * w)
        elif kind == 2:
            close(a @ bv, v * w)
        else:
            close(b @ a @ v, v * w)
        # normalization as LAPACK's: v^H B v = I (type 1, 2), v^H B^-1 v = I (type 3)
        gram = np.conj(v.T) @ (bv if kind != 3 else np.linalg.solve(b, v))
        close(gram, np.eye(6))
    got, want = both("eigh", a, subset_by_index=[2, 4])
    check_eigh(got, want, a, 1e-12)
    w_all = sl.eigvalsh(a)
    lo, hi = (w_all[1] + w_all[2]) / 2, w_all[4]  # (lo, hi] includes w[4]
    got, want = both("eigh", a, subset_by_value=(lo, hi))
    check_eigh(got, want, a, 1e-12)
    close(tl.eigvalsh(a, subset_by_value=(lo, hi)), sl.eigvalsh(a, subset_by_value=(lo, hi)))
    close(tl.eigvalsh(a, b, type=2, driver="gvd"), sl.eigvalsh(a, b, type=2, driver="gvd"))
    for kwargs, match in [({"driver": "xyz"}, "unknown"), ({"driver": "gv"}, "requires input b"),
                          ({"subset_by_index": (3, 1)}, "not valid"), ({"subset_by_value": (2, 1)}, "not valid"),
                          ({"subset_by_index": (0, 1), "subset_by_value": (0, 1)}, "Either index")]:
        with pytest.raises(ValueError, match=match):
            sl.eigh(a, **kwargs)
        with pytest.raises(ValueError, match=match):
            tl.eigh(a, **kwargs)
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        tl.eigh(a, -b)


def test_eig_options(rng):
    a = rng.standard_normal((6, 6))  # real with complex-conjugate eigenvalues
    w, vl, vr = tl.eig(a, left=True)
    ww, vlw, vrw = sl.eig(a, left=True)
    assert vr.dtype == vrw.dtype == np.complex128 and vl.dtype == vlw.dtype
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(ww), rtol=1e-12)
    close(a @ vr, vr * w)
    close(np.conj(vl.T) @ a, w[:, None] * np.conj(vl.T))
    close(np.linalg.norm(vl, axis=0), np.ones(6))
    got, want = both("eig", a, right=False, left=True)
    assert_same_structure(got, want)
    got, want = both("eig", a, homogeneous_eigvals=True)
    assert_same_structure(got, want)
    np.testing.assert_array_equal(got[0][1], np.ones(6))
    got, want = both("eigvals", a, homogeneous_eigvals=True)
    assert_same_structure(got, want)
    sym = a + a.T
    got, want = both("eig", sym, left=True)
    assert_same_structure(got, want)  # real eigenvalues: real eigenvectors
    with pytest.raises(NotImplementedError, match="b"):
        tl.eig(a, a)
    with pytest.raises(NotImplementedError, match="b"):
        tl.eigvals(a, a)


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


NORM_CASES = [
    ({}, (4,)), ({"ord": 1}, (4,)), ({"ord": 0}, (4,)), ({"ord": np.inf}, (4,)), ({"ord": -np.inf}, (4,)),
    ({"ord": 3.5}, (4,)), ({"ord": -1}, (4,)), ({}, (3, 4)), ({"ord": "fro"}, (3, 4)), ({"ord": "nuc"}, (3, 4)),
    ({"ord": 2}, (3, 4)), ({"ord": -2}, (3, 4)), ({"ord": 1}, (3, 4)), ({"ord": -1}, (3, 4)),
    ({"ord": np.inf}, (3, 4)), ({"ord": -np.inf}, (3, 4)), ({"axis": 1}, (3, 4)), ({"axis": -1, "ord": 1}, (3, 4)),
    ({"axis": (2, 0), "ord": 1}, (3, 4, 5)), ({"axis": (0, 2), "ord": np.inf}, (3, 4, 5)),
    ({"axis": (1, 2), "ord": 2, "keepdims": True}, (3, 4, 5)), ({"axis": (1, 0), "ord": "nuc"}, (3, 4, 5)),
    ({"keepdims": True}, (3, 4, 5)), ({"axis": 0, "keepdims": True}, (3, 4)), ({"axis": (0, 1)}, (3, 4, 5)),
]


@pytest.mark.parametrize("kwargs,shape", NORM_CASES)
def test_norm_orders_axes(kwargs, shape, rng):
    for dtype in ("float64", "complex64"):
        a = rect(rng, dtype, *shape) if len(shape) == 2 else vec(rng, dtype, shape[-1], shape[:-1])
        got, want = both("norm", a, **kwargs)
        assert_same_structure(got, want)
        close(got, want, 1e-12 if dtype == "float64" else 2e-6)


def test_norm_errors_like_numpy(rng):
    a3 = rng.standard_normal((2, 3, 4))
    for args, kwargs in [((a3,), {"ord": 2}), ((a3[0, 0],), {"ord": "fro"}), ((a3[0],), {"ord": 3}),
                         ((a3[0],), {"ord": "bad"}), ((a3,), {"axis": (1, 1)}), ((a3[0],), {"axis": 2})]:
        with pytest.raises(ValueError):
            sl.norm(*args, **kwargs)
        with pytest.raises(ValueError):
            tl.norm(*args, **kwargs)


def test_norm_huge_and_tiny_values_do_not_overflow():
    # NumPy's unscaled sum of squares overflows (underflows) here; the exact
    # Frobenius norms are 2e300 and 2e-300, which torchbridge returns.
    big = np.full((2, 2), 1e300)
    with np.errstate(over="ignore"):
        assert np.isinf(sl.norm(big))
    np.testing.assert_allclose(tl.norm(big), 2e300, rtol=1e-15)
    np.testing.assert_allclose(tl.norm(np.full((2, 2), 1e-300)), 2e-300, rtol=1e-15)
    np.testing.assert_allclose(tl.norm(np.array([3e200, 4e200])), sl.norm(np.array([3e200, 4e200])), rtol=1e-15)
    np.testing.assert_allclose(tl.norm(np.array([3e-200, 4e-200]), ord=3), (27 + 64) ** (1 / 3) * 1e-200,
                               rtol=1e-14)


def test_expm_structures_and_dtypes(rng):
    cases = [np.diag([1.0, -2.0, 30.0]), np.triu(rng.standard_normal((5, 5))) * 3,
             np.tril(rng.standard_normal((5, 5))), rng.standard_normal((6, 6)) * 4,
             rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)), np.zeros((3, 3))]
    for a in cases:
        got, want = both("expm", a)
        assert_same_structure(got, want)
        # libtorch's Taylor approximant vs SciPy's Pade: both backward stable;
        # they agree to about 1e-14 relative at these norms (up to 12).
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
    with pytest.raises(NotImplementedError):
        tl.matrix_balance(np.ones((2, 3, 3)))


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


def test_hankel_warns_and_flattens_like_scipy():
    c = np.arange(6).reshape(2, 3)
    with pytest.warns(FutureWarning, match="SciPy 1.19"):
        got = tl.hankel(c, [9, 8])
    with pytest.warns(FutureWarning):
        want = sl.hankel(c, [9, 8])
    np.testing.assert_array_equal(got, want)
    got, want = both("toeplitz", [1 + 1j, 2 - 1j, 3j])  # r defaults to conj(c)
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------------------
# singular input, ill-conditioning, non-finite input, empty input
# ---------------------------------------------------------------------------

SINGULAR = [
    ("solve", (np.zeros((3, 3)), np.ones(3)), {}),
    ("solve", (np.ones((3, 3)), np.ones(3)), {}),
    ("solve", (np.array([[1.0, 2], [2, 1]]), np.ones(2)), {"assume_a": "pos"}),
    ("solve", (np.array([[0.0]]), np.ones(2)), {}),
    ("solve", (np.diag([1.0, 0, 2]), np.ones(3)), {"assume_a": "diagonal"}),
    ("inv", (np.ones((3, 3)),), {}),
    ("inv", (np.diag([1.0, 0.0]),), {"assume_a": "upper triangular"}),
    ("solve_triangular", (np.triu(np.ones((3, 3))) - np.diag([0, 1, 0]), np.ones(3)), {}),
    ("cholesky", (np.array([[1.0, 2], [2, 1]]),), {}),
    ("cho_factor", (-np.eye(3),), {}),
    ("solve_banded", ((1, 1), np.zeros((3, 4)), np.ones(4)), {}),
    ("solveh_banded", (np.array([[0.0, 3, 3], [1, 1, 1]]), np.ones(3)), {}),
    ("cholesky_banded", (np.array([[0.0, 3, 3], [1, 1, 1]]),), {}),
]


@pytest.mark.parametrize("name,args,kwargs", SINGULAR)
def test_singular_input_raises_linalgerror(name, args, kwargs):
    with pytest.raises(np.linalg.LinAlgError) as want:
        getattr(sl, name)(*args, **kwargs)
    with pytest.raises(np.linalg.LinAlgError) as got:
        getattr(tl, name)(*args, **kwargs)
    assert type(got.value) is type(want.value)


def test_ill_conditioned_input_warns():
    h = sl.hilbert(12)
    for name, args in [("solve", (h, np.ones(12))), ("inv", (h,)), ("solve", (h.astype(np.float32) * 1e3, np.ones(12,
                                                                                                         np.float32)))]:
        with pytest.warns(sl.LinAlgWarning):
            want = getattr(sl, name)(*args)
        with pytest.warns(tl.LinAlgWarning, match="ill-conditioned"):
            got = getattr(tl, name)(*args)
        assert got.dtype == want.dtype
    with pytest.warns(tl.LinAlgWarning, match="Diagonal number 2 is exactly zero"):
        lu_, piv = tl.lu_factor(np.ones((3, 3)))
    with pytest.warns(sl.LinAlgWarning):
        lu_w, piv_w = sl.lu_factor(np.ones((3, 3)))
    close(lu_, lu_w)
    np.testing.assert_array_equal(piv, piv_w)
    # well-conditioned input does not warn (warnings are errors in this suite)
    tl.solve(sl.hilbert(4), np.ones(4))


CHECKED = ["solve", "solve_triangular", "inv", "det", "eigh", "eig", "svd", "cholesky", "cho_factor", "lu",
           "lu_factor", "qr", "rq", "lstsq", "pinv", "pinvh", "norm", "null_space", "orthogonal_procrustes",
           "solve_banded", "eigh_tridiagonal", "solve_toeplitz", "matrix_balance"]


@pytest.mark.parametrize("name", CHECKED)
def test_non_finite_input_raises_valueerror(name):
    rng = np.random.default_rng(3)
    args, kwargs = ROUTINES[name][0](rng, "float64")
    bad = list(args)
    first = bad[1] if name == "solve_banded" else bad[0]
    first = np.array(first[0] if isinstance(first, tuple) else first, dtype=float)
    first.flat[1] = np.nan
    if name == "solve_banded":
        bad[1] = first
    elif isinstance(bad[0], tuple):
        bad[0] = (first,) + bad[0][1:]
    else:
        bad[0] = first
    with pytest.raises(ValueError):
        getattr(sl, name)(*bad, **kwargs)
    with pytest.raises(ValueError, match="infs or NaNs"):
        getattr(tl, name)(*bad, **kwargs)
    if name == "cholesky":
        # libtorch's LAPACK (MKL) reports the NaN pivot as "not positive
        # definite"; SciPy's OpenBLAS potrf returns NaNs instead.
        with pytest.raises(np.linalg.LinAlgError):
            tl.cholesky(*bad, check_finite=False)
    if name in ("solve", "inv", "det", "lu", "qr", "solve_triangular"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tl.LinAlgWarning)
            result = getattr(tl, name)(*bad, check_finite=False, **kwargs)
        flat = np.concatenate([np.ravel(r) for r in (result if isinstance(result, tuple) else (result,))])
        assert np.isnan(flat).any()  # the NaN propagates; nothing raised


EMPTY = [
    ("solve", (np.empty((0, 0)), np.empty(0)), {}),
    ("solve", (np.empty((2, 0, 0)), np.empty((2, 0, 3))), {}),
    ("inv", (np.empty((0, 0), dtype=np.float32),), {}),
    ("det", (np.empty((0, 0)),), {}),
    ("det", (np.empty((3, 0, 0), dtype=complex),), {}),
    ("eigh", (np.empty((0, 0)),), {}),
    ("eig", (np.empty((0, 0)),), {}),
    ("svd", (np.empty((0, 3)),), {}),
    ("svd", (np.empty((3, 0)),), {"full_matrices": False}),
    ("cholesky", (np.empty((0, 0), dtype=int),), {}),
    ("lu", (np.empty((0, 3)),), {}),
    ("lu", (np.empty((3, 0)),), {"p_indices": True}),
    ("lu_factor", (np.empty((0, 0)),), {}),
    ("qr", (np.empty((0, 3)),), {}),
    ("qr", (np.empty((3, 0)),), {"mode": "economic"}),
    ("rq", (np.empty((3, 0)),), {}),
    ("lstsq", (np.empty((0, 3)), np.empty(0)), {}),
    ("lstsq", (np.empty((3, 0)), np.ones((3, 2))), {}),
    ("pinv", (np.empty((0, 3)),), {}),
    ("norm", (np.empty((0, 3)),), {}),
    ("expm", (np.empty((0, 0)),), {}),
    ("null_space", (np.empty((0, 3)),), {}),
    ("orth", (np.empty((3, 0)),), {}),
    ("toeplitz", (np.empty(0), np.ones(3)), {}),
    ("circulant", (np.empty(0),), {}),
    ("block_diag", (), {}),
    ("block_diag", (np.empty((0, 2)), [[1, 2]]), {}),
    ("fiedler", (np.empty(0),), {}),
    ("cho_solve", ((np.eye(3), False), np.empty((3, 0))), {}),
    ("solve_triangular", (np.eye(3), np.empty((3, 0))), {}),
]


@pytest.mark.parametrize("name,args,kwargs", EMPTY)
def test_empty_input(name, args, kwargs):
    got, want = both(name, *args, **kwargs)
    assert_same_structure(got, want)
    close_all(got, want)


@pytest.mark.parametrize("name,args,kwargs,parameter", [
    ("qr", (np.eye(3),), {"pivoting": True}, "pivoting"),
    ("qr", (np.ones((2, 3, 3)),), {"mode": "raw"}, "mode"),
    ("eig", (np.eye(3), np.eye(3)), {}, "b"),
    ("invhilbert", (15,), {"exact": True}, "n > 14"),
    ("pascal", (35,), {}, "n >= 35"),
    ("invpascal", (35,), {}, "n > 34"),
    ("matrix_balance", (np.ones((2, 3, 3)),), {}, "stack"),
])
def test_unsupported_parameters_are_named(name, args, kwargs, parameter):
    with pytest.raises(NotImplementedError, match=parameter):
        getattr(tl, name)(*args, **kwargs)


def test_inputs_are_never_written(rng):
    a = hpd(rng)
    a.flags.writeable = False
    snapshot = a.copy()
    for name in ("solve", "inv", "cholesky", "cho_factor", "lu", "lu_factor", "qr", "eigh", "svd", "expm",
                 "matrix_balance", "cholesky_banded"):
        band = np.vstack([np.full(N, 0.5), np.full(N, 4.0)])
        band.flags.writeable = False
        args = (a, a) if name == "solve" else (band,) if name == "cholesky_banded" else (a,)
        result = getattr(tl, name)(*args)
        first = result[0] if isinstance(result, tuple) else result
        assert not np.shares_memory(np.asarray(first), args[0])
    np.testing.assert_array_equal(a, snapshot)


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


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=2, max_side=6),
                  elements=st.one_of(st.floats(-1e100, 1e100), st.sampled_from([np.nan, np.inf, -np.inf, -0.0]))),
       st.sampled_from([None, 1, 2, np.inf, -np.inf, 0.5, "fro"]))
def test_norm_any_float64(x, ord):
    if ord == "fro" and x.ndim == 1:
        ord = None
    if x.ndim == 2 and ord in (0.5,):
        ord = 1
    # NumPy's unscaled sums of squares under/overflow for tiny/huge entries:
    # the reference is SciPy's norm of x scaled by a power of 2 (exact), the
    # true norm, which torchbridge returns.
    finite = np.abs(x[np.isfinite(x)])
    m = 2.0 ** np.floor(np.log2(finite.max())) if finite.size and finite.max() > 0 else 1.0
    if ord in (0, 1, np.inf, -np.inf):
        # Sums of |x| (at most 6 entries of at most 1e100), maxima, minima and
        # counts cannot overflow: no scaling, which would push tiny entries
        # into subnormals (x = [4.5e15, 1.1e-308] or [[4.2e6], [9.2e-305]],
        # ord=-inf).
        m = 1.0
    with np.errstate(all="ignore"):
        try:
            want = sl.norm(x / m, ord=ord, check_finite=False) * (m if ord != 0 else 1)
        except (ValueError, np.linalg.LinAlgError):
            return  # NumPy's SVD refuses non-finite input for ord=2
    got = tl.norm(x, ord=ord, check_finite=False)
    np.testing.assert_allclose(got, want, rtol=1e-13, equal_nan=True)


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64", "int8", "bool"])
def test_constructors_keep_every_integer_dtype_exactly(dtype):
    # libtorch has few uint16/32/64 kernels: torchbridge rearranges their bits
    # as signed integers; values (and NumPy's wraparound in fiedler) must survive.
    v = np.array([1, 60000, 3, 2**15 + 5, 7]).astype(dtype)
    m = (np.arange(25).reshape(5, 5) % 3).astype(dtype)
    cases = [("toeplitz", (v,)), ("toeplitz", (v, v[:3])), ("circulant", (v,)), ("hankel", (v, v[:3])),
             ("block_diag", (m, m[:2])), ("khatri_rao", (m, m)), ("leslie", (v, v[:4])), ("diagsvd", (v[:3], 3, 5)),
             ("convolution_matrix", (v, 3)), ("convolution_matrix", (v, 7, "same"))]
    if dtype != "bool":
        cases.append(("fiedler", (v,)))
    for name, args in cases:
        got, want = both(name, *args)
        assert_same_structure(got, want)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1e150, 1e300, -0.0])
def test_extreme_magnitudes(scale, rng):
    a = general(rng) * scale if scale != -0.0 else np.diag([-0.0, 1.0, 2.0, 3.0, 4.0]) + np.eye(5)
    with np.errstate(all="ignore"):
        for name, args in [("det", (a,)), ("inv", (a,)), ("solve", (a, np.ones(N))), ("eigvalsh", (a + a.T,)),
                           ("svdvals", (a,)), ("norm", (a,)), ("expm", (a / max(abs(scale), 1.0),))]:
            want = getattr(sl, name)(*args)
            if name == "norm" and scale in (1e-300, 1e300):
                # NumPy's unscaled sum of squares underflows to 0 (overflows to
                # inf) here; the true
                # norm (SciPy's norm of the rescaled matrix) is what torchbridge returns.
                want = np.float64(sl.norm(a / scale) * scale)
            got = getattr(tl, name)(*args)
            assert_same_structure(got, want)
            if name == "det":
                # det overflows to inf (underflows to 0) in both, as float64 must
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
            else:
                # relative to the largest entry: inverses of 1e-300-scaled
                # matrices reach 1e299, where an absolute 1e-12 means nothing
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize("lib", LIBRARIES)
def test_toeplitz_defaults_conjugate_first_column_in_every_library(lib):
    c = np.array([5 + 1j, 1 - 2j, 0.5j])
    b = np.array([1.0, 2.0, 3.0])
    close(tl.solve_toeplitz(to_library(lib, c), to_library(lib, b)), sl.solve_toeplitz(c, b))
    close(tl.matmul_toeplitz(to_library(lib, c), to_library(lib, b)), sl.matmul_toeplitz(c, b), 1e-14)
    close(tl.toeplitz(to_library(lib, c)), sl.toeplitz(c))
