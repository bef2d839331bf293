"""The compiled faces of scipy.linalg._decomp (eigh, eigvalsh, eig, eigvals,
eigh_tridiagonal, eigvalsh_tridiagonal) against SciPy: each option check's
exception class and message, what SciPy accepts, ``device=``, and the
containers (lists for batches, tuples otherwise, the eigenvalues alone)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import torchbridge.linalg as tl

from .cases import (
    assert_same_on_cpu_device,
    assert_same_structure,
    both,
    check_eigh,
    close,
    containers,
    hpd,
)

N = 4


def _sym(batch=()):
    rng = np.random.default_rng(11)
    a = rng.standard_normal(batch + (N, N))
    return a + np.swapaxes(a, -1, -2)


def _spd(batch=()):
    rng = np.random.default_rng(12)
    a = rng.standard_normal(batch + (N, N))
    return a @ np.swapaxes(a, -1, -2) + N * np.eye(N)


def _general(batch=()):
    rng = np.random.default_rng(13)
    return rng.standard_normal(batch + (N, N)) + 2 * N * np.eye(N)


def _d(batch=()):
    return np.random.default_rng(14).standard_normal(batch + (N,))


def _e(batch=()):
    return np.random.default_rng(15).standard_normal(batch + (N - 1,))


def _raised(f, *args, **kwargs):
    with pytest.raises(Exception) as info:
        f(*args, **kwargs)
    return info.value


# (routine, args, kwargs): SciPy raises; ours must raise the same class
# (or a subclass) with the same message.
REFUSED = [
    ("eigh", (_sym(),), {"driver": "xyz"}),
    ("eigh", (_sym(),), {"driver": 5}),
    ("eigh", (_sym(),), {"driver": ""}),
    ("eigvalsh", (_sym(),), {"driver": "xyz"}),
    ("eigh", (_sym(), _spd()), {"type": 4}),
    ("eigh", (_sym(), _spd()), {"type": 0}),
    ("eigvalsh", (_sym(), _spd()), {"type": 4}),
    ("eigh", (_sym(),), {"subset_by_index": (3, 1)}),
    ("eigh", (_sym(),), {"subset_by_index": (0, N)}),
    ("eigh", (_sym(),), {"subset_by_index": (-1, 2)}),
    ("eigh", (_sym(),), {"subset_by_index": (0, 1, 2)}),
    ("eigh", (_sym(),), {"subset_by_index": (0,)}),
    ("eigh", (_sym(),), {"subset_by_value": (2, 1)}),
    ("eigh", (_sym(),), {"subset_by_value": (2.5, 2.5)}),
    ("eigh", (_sym(),), {"subset_by_value": (np.nan, 1.0)}),
    ("eigh", (_sym(),), {"subset_by_value": (0, 1, 2)}),
    ("eigvalsh", (_sym(),), {"subset_by_value": (1.0, -1.0)}),
    ("eigh", (_sym(),), {"subset_by_index": (0, 1), "subset_by_value": (0, 1)}),
    ("eigh", (_sym(),), {"driver": "gv"}),
    ("eigh", (_sym(),), {"driver": "gvx"}),
    ("eigh", (_sym(), _spd()), {"driver": "ev"}),
    ("eigh", (_sym(), _spd()), {"driver": "evr"}),
    ("eigh", (_sym(),), {"driver": "evd", "subset_by_index": (0, 1)}),
    ("eigh", (_sym(),), {"driver": "ev", "subset_by_value": (-1, 1)}),
    ("eigh", (_sym(), _spd()), {"driver": "gvd", "subset_by_index": (0, 1)}),
    ("eigh", (_sym(),), {"driver": "ev", "subset_by_index": ()}),  # given, though empty: a subset to SciPy
    ("eigh", (np.ones((3, 4)),), {}),
    ("eigh", (_sym(), np.eye(3)), {}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "x"}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": None}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": 3}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "v"}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "v", "select_range": None}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "v", "select_range": (1, 0)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "v", "select_range": (0, 1, 2)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "v", "select_range": [[0, 1]]}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "i", "select_range": (0.0, 2.0)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "i", "select_range": (True, True)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "i", "select_range": (0, N)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "i", "select_range": (-1, 2)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "I", "select_range": (2, 1)}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": 5}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": None}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": "xyz"}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": "sterf"}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": "sterf", "select": "v", "select_range": (-1, 1)}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": "stev", "select": "i", "select_range": (0, 1)}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": "stevd", "select": "value", "select_range": (-1, 1)}),
    ("eigvalsh_tridiagonal", (_d(), _e()), {"select": "x"}),
    ("eigvalsh_tridiagonal", (_d(), _e()), {"lapack_driver": b"auto"}),
    ("eigvalsh_tridiagonal", (_d(), _e()), {"lapack_driver": "stev", "select": "v", "select_range": (-1, 1)}),
    ("eigh_tridiagonal", (_d(), _e()[:-1]), {}),
    ("eigh", (_sym(),), {"subset_by_value": np.array([-1.0, 1.0])}),  # its truth value is ambiguous
    ("eigh_tridiagonal", (_d(), _e()), {"select": "i", "select_range": np.array([1, 2], dtype=np.uint8)}),
]


@pytest.mark.parametrize("name,args,kwargs", REFUSED)
def test_refusals_match_scipy(name, args, kwargs):
    want = _raised(getattr(sl, name), *args, **kwargs)
    got = _raised(getattr(tl, name), *args, **kwargs)
    assert isinstance(got, type(want)), (got, want)
    assert str(got) == str(want)


# (routine, args, kwargs): SciPy accepts; so must we, with the same values
ACCEPTED = [
    ("eigh", (_sym(),), {"type": 4}),  # `type` is read for the generalized problem only
    ("eigh", (_sym(),), {"driver": None}),
    ("eigh", (_sym(),), {"driver": "evr", "subset_by_index": (1, 2)}),
    ("eigh", (_sym(),), {"driver": "evx", "subset_by_value": (-1.0, 1.0)}),
    ("eigh", (_sym(), _spd()), {"driver": "gvx", "subset_by_index": [0, 1]}),
    ("eigh", (_sym(), _spd()), {"driver": "gv", "type": 2}),
    ("eigh", (_sym(),), {"subset_by_index": (np.int64(1), 3.0)}),
    ("eigh", (_sym(),), {"subset_by_index": (0, N - 1)}),
    ("eigh", (_sym(),), {"subset_by_value": (-np.inf, np.inf)}),
    ("eigh", (_sym(),), {"subset_by_index": None, "subset_by_value": (-1, 1)}),
    ("eigh", (_sym(),), {"subset_by_index": (), "subset_by_value": (-1, 1)}),  # an empty index subset is none
    ("eigh", (_sym(),), {"eigvals_only": True, "lower": False}),
    ("eigvalsh", (_sym(), _spd()), {"type": 3, "driver": "gvd"}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "A"}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": 0}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": 1.0, "select_range": (-1, 1)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": True, "select_range": [-1.0, 1.0]}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "index", "select_range": np.array([1, 2], dtype=np.int16)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": 2, "select_range": (0, N - 1)}),
    ("eigh_tridiagonal", (_d(), _e()), {"select": "All", "select_range": "ignored"}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": "stebz", "select": "v", "select_range": (-1, 1)}),
    ("eigh_tridiagonal", (_d(), _e()), {"lapack_driver": "stemr", "tol": 1e-3}),
    ("eigh_tridiagonal", (_d(), _e()), {"eigvals_only": True, "lapack_driver": "sterf"}),
    ("eigvalsh_tridiagonal", (_d(), _e()), {"lapack_driver": "sterf"}),
    ("eigvalsh_tridiagonal", (_d(), _e()), {"select": "i", "select_range": (1, 1)}),
    ("eig", (_general(),), {"left": True, "right": False}),
    ("eig", (_general(),), {"left": False, "right": False}),
    ("eigvals", (_general(),), {"homogeneous_eigvals": True}),
]


def _values(x):
    """What is unique in a result: eigenvalues (sorted), shapes of the rest."""
    if isinstance(x, (tuple, list)):
        return [_values(x[0])] + [np.shape(v) for v in x[1:]]
    x = np.asarray(x)
    return np.sort_complex(x.ravel()).reshape(x.shape) if x.ndim == 1 else x


@pytest.mark.parametrize("name,args,kwargs", ACCEPTED)
def test_options_scipy_accepts(name, args, kwargs):
    want = getattr(sl, name)(*args, **kwargs)
    got = getattr(tl, name)(*args, **kwargs)
    assert type(got) is type(want)
    got_values, want_values = _values(got), _values(want)
    if isinstance(want_values, list):
        assert got_values[1:] == want_values[1:]
        got_values, want_values = got_values[0], want_values[0]
    np.testing.assert_allclose(got_values, want_values, rtol=1e-10, atol=1e-10)


def test_complex_tridiagonal_is_a_type_error():
    # SciPy's TypeError, worded as torchbridge's DtypeError
    with pytest.raises(TypeError, match="Only real arrays currently supported"):
        tl.eigh_tridiagonal(_d() + 0j, _e())


def test_select_unhashable_is_invalid():
    # SciPy lets the dictionary lookup's TypeError escape; torchbridge says what is wrong
    with pytest.raises(ValueError, match="invalid argument for select"):
        tl.eigh_tridiagonal(_d(), _e(), select=["a"])


# the generalized problem (b given): tests/python/linalg/test_decomp_qz.py


# (routine, args(batch shape), kwargs)
CONTAINERS = [
    ("eigh", lambda b: (_sym(b),), {}),
    ("eigh", lambda b: (_sym(b), _spd(b)), {}),
    ("eigh", lambda b: (_sym(b),), {"eigvals_only": True}),
    ("eigh", lambda b: (_sym(b),), {"subset_by_index": (1, 2)}),
    ("eigvalsh", lambda b: (_sym(b),), {}),
    ("eig", lambda b: (_general(b),), {}),
    ("eig", lambda b: (_general(b),), {"left": True}),
    ("eig", lambda b: (_general(b),), {"left": True, "right": False}),
    ("eig", lambda b: (_general(b),), {"right": False}),
    ("eig", lambda b: (_general(b),), {"homogeneous_eigvals": True}),
    ("eigvals", lambda b: (_general(b),), {}),
    ("eigh_tridiagonal", lambda b: (_d(b), _e(b)), {}),
    ("eigh_tridiagonal", lambda b: (_d(b), _e()), {"select": "i", "select_range": (0, 1)}),
    ("eigh_tridiagonal", lambda b: (_d(b), _e(b)), {"eigvals_only": True}),
    ("eigvalsh_tridiagonal", lambda b: (_d(b), _e(b)), {}),
]


@pytest.mark.parametrize("batch", [(), (3,), (2, 1)])
@pytest.mark.parametrize("name,args,kwargs", CONTAINERS)
def test_containers_match_scipy(name, args, kwargs, batch):
    want = getattr(sl, name)(*args(batch), **kwargs)
    got = getattr(tl, name)(*args(batch), **kwargs)
    assert containers(got) == containers(want)


@pytest.mark.parametrize("name,args", [
    ("eigh", (np.zeros((0, N, N)),)),
    ("eigvalsh", (np.zeros((0, N, N)),)),
    ("eig", (np.zeros((2, 0, N, N)),)),
    ("eigvals", (np.zeros((0, N, N)),)),
    ("eigh_tridiagonal", (np.zeros((0, N)), np.zeros(N - 1))),
    ("eigvalsh_tridiagonal", (np.zeros((0, N)), np.zeros(N - 1))),
])
def test_zero_size_batches_name_the_routine(name, args):
    want = _raised(getattr(sl, name), *args)
    got = _raised(getattr(tl, name), *args)
    assert isinstance(got, ValueError) and isinstance(want, ValueError)
    assert str(got) == str(want)


# every routine with device="cpu": the same result as without
ON_CPU = [
    ("eigh", (_sym(),), {}),
    ("eigh", (_sym(), _spd()), {"type": 2}),
    ("eigvalsh", (_sym(),), {"subset_by_index": (0, 1)}),
    ("eig", (_general(),), {"left": True}),
    ("eigvals", (_general(),), {}),
    ("eigh_tridiagonal", (_d(), _e()), {}),
    ("eigvalsh_tridiagonal", (_d(), _e()), {"select": "v", "select_range": (-1, 1)}),
]



@pytest.mark.parametrize("name,args,kwargs", ON_CPU)
def test_device_cpu(name, args, kwargs):
    assert_same_on_cpu_device(name, args, kwargs)


def test_device_checked_with_options():
    # an option refused on a device is refused as without one
    with pytest.raises(ValueError, match="unknown"):
        tl.eigh(_sym(), driver="xyz", device="cpu")
    with pytest.raises(ValueError, match="select_range out of bounds"):
        tl.eigh_tridiagonal(_d(), _e(), select="i", select_range=(0, N), device="cpu")


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
    # the generalized problem (b given): test_decomp_qz.py
    got, want = (np.sort_complex(np.round(w, 8)) for w in (tl.eigvals(a, np.eye(6)), sl.eigvals(a)))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
