"""The shared inputs, tables and comparison helpers of torchbridge.linalg's
tests against scipy.linalg 1.17: the matrices of every dtype, the routine
tables (ROUTINES, ORDER_ROUTINES, BATCHED), the comparisons.

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

import warnings

import numpy as np
import scipy.linalg as sl
from conftest import to_numpy

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


def unitary(rng, dtype="float64", n=N, batch=()):
    """A unitary (orthogonal) matrix of `dtype`: a random one for the inexact dtypes but float16, a signed
    permutation for the others (exactly representable)."""
    shape = batch + (n, n)
    kind = np.dtype(dtype).kind
    if kind in "fc" and np.dtype(dtype) != np.float16:
        x = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if kind == "c" else 0)
        q, r = np.linalg.qr(x)
        return (q * (np.diagonal(r, 0, -2, -1) / np.abs(np.diagonal(r, 0, -2, -1)))[..., None, :]).astype(dtype)
    perm = np.eye(n)[rng.permutation(n)]
    signs = np.ones(n) if kind in "ub" else rng.choice([-1.0, 1.0], n)
    return np.broadcast_to(perm * signs, shape).astype(dtype)


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


def check_qz(got, want, a, b, rtol):
    """What a generalized Schur form pins down (``qz``'s ``(AA, BB, Q, Z)``, ``ordqz``'s ``(AA, BB, alpha,
    beta, Q, Z)``): ``Q AA Z^H = A``, ``Q BB Z^H = B``, ``Q``, ``Z`` unitary, ``AA``, ``BB`` upper triangular
    with ``BB``'s diagonal real non-negative, the same eigenvalues as SciPy's, the same dtypes; for
    ``ordqz`` the same eigenvalues in the leading (selected) block."""
    got, want = [to_numpy(x) for x in got], [np.asarray(x) for x in want]
    assert [x.dtype for x in got] == [x.dtype for x in want]
    assert [x.shape for x in got] == [x.shape for x in want]
    aa, bb, q, z = (got[0], got[1], got[-2], got[-1])
    a, b = (np.broadcast_to(np.asarray(x, dtype=aa.dtype), aa.shape) for x in (a, b))
    n = a.shape[-1]
    tol = max(rtol, 1e-13) * 10 * n
    h = lambda m: np.conj(np.swapaxes(m, -1, -2))  # noqa: E731
    for x, xx in ((a, aa), (b, bb)):
        np.testing.assert_allclose(q @ xx @ h(z), x, atol=tol * max(1.0, np.abs(x).max()), rtol=0)
        assert not np.tril(xx, -1).any()
    for u in (q, z):
        np.testing.assert_allclose(h(u) @ u, np.broadcast_to(np.eye(n), u.shape), atol=tol, rtol=0)
    d = np.diagonal(bb, 0, -2, -1)
    assert (d.imag == 0).all() and (d.real >= 0).all()

    def eigenvalues(aa, bb):
        """The finite eigenvalues (``beta`` above rounding level), sorted, and how many are infinite."""
        alpha, beta = np.diagonal(aa, 0, -2, -1).reshape(-1, n), np.diagonal(bb, 0, -2, -1).reshape(-1, n)
        big = np.abs(beta) > 1e-8 * np.maximum(np.abs(alpha), 1e-300)
        return [np.sort_complex(np.round(al[f] / be[f], 6)) for al, be, f in zip(alpha, beta, big)], (~big).sum(-1)

    (ours, inf_ours), (theirs, inf_theirs) = eigenvalues(aa, bb), eigenvalues(*want[:2])
    np.testing.assert_array_equal(inf_ours, inf_theirs)
    for g, w in zip(ours, theirs):
        np.testing.assert_allclose(g, w, rtol=tol * 1000, atol=tol * 1000)
    if len(got) == 6:
        np.testing.assert_allclose(got[2], np.diagonal(aa, 0, -2, -1), rtol=0, atol=0)
        np.testing.assert_allclose(got[3], d, rtol=0, atol=0)


def real_blocks(aa):
    """The starts and sizes of the diagonal blocks of a real generalized Schur form's ``AA``."""
    n, k, blocks = aa.shape[-1], 0, []
    while k < n:
        size = 2 if k + 1 < n and aa[k + 1, k] != 0 else 1
        blocks.append((k, size))
        k += size
    return blocks


