"""scipy.linalg._misc's norm as a compiled builtin: SciPy's result types (a
Python float where its BLAS/LAPACK shortcuts return one), its option
errors, ``device=``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.linalg as sl
import torch

from torchbridge import linalg as tl

RNG = np.random.default_rng(20261203)
M = RNG.standard_normal((3, 4))
V = RNG.standard_normal(5)


def test_norm_is_a_compiled_builtin():
    assert inspect.isbuiltin(tl.norm)
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
