"""The round-trip matrix: dtype x library x layout through apply(identity)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DTYPES, LIBRARIES, dtype_name, library_type, to_library, to_numpy

import torchbridge as tb

LAYOUTS = ["contiguous", "transposed", "stepped", "negative", "zero_d", "zero_size"]


def make(dtype: str, layout: str, rng) -> np.ndarray:
    np_dtype = "float32" if dtype == "bfloat16" else dtype
    base = (rng.standard_normal((6, 8)) * 50).astype(np_dtype) if dtype != "bool" else rng.random((6, 8)) > 0.5
    if np_dtype.startswith("complex"):
        base = base + 1j * base[::-1]
    return {
        "contiguous": base,
        "transposed": base.T,
        "stepped": base[::2, 1::3],
        "negative": base[::-1, ::-2],
        "zero_d": base[2, 3].reshape(()),
        "zero_size": base[:0, ::3],
    }[layout]


def to_lib_dtype(lib, a, dtype):
    x = to_library(lib, a)
    if dtype == "bfloat16":
        if lib == "torch":
            return x.to(__import__("torch").bfloat16)
        return x.astype("bfloat16")
    return x


CASES = [(lib, dtype, layout) for lib in LIBRARIES for dtype in DTYPES[lib] for layout in LAYOUTS]


@pytest.mark.parametrize(("lib", "dtype", "layout"), CASES)
def test_identity_round_trip(lib, dtype, layout, rng):
    a = make(dtype, layout, rng)
    x = to_lib_dtype(lib, a, dtype)
    expected = to_numpy(x).copy()
    y = tb.apply(lambda t: t, x)
    assert isinstance(y, library_type(lib))
    assert dtype_name(y) == dtype
    assert tuple(y.shape) == tuple(x.shape)
    np.testing.assert_array_equal(to_numpy(y), expected)
    np.testing.assert_array_equal(to_numpy(x), expected)  # the input is untouched


def test_negative_strides_are_copied_and_the_source_is_untouched(rng):
    a = rng.standard_normal(1000)
    x = a[::-1]
    snapshot = a.copy()
    y = tb.apply(lambda t: t.mul_(2), x)  # writes into what torch was given
    np.testing.assert_array_equal(a, snapshot)
    np.testing.assert_array_equal(y, 2 * snapshot[::-1])
    assert not np.shares_memory(y, a)


def test_unaligned_buffers_are_copied_correctly():
    raw = np.arange(101, dtype=np.uint8).tobytes()
    x = np.frombuffer(raw, dtype=np.float64, count=12, offset=1)
    y = tb.apply(lambda t: t.clone(), x)
    np.testing.assert_array_equal(y, x)


def test_fortran_order_and_broadcast_views(rng):
    f = np.asfortranarray(rng.standard_normal((5, 7)))
    np.testing.assert_array_equal(tb.apply(lambda t: t, f), f)
    b = np.broadcast_to(np.arange(4.0), (3, 4))  # zero strides, read-only
    y = tb.apply(lambda t: t + 0, b)
    np.testing.assert_array_equal(y, b)


def test_apply_returns_tuples_lists_named_tuples_and_passes_other_values():
    import torch

    x = np.arange(12.0).reshape(3, 4)
    q, r = tb.apply(torch.linalg.qr, x)
    assert isinstance(q, np.ndarray) and isinstance(r, np.ndarray)
    np.testing.assert_allclose(q @ r, x, atol=1e-12)
    eig = tb.apply(torch.linalg.eigh, x @ x.T)
    assert type(eig).__name__ == "torch.return_types.linalg_eigh" or hasattr(eig, "eigenvalues")
    assert isinstance(eig.eigenvalues, np.ndarray)
    out = tb.apply(lambda t: [t.sum(), (t.shape, 3)], x)
    assert isinstance(out, list) and isinstance(out[0], np.ndarray) and out[1] == ((3, 4), 3)


def test_apply_forwards_keyword_arguments():
    import torch

    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tb.apply(torch.cumsum, x, dim=1), np.cumsum(x, axis=1))


def test_python_scalars_lists_and_tuples_are_numpy():
    import torch

    assert isinstance(tb.apply(lambda t: t * 2, [1.0, 2.0]), np.ndarray)
    assert isinstance(tb.apply(lambda t: t * 2, (1, 2)), np.ndarray)
    r = tb.apply(torch.add, torch.ones(3), 2.0)  # a scalar next to torch stays torch
    assert isinstance(r, torch.Tensor)
