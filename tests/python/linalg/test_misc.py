"""scipy.linalg._misc's norm as a compiled builtin: SciPy's result types (a
Python float where its BLAS/LAPACK shortcuts return one), its option
errors, ``device=``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.linalg as sl
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from torchbridge import linalg as tl

from .cases import (
    assert_same_structure,
    both,
    close,
    rect,
    vec,
)

RNG = np.random.default_rng(20261203)
M = RNG.standard_normal((3, 4))
V = RNG.standard_normal(5)


def test_norm_is_a_compiled_builtin():
    assert inspect.isbuiltin(tl.norm.__wrapped__)
    assert "scipy.linalg.norm" in tl.norm.__doc__
    assert tl.LinAlgError is np.linalg.LinAlgError
    assert issubclass(tl.LinAlgWarning, RuntimeWarning)


CASES = [
    (V, {}), (V, {"ord": 2}), (V, {"ord": 2.0}), (V, {"ord": 1}), (V, {"ord": np.inf}), (V, {"ord": 3}),
    (V.astype(np.float32), {}), (V.astype(np.complex64), {"ord": 2}), (V + 1j, {}), (V.astype(np.float16), {}),
    (V.astype(np.int64), {}), (np.empty(0), {}), (list(V), {}), (tuple(V), {}), ([1, 2, 3], {}),
    ([1.0, 2.0, 3.0], {}), ([1 + 1j, 2], {}), (V, {"axis": 0}), (V, {"keepdims": True}), (V[::2], {}),
    (M, {}), (M, {"ord": 1}), (M, {"ord": np.inf}), (M, {"ord": "fro"}), (M, {"ord": 2}),
    (np.asfortranarray(M), {"ord": 1}), (np.asfortranarray(M), {"ord": np.inf}), (M.T, {"ord": 1}),
    (M[:, ::2], {"ord": 1}), (M[:1], {"ord": 1}), (M[:, :1], {"ord": np.inf}), (M.tolist(), {"ord": 1}),
    (M.astype(np.float32), {"ord": 1}), (M, {"ord": 1, "axis": (0, 1)}), (M, {"ord": 1, "keepdims": True}),
    (M, {"ord": True}), (np.stack([M, M]), {}), (np.float64(3.0), {}), (3.0, {}),
]


@pytest.mark.parametrize("a,kwargs", CASES)
def test_norm_result_types_like_scipy(a, kwargs):
    want = sl.norm(a, **kwargs)
    for got in (tl.norm(a, **kwargs), tl.norm(a, **kwargs, device="cpu")):
        assert type(got) is type(want), (type(got), type(want))
        if isinstance(want, (np.ndarray, np.generic)):
            assert got.dtype == want.dtype and np.shape(got) == np.shape(want)
        np.testing.assert_allclose(got, want, rtol=2e-3 if np.asarray(want).dtype == np.float16 else 1e-6)


def test_norm_of_torch_input_is_a_torch_tensor():
    t = torch.from_numpy(V)
    for got in (tl.norm(t), tl.norm(t, device="cpu"), tl.norm(t, device=torch.device("cpu"))):
        assert isinstance(got, torch.Tensor) and got.dim() == 0
        np.testing.assert_allclose(got.item(), sl.norm(V), rtol=1e-14)


@pytest.mark.parametrize("a,kwargs", [
    (V, {"ord": "fro"}),
    (V, {"ord": "nuc"}),
    (np.ones((2, 3, 4)), {"ord": "fro"}),
    (M, {"ord": "bad"}),
    (M, {"ord": 3}),
    (M, {"axis": (0, 0)}),
    (M, {"axis": 2}),
])
def test_norm_option_errors_like_scipy(a, kwargs):
    with pytest.raises(ValueError) as want:
        sl.norm(a, **kwargs)
    with pytest.raises(ValueError) as got:
        tl.norm(a, **kwargs)
    if isinstance(kwargs.get("ord"), str):
        assert str(got.value) == str(want.value)


def test_norm_axis_must_be_an_integer_or_tuple():
    with pytest.raises(TypeError) as want:
        sl.norm(M, axis=[0, 1])
    with pytest.raises(TypeError) as got:
        tl.norm(M, axis=[0, 1])
    assert str(got.value) == str(want.value) == "'axis' must be None, an integer or a tuple of integers"
    # NumPy takes int(axis) (1.5 -> 1, "0" -> 0); torchbridge takes only
    # integers (operator.index) for a single axis, as it always has.
    for axis in (1.5, "0"):
        with pytest.raises(TypeError, match="'axis' must be None, an integer or a tuple of integers"):
            tl.norm(M, axis=axis)


def test_norm_axis_forms():
    for axis in (1, np.int64(1), (1,), (0, 1), (-1, 0), (np.int64(1), 0)):
        np.testing.assert_allclose(tl.norm(M, axis=axis), sl.norm(M, axis=axis), rtol=1e-14)
    # tuple entries through int(), as torchbridge has always read them (NumPy refuses floats there)
    np.testing.assert_allclose(tl.norm(M, axis=(1.0, 0)), sl.norm(M, axis=(1, 0)), rtol=1e-14)


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


def test_linalg_warning_is_scipys_too():
    """Code written for SciPy (``pytest.warns(scipy.linalg.LinAlgWarning)``,
    a warnings filter on SciPy's class) catches torchbridge's warning."""
    import warnings

    assert issubclass(tl.LinAlgWarning, sl.LinAlgWarning)
    assert tl.LinAlgWarning is tl.LinAlgWarning and tl.LinAlgWarning.__module__ == "torchbridge.linalg"
    singular = np.array([[1.0, 2.0], [2.0, 4.0 + 1e-15]])
    with pytest.warns(sl.LinAlgWarning, match="ill-conditioned") as record:
        tl.solve(singular, np.ones(2))
    assert all(type(w.message) is tl.LinAlgWarning for w in record)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", sl.LinAlgWarning)
        tl.inv(singular)  # silenced by SciPy's filter
