"""The compiled faces of scipy.linalg._decomp_svd (svd, svdvals, diagsvd,
orth, null_space, subspace_angles) against SciPy: the ``lapack_driver``
checks' exception classes and messages, ``device=``, and the containers
(lists for batches, tuples otherwise, the singular values alone)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import torchbridge.linalg as tl

from .cases import assert_same_on_cpu_device, containers


def _rect(batch=(), m=5, n=3):
    return np.random.default_rng(21).standard_normal(batch + (m, n))


def _raised(f, *args, **kwargs):
    with pytest.raises(Exception) as info:
        f(*args, **kwargs)
    return info.value


REFUSED = [
    ("svd", (_rect(),), {"lapack_driver": 1}),
    ("svd", (_rect(),), {"lapack_driver": None}),
    ("svd", (_rect(),), {"lapack_driver": b"gesdd"}),
    ("svd", (_rect(),), {"lapack_driver": "gesvx"}),
    ("svd", (_rect(),), {"lapack_driver": "GESDD"}),
    ("svd", (_rect(),), {"compute_uv": False, "lapack_driver": ""}),
    ("null_space", (_rect(m=3, n=5),), {"lapack_driver": 1}),
    ("null_space", (_rect(m=3, n=5),), {"lapack_driver": None}),
    ("null_space", (_rect(m=3, n=5),), {"lapack_driver": "gelsd"}),
    ("subspace_angles", (_rect(m=5), _rect(m=4)), {}),
]


@pytest.mark.parametrize("name,args,kwargs", REFUSED)
def test_refusals_match_scipy(name, args, kwargs):
    want = _raised(getattr(sl, name), *args, **kwargs)
    got = _raised(getattr(tl, name), *args, **kwargs)
    assert isinstance(got, type(want)), (got, want)
    assert str(got) == str(want)


@pytest.mark.parametrize("name,kwargs", [
    ("svd", {"lapack_driver": "gesvd"}),
    ("svd", {"lapack_driver": "gesdd", "full_matrices": False}),
    ("svd", {"lapack_driver": np.str_("gesvd"), "compute_uv": False}),
    ("null_space", {"lapack_driver": "gesvd"}),
    ("null_space", {"rcond": 0.5}),
])
def test_drivers_scipy_accepts(name, kwargs):
    a = _rect(m=3, n=5)
    want = getattr(sl, name)(a, **kwargs)
    got = getattr(tl, name)(a, **kwargs)
    assert type(got) is type(want)
    if name == "svd" and isinstance(want, tuple):
        assert [np.shape(g) for g in got] == [np.shape(w) for w in want]
        np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    elif name == "svd":
        np.testing.assert_allclose(got, want, rtol=1e-12)
    else:
        assert got.shape == want.shape



CONTAINERS = [
    ("svd", lambda b: (_rect(b),), {}),
    ("svd", lambda b: (_rect(b),), {"full_matrices": False}),
    ("svd", lambda b: (_rect(b),), {"compute_uv": False}),
    ("svdvals", lambda b: (_rect(b),), {}),
    ("diagsvd", lambda b: (np.arange(1.0, 4.0) + np.zeros(b + (3,)), 4, 3), {}),
    ("orth", lambda b: (_rect(b),), {}),
    ("null_space", lambda b: (_rect(b, 3, 5),), {}),
    ("subspace_angles", lambda b: (_rect(b, 5, 2), _rect((), 5, 3)), {}),
]


@pytest.mark.parametrize("batch", [(), (3,), (2, 1)])
@pytest.mark.parametrize("name,args,kwargs", CONTAINERS)
def test_containers_match_scipy(name, args, kwargs, batch):
    want = getattr(sl, name)(*args(batch), **kwargs)
    got = getattr(tl, name)(*args(batch), **kwargs)
    assert containers(got) == containers(want)


@pytest.mark.parametrize("name,args", [
    ("svd", (np.zeros((0, 3, 3)),)),
    ("svdvals", (np.zeros((0, 3, 3)),)),
    ("diagsvd", (np.zeros((0, 3)), 3, 3)),
    ("orth", (np.zeros((2, 0, 3, 3)),)),
    ("null_space", (np.zeros((0, 3, 3)),)),
    ("subspace_angles", (np.zeros((0, 3, 2)), np.ones((3, 2)))),
])
def test_zero_size_batches_name_the_routine(name, args):
    want = _raised(getattr(sl, name), *args)
    got = _raised(getattr(tl, name), *args)
    assert isinstance(got, ValueError) and isinstance(want, ValueError)
    assert str(got) == str(want)


ON_CPU = [
    ("svd", (_rect(),), {}),
    ("svd", (_rect(),), {"compute_uv": False, "lapack_driver": "gesvd"}),
    ("svdvals", (_rect(),), {}),
    ("diagsvd", (np.arange(1.0, 4.0), 4, 3), {}),
    ("orth", (_rect(),), {"rcond": 1e-3}),
    ("null_space", (_rect(m=3, n=5),), {"lapack_driver": "gesvd"}),
    ("subspace_angles", (_rect(m=5, n=2), _rect(m=5, n=3)), {}),
]



@pytest.mark.parametrize("name,args,kwargs", ON_CPU)
def test_device_cpu(name, args, kwargs):
    assert_same_on_cpu_device(name, args, kwargs)


def test_driver_checked_before_the_input():
    # SciPy checks lapack_driver first: a bad driver wins over a bad matrix
    with pytest.raises(TypeError, match="lapack_driver must be a string"):
        tl.svd(np.ones(3), lapack_driver=1)
    with pytest.raises(ValueError, match='not "x"'):
        tl.null_space(np.ones(3), lapack_driver="x", device="cpu")