def real_form_eigenvalues(aa, bb):
    """The finite eigenvalues of a real generalized Schur form (from its blocks), sorted, and how many are
    infinite (``BB``'s diagonal at rounding level)."""
    finite, infinite = [], 0
    scale = max(np.abs(bb).max(), 1e-300)
    for k, size in real_blocks(aa):
        a2, b2 = aa[k:k + size, k:k + size], bb[k:k + size, k:k + size]
        if size == 2:
            finite.extend(np.linalg.eigvals(np.linalg.solve(b2, a2)))
        elif abs(b2[0, 0]) > 1e-8 * max(abs(a2[0, 0]), 1e-300) and abs(b2[0, 0]) > 1e-13 * scale:
            finite.append(a2[0, 0] / b2[0, 0])
        else:
            infinite += 1
    return np.sort_complex(np.round(np.asarray(finite, dtype=complex), 6)), infinite


def check_qz_real(got, want, a, b, rtol):
    """The real generalized Schur form's contract: ``Q AA Z^T = A``, ``Q BB Z^T = B``, ``Q``, ``Z``
    orthogonal, ``AA`` quasi-upper triangular (2x2 blocks for complex pairs only), ``BB`` upper triangular
    with a non-negative diagonal, diagonal under each 2x2 block, SciPy's eigenvalues and dtypes."""
    got, want = [to_numpy(x) for x in got], [np.asarray(x) for x in want]
    assert [x.dtype for x in got] == [x.dtype for x in want]
    assert [x.shape for x in got] == [x.shape for x in want]
    aa, bb, q, z = (got[0], got[1], got[-2], got[-1])
    a, b = (np.broadcast_to(np.asarray(x, dtype=np.float64), aa.shape) for x in (a, b))
    n = a.shape[-1]
    tol = max(rtol, 1e-13) * 10 * n
    t = lambda m: np.swapaxes(m, -1, -2)  # noqa: E731
    for x, xx in ((a, aa), (b, bb)):
        np.testing.assert_allclose(q @ xx @ t(z), x, atol=tol * max(1.0, np.abs(x).max()), rtol=0)
    for u in (q, z):
        np.testing.assert_allclose(t(u) @ u, np.broadcast_to(np.eye(n), u.shape), atol=tol, rtol=0)
    for aa1, bb1, aa_w, bb_w in zip(aa.reshape(-1, n, n), bb.reshape(-1, n, n), want[0].reshape(-1, n, n),
                                    want[1].reshape(-1, n, n)):
        assert not np.tril(bb1, -1).any() and not np.tril(aa1, -2).any()
        assert (np.diag(bb1) >= 0).all()
        for k, size in real_blocks(aa1):
            if size == 2:
                assert bb1[k, k + 1] == 0 and bb1[k, k] > 0 and bb1[k + 1, k + 1] > 0
                m = np.linalg.solve(bb1[k:k + 2, k:k + 2].astype(np.float64), aa1[k:k + 2, k:k + 2])
                assert np.trace(m) ** 2 - 4 * np.linalg.det(m) < 0  # a complex pair
        (ours, inf_ours), (theirs, inf_theirs) = (real_form_eigenvalues(aa1.astype(np.float64), bb1),
                                                  real_form_eigenvalues(aa_w.astype(np.float64), bb_w))
        assert inf_ours == inf_theirs
        np.testing.assert_allclose(ours, theirs, rtol=tol * 1000, atol=tol * 1000)
    if len(got) == 6:
        alpha, beta = got[2], got[3]
        assert alpha.dtype.kind == "c" and beta.dtype.kind == "f"
        with np.errstate(divide="ignore", invalid="ignore"):
            for al, be, aa1, bb1 in zip(alpha.reshape(-1, n), beta.reshape(-1, n), aa.reshape(-1, n, n),
                                        bb.reshape(-1, n, n)):
                np.testing.assert_allclose(be, np.diag(bb1), rtol=0, atol=0)
                fin = np.abs(be) > 1e-8 * np.maximum(np.abs(al), 1e-300)
                got_w = np.sort_complex(np.round(al[fin] / be[fin], 6))
                np.testing.assert_allclose(got_w, real_form_eigenvalues(aa1.astype(np.float64), bb1)[0],
                                           rtol=tol * 1000, atol=tol * 1000)


