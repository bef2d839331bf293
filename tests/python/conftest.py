"""Shared fixtures: the array libraries torchbridge is tested against."""

from __future__ import annotations

import inspect
import os

import numpy as np
import pytest

# On a GPU, JAX would otherwise reserve most of the device's memory at start,
# leaving little for torch and CuPy in the same test process.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax

jax.config.update("jax_enable_x64", True)  # int64/float64 arrays stay 64-bit

import jax.numpy as jnp  # noqa: E402
import torch  # noqa: E402

try:
    import array_api_strict
except ImportError:  # the GPU machine has none: its cases are then not generated
    array_api_strict = None


class _Absent:
    """Stands in for array-api-strict's array type where it is not installed."""


STRICT_ARRAY = type(array_api_strict.asarray(0)) if array_api_strict else _Absent

LIBRARIES = ["numpy", "torch", "jax"] + (["array_api_strict"] if array_api_strict else [])

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
        x = x.detach().cpu()
        if x.dtype == torch.bfloat16:
            return x.float().numpy()
        if x.dtype in (torch.uint16, torch.uint32, torch.uint64):
            return np.from_dlpack(x)
        return x.numpy()
    if isinstance(x, jax.Array) and x.dtype == jnp.bfloat16:
        return np.asarray(x.astype(jnp.float32))
    if isinstance(x, STRICT_ARRAY):
        return np.asarray(x._array)
    if type(x).__module__.startswith("cupy"):
        return x.get()
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



def with_device(scipy_signature: inspect.Signature) -> inspect.Signature:
    """SciPy's signature with the keyword-only ``device=None`` that every
    torchbridge routine adds (before ``**kwargs``); unchanged where SciPy
    already has a ``device`` parameter (``fftfreq``: the output's device)."""
    parameters = list(scipy_signature.parameters.values())
    if "device" in scipy_signature.parameters:
        return scipy_signature
    device = inspect.Parameter("device", inspect.Parameter.KEYWORD_ONLY, default=None)
    at = len(parameters)
    if parameters and parameters[-1].kind is inspect.Parameter.VAR_KEYWORD:
        at -= 1
    return scipy_signature.replace(parameters=[*parameters[:at], device, *parameters[at:]])


# ---------------------------------------------------------------------------
# GPU: tests marked `gpu` skip, saying why, where these are not available.
# ---------------------------------------------------------------------------


def require_cuda():
    """Skips the test unless libtorch (through torch) sees a CUDA device."""
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device visible")


def require_cupy():
    """CuPy on a visible CUDA device, or a skip naming what is missing."""
    require_cuda()
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed (the GPU machine has it)")
    if cupy.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("CuPy sees no CUDA device")
    return cupy


def require_jax_gpu():
    """A JAX GPU device, or a skip naming what is missing."""
    require_cuda()
    try:
        return jax.devices("gpu")[0]
    except RuntimeError:
        pytest.skip("this JAX has no GPU backend (jax[cuda] is needed)")
