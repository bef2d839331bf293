"""Shared fixtures: the array libraries torchbridge is tested against."""

from __future__ import annotations

import numpy as np
import pytest

import jax

jax.config.update("jax_enable_x64", True)  # int64/float64 arrays stay 64-bit

import array_api_strict  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import torch  # noqa: E402

STRICT_ARRAY = type(array_api_strict.asarray(0))

LIBRARIES = ["numpy", "torch", "jax", "array_api_strict"]

#: dtypes each library can hold and export through DLPack.
DTYPES = {
    "numpy": ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "complex64", "complex128"],
    "torch": ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "bfloat16", "float32", "float64", "complex64", "complex128"],
    "jax": ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "bfloat16", "float32", "float64", "complex64", "complex128"],
    "array_api_strict": ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                         "uint64", "float32", "float64", "complex64", "complex128"],
}


def to_library(lib: str, a: np.ndarray):
    """The numpy array `a` as an array of `lib` (numpy keeps its layout)."""
    if lib == "numpy":
        return a
    if lib == "torch":
        return torch.from_numpy(np.ascontiguousarray(a)).clone()
    if lib == "jax":
        return jnp.asarray(a)
    if lib == "array_api_strict":
        return array_api_strict.asarray(a)
    raise AssertionError(lib)


def to_numpy(x) -> np.ndarray:
    """Any test array (or numpy scalar) as a numpy array, for comparisons."""
    if isinstance(x, torch.Tensor):
        if x.dtype == torch.bfloat16:
            return x.float().numpy()
        if x.dtype in (torch.uint16, torch.uint32, torch.uint64):
            return np.from_dlpack(x)
        return x.numpy()
    if isinstance(x, jax.Array) and x.dtype == jnp.bfloat16:
        return np.asarray(x.astype(jnp.float32))
    if isinstance(x, STRICT_ARRAY):
        return np.asarray(x._array)
    return np.asarray(x)


def library_type(lib: str) -> type:
    return {"numpy": np.ndarray, "torch": torch.Tensor, "jax": jax.Array,
            "array_api_strict": STRICT_ARRAY}[lib]


def dtype_name(x) -> str:
    """The dtype of any test array as a string such as 'float64'."""
    if isinstance(x, torch.Tensor):
        return str(x.dtype).removeprefix("torch.")
    if isinstance(x, STRICT_ARRAY):
        return x._array.dtype.name
    return x.dtype.name


def lib_of(x) -> str:
    for lib in LIBRARIES:
        if isinstance(x, library_type(lib)):
            return lib
    raise AssertionError(type(x))


def data_pointer(x) -> int:
    """The address of the first element, where the library exposes it."""
    if isinstance(x, np.ndarray):
        return x.__array_interface__["data"][0]
    if isinstance(x, torch.Tensor):
        return x.data_ptr()
    if isinstance(x, jax.Array):
        return x.unsafe_buffer_pointer()
    return x._array.__array_interface__["data"][0]


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261201)