COSSIN_P, COSSIN_Q = 2, 3


def check_cossin(got, want, x, rtol):
    """What a CS decomposition pins down (``p, q = COSSIN_P, COSSIN_Q``): ``U CS VDH = X``, ``U`` and ``VDH``
    block-diagonal unitary, ``CS`` SciPy's (its angles), the same dtypes and shapes."""
    got, want = [to_numpy(t) for t in got], [np.asarray(t) for t in want]
    assert [t.dtype for t in got] == [t.dtype for t in want]
    assert [t.shape for t in got] == [t.shape for t in want]
    u, cs, vdh = got
    x = np.broadcast_to(np.asarray(x, dtype=u.dtype), u.shape)
    m = x.shape[-1]
    tol = max(rtol, 1e-13) * 10 * m
    h = lambda t: np.conj(np.swapaxes(t, -1, -2))  # noqa: E731
    np.testing.assert_allclose(u @ cs @ vdh, x, atol=tol, rtol=0)
    for f, k in ((u, COSSIN_P), (vdh, COSSIN_Q)):
        np.testing.assert_allclose(h(f) @ f, np.broadcast_to(np.eye(m), f.shape), atol=tol, rtol=0)
        assert not f[..., :k, k:].any() and not f[..., k:, :k].any()
    np.testing.assert_allclose(cs, want[1], atol=tol * 100, rtol=0)


def check_schur(got, want, a, rtol):
    """What a Schur form pins down: ``Z T Z^H = A``, ``Z`` unitary, ``T`` (quasi-)upper triangular as
    SciPy's, the same eigenvalues, the same dtypes."""
    (t, z), (ts, zs) = [to_numpy(x) for x in got[:2]], want[:2]
    assert t.dtype == ts.dtype and z.dtype == zs.dtype
    a = np.asarray(a, dtype=ts.dtype)
    n = a.shape[-1]
    scale = max(1.0, np.abs(a).max())
    tol = max(rtol, 1e-13) * 10 * n
    np.testing.assert_allclose(z @ t @ np.conj(np.swapaxes(z, -1, -2)), a, atol=tol * scale, rtol=0)
    np.testing.assert_allclose(np.conj(np.swapaxes(z, -1, -2)) @ z, np.broadcast_to(np.eye(n), z.shape), atol=tol,
                               rtol=0)
    complex_form = np.iscomplexobj(ts)
    below = np.tril(t, -1 if complex_form else -2)
    assert not below.any()
    if not complex_form:  # no two consecutive nonzero subdiagonal entries
        sub = np.diagonal(t, -1, -2, -1) != 0
        assert not (sub[..., 1:] & sub[..., :-1]).any()
    np.testing.assert_allclose(sorted_eigenvalues(np.linalg.eigvals(t)), sorted_eigenvalues(np.linalg.eigvals(ts)),
                               atol=tol * scale, rtol=0)


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
    "hessenberg": (lambda rng, dt: ((general(rng, dt),), {"calc_q": True}), None),
    "schur": (lambda rng, dt: ((general(rng, dt),), {}), "schur"),
    "rsf2csf": (lambda rng, dt: (sl.schur(general(rng, dt)), {}), None),
    "qz": (lambda rng, dt: ((general(rng, dt), general(rng, dt)), {}), "qz"),
    "ordqz": (lambda rng, dt: ((general(rng, dt) - (3 * np.eye(N, dtype=dt) if np.dtype(dt).kind in "fc" else 0),
                                general(rng, dt)), {"sort": "lhp"}), "qz"),
    "cossin": (lambda rng, dt: ((unitary(rng, dt),), {"p": COSSIN_P, "q": COSSIN_Q}), "cossin"),
    "cdf2rdf": (lambda rng, dt: (_eig_pairs(rng, dt), {}), None),
    "sqrtm": (lambda rng, dt: ((general(rng, dt),), {}), None),
    "logm": (lambda rng, dt: ((general(rng, dt),), {}), None),
    "signm": (lambda rng, dt: ((general(rng, dt) - (N * np.eye(N) if np.dtype(dt).kind in "fc" else 0),), {}), None),
    "funm": (lambda rng, dt: ((general(rng, dt) / (10 if np.dtype(dt).kind in "fc" else 1), _poly), {}), None),
    "fractional_matrix_power": (lambda rng, dt: ((general(rng, dt), 0.35), {}), None),
    "solve_sylvester": (lambda rng, dt: ((general(rng, dt), general(rng, dt, 3), rect(rng, dt, N, 3)), {}), None),
    "solve_continuous_lyapunov": (lambda rng, dt: ((general(rng, dt), general(rng, dt)), {}), None),
    "solve_discrete_lyapunov": (lambda rng, dt: ((general(rng, dt) / (20 if dt != "bool" else 1),
                                                  general(rng, dt)), {}), None),
    "solve_lyapunov": (lambda rng, dt: ((general(rng, dt), general(rng, dt)), {}), None),
    "fiedler_companion": (lambda rng, dt: ((vec(rng, dt) + (np.array([1, 0, 0, 0, 0], dtype=dt) if dt != "bool"
                                                            else np.array([1, 0, 0, 0, 0], dtype=bool)),), {}), None),
    "cho_solve_banded": (lambda rng, dt: (((band(rng, dt), False), vec(rng, dt)), {}), None),
    "eig_banded": (lambda rng, dt: ((band(rng, dt),), {}), "eig_banded"),
    "eigvals_banded": (lambda rng, dt: ((band(rng, dt),), {}), None),
    "expm_cond": (lambda rng, dt: ((general(rng, dt, 3) / (20 if np.dtype(dt).kind in "fc" else 1),), {}), None),
    "qr_multiply": (lambda rng, dt: ((rect(rng, dt), rect(rng, dt, 3, 6)), {}), None),
    "clarkson_woodruff_transform": (lambda rng, dt: ((rect(rng, dt, 8, 3), 4), {"rng": 7}), None),
    "ldl": (lambda rng, dt: ((symmetric(rng, dt),), {}), None),
    "solve_continuous_are": (lambda rng, dt: (_riccati(rng, dt), {}), None),
    "solve_discrete_are": (lambda rng, dt: (_riccati(rng, dt, 4), {}), None),
    "qr_update": (lambda rng, dt: (_qr_of(rng, dt) + (vec(rng, dt, 6), vec(rng, dt, 4)), {}), None),
    "qr_insert": (lambda rng, dt: (_qr_of(rng, dt) + (vec(rng, dt, 4), 2), {}), None),
    "qr_delete": (lambda rng, dt: (_qr_of(rng, dt) + (1,), {"p": 2}), None),
}


def _qr_of(rng, dt, m=6, n=4):
    """SciPy's full QR factors of a (6, 4) matrix, in `dt` (SciPy's QR updates refuse all but float32/64 and
    complex64/128: the other dtypes check that torchbridge refuses them too)."""
    kind = np.dtype(dt).kind
    a = rect(rng, dt if kind in "fc" else "float64", m, n)
    return tuple(x.astype(dt) for x in sl.qr(a))


def band(rng, dtype="float64", n=N):
    """An upper band (one superdiagonal) of a Hermitian matrix whose diagonal dominates, in band storage."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return np.vstack([rng.random(n) < 0.5, np.ones(n, bool)])
    if kind in "iu":
        return np.vstack([rng.integers(0 if kind == "u" else -2, 3, n), rng.integers(5, 9, n)]).astype(dtype)
    x = rng.standard_normal((2, n)) + np.array([[0.0], [4.0]])
    if kind == "c":
        x = x + 1j * rng.standard_normal((2, n)) * np.array([[1.0], [0.0]])
    return x.astype(dtype)


def symmetric(rng, dtype="float64", n=N):
    """A symmetric (Hermitian for complex) indefinite matrix: Bunch-Kaufman pivots both ways."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        x = rng.random((n, n)) < 0.5
        return x | x.T
    if kind in "iu":
        x = rng.integers(0 if kind == "u" else -20, 21, (n, n))
        return (x + x.T).astype(dtype)
    x = rng.standard_normal((n, n))
    if kind == "c":
        x = x + 1j * rng.standard_normal((n, n))
    return (x + np.conj(x.T)).astype(dtype)


def upper_band_matrix(ab):
    """The Hermitian matrix of upper band storage ``ab`` (``ab[u + i - j, j] = A[i, j]``), both triangles filled."""
    ab = np.asarray(ab)
    n, u = ab.shape[-1], ab.shape[-2] - 1
    full = np.zeros(ab.shape[:-2] + (n, n), dtype=np.result_type(ab.dtype, np.float32))
    for k in range(u + 1):
        full = full + np.apply_along_axis(np.diag, -1, ab[..., u - k, k:], k)
    return hermitian_part(full, lower=False)


def _riccati(rng, dt, shrink=1):
    """(a, b, q, r) of a Riccati equation with a stabilizing solution: (a, b) controllable, q and r definite,
    a with entries of order one (a well-conditioned solution)."""
    kind = np.dtype(dt).kind
    if kind == "b":
        a = rng.random((N, N)) < 0.5
    elif kind in "iu":
        a = rng.integers(0 if kind == "u" else -2, 3, (N, N)).astype(dt)
    else:
        a = rng.standard_normal((N, N)) + (1j * rng.standard_normal((N, N)) if kind == "c" else 0)
        a = (a / shrink).astype(dt)
    return a, rect(rng, dt, N, 2), hpd(rng, dt), hpd(rng, dt, 2)


def _poly(x):
    """funm's function in the tests: any container's arithmetic (funm hands it the caller's array type)."""
    return 1 + x + x * x / 2 + x * x * x / 6


def _eig_pairs(rng, dt):
    """Eigenpairs of a real matrix with two complex conjugate pairs, in SciPy's order."""
    a = np.array([[1.0, 2, 0, 0, 0], [-2, 1, 0, 0, 0], [0, 0, 3, 0, 0], [0, 0, 0, 1, 5], [0, 0, 0, -5, 1]])
    a = a + 0.1 * rng.standard_normal((N, N))
    w, v = sl.eig(a)
    if np.dtype(dt).kind == "c":
        return w.astype(dt), v.astype(dt)
    return w, v

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
    # SciPy's single precision logm: its Schur form in float32, a float64 result about 1e-4 off;
    # torchbridge computes in float64 throughout.
    ("logm", "float32"): "float64",
    ("logm", "float16"): "float64",
    ("logm", "complex64"): "complex128",
    # SciPy's kron(a, conj(a)) in float16 before its float64 solve
    ("solve_discrete_lyapunov", "float16"): "float64",
    # SciPy negates q (and a) in uint8 with wraparound before its float64 pencil
    ("solve_continuous_are", "uint8"): "int16",
    ("solve_discrete_are", "uint8"): "int16",
}

#: Routines whose result SciPy computes by another algorithm (the Riccati solvers: ordered QZ there, an
#: ordered Schur form here): the solution is unique, the two agree to its condition number times eps.
ROUTINE_RTOL = {"solve_continuous_are": 1e-9, "solve_discrete_are": 1e-9}


def _call(module, name, args, kwargs):
    with warnings.catch_warnings():
        # SciPy 1.17 warns when hankel gets >1-D input, never here; keep
        # pytest's "warnings are errors" for everything else.
        return getattr(module, name)(*args, **kwargs)


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
    elif compare == "schur":
        check_schur(got, want, args[0], rtol)
    elif compare == "qz":
        # output='real' (the default) gives the real form for real input, the complex form otherwise
        complex_form = np.iscomplexobj(to_numpy(got[0]))
        (check_qz if complex_form else check_qz_real)(got, want, args[0], args[1], rtol)
    elif compare == "cossin":
        check_cossin(got, want, args[0], rtol)
    elif compare == "eig_banded":
        check_eigh(got, want, upper_band_matrix(args[0]), rtol)
    else:
        raise AssertionError(compare)


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
        "hessenberg": lambda r: ((general(r, f, batch=B),), {"calc_q": True}),
        "schur": lambda r: ((general(r, f, batch=B),), {"output": "complex"}),
        "qz": lambda r: ((general(r, f, batch=B), general(r, f)), {}),
        "cossin": lambda r: ((unitary(r, f, batch=B),), {"p": COSSIN_P, "q": COSSIN_Q}),
        "ordqz": lambda r: ((general(r, f, batch=B) - 3 * np.eye(N), general(r, f, batch=B)),
                            {"output": "complex", "sort": "iuc"}),
        "rsf2csf": lambda r: (tuple(np.stack(x) for x in zip(*[sl.schur(r.standard_normal((N, N))) for _ in B * 3])),
                              {}),
        "cdf2rdf": lambda r: (tuple(np.stack(x) for x in zip(*[_eig_pairs(r, f) for _ in range(3)])), {}),
        "sqrtm": lambda r: ((general(r, f, batch=B),), {}),
        "logm": lambda r: ((general(r, f, batch=B),), {}),
        "signm": lambda r: ((general(r, f, batch=B) - N * np.eye(N),), {}),
        "funm": lambda r: ((general(r, f, batch=B) / 10, _poly), {}),
        "fractional_matrix_power": lambda r: ((general(r, f, batch=B), -0.6), {}),
        "solve_sylvester": lambda r: ((general(r, f, batch=B), general(r, f, 3), rect(r, f, N, 3)), {}),
        "solve_continuous_lyapunov": lambda r: ((general(r, f, batch=B), general(r, f)), {}),
        "solve_discrete_lyapunov": lambda r: ((general(r, f, batch=B) / 20, general(r, f)), {}),
        "solve_lyapunov": lambda r: ((general(r, f, batch=B), general(r, f)), {}),
        "matrix_balance": lambda r: ((general(r, f, batch=B) * np.array([1, 100, 1e-2, 1, 1e3]),), {"separate": True}),
        "fiedler_companion": lambda r: ((vec(r, f, batch=B) + np.array([3, 0, 0, 0, 0]),), {}),
        "cho_solve_banded": lambda r: (((np.stack([band(r, f) for _ in B * 3]), False), vec(r, f)), {}),
        "eig_banded": lambda r: ((np.stack([band(r, "complex128") for _ in B * 3]),), {"lower": False}),
        "eigvals_banded": lambda r: ((np.stack([band(r, f) for _ in B * 3]),), {"select": "i", "select_range": (1, 3)}),
        "qr_multiply": lambda r: ((rect(r, f, batch=B), rect(r, f, 4, 3)), {"mode": "left"}),
        "clarkson_woodruff_transform": lambda r: ((rect(r, f, 8, 3, batch=B), 4), {"rng": 11}),
        "ldl": lambda r: ((np.stack([symmetric(r, f) for _ in B * 3]),), {"lower": False}),
        "solve_continuous_are": lambda r: ((general(r, f, batch=B), rect(r, f, N, 2), hpd(r, f), hpd(r, f, 2)), {}),
        "solve_discrete_are": lambda r: ((general(r, f, batch=B) / 20, rect(r, f, N, 2), hpd(r, f), hpd(r, f, 2)),
                                         {}),
    }


BATCHED = _batched_cases()


# ---------------------------------------------------------------------------
# calling both libraries alike
# ---------------------------------------------------------------------------


def both(name, *args, **kwargs):
    return _call(tl, name, args, kwargs), _call(sl, name, args, kwargs)


def containers(x):
    """The container types and shapes of a result, nested (lists for SciPy's batches, tuples otherwise)."""
    if isinstance(x, (tuple, list)):
        return type(x), [containers(v) for v in x]
    return type(x), np.shape(x)


def assert_same_on_cpu_device(name, args, kwargs):
    """``device="cpu"`` gives what the call without it gives: the same containers, numpy arrays, values."""
    want = getattr(tl, name)(*args, **kwargs)
    got = getattr(tl, name)(*args, **kwargs, device="cpu")
    assert containers(got) == containers(want)

    def flat(x):
        return [np.asarray(v) for v in x] if isinstance(x, (tuple, list)) else [np.asarray(x)]

    for g, w in zip(flat(got), flat(want)):
        assert type(g) is np.ndarray
        np.testing.assert_array_equal(g, w)
