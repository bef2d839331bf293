"""JAX arrays in and out through jaxlib's own DLPack functions
(``torchbridge._jax``): the same arrays the public ``__dlpack__`` and
``jax.numpy.from_dlpack`` give, zero-copy, and the public path wherever the
direct one would differ (several devices, x64 off)."""

import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import torch
from scipy import special as sp

import torchbridge as tb
from torchbridge import _jax


def test_exchange_is_taken_on_a_single_cpu_device():
    assert jax.devices() == [jax.devices("cpu")[0]]  # this suite's JAX: one CPU device
    assert _jax.exchange() is not None


def test_build_is_from_dlpack_zero_copy():
    _, build = _jax.exchange()
    t = torch.arange(6.0, dtype=torch.float64).reshape(2, 3)
    ours, public = build(t.__dlpack__()), jnp.from_dlpack(t)
    assert ours.unsafe_buffer_pointer() == t.data_ptr()  # the tensor's memory itself
    for attribute in ("dtype", "shape", "weak_type", "committed", "sharding"):
        assert getattr(ours, attribute) == getattr(public, attribute), attribute
    np.testing.assert_array_equal(ours, public)


def test_export_is_dunder_dlpack_zero_copy():
    export, _ = _jax.exchange()
    x = jnp.arange(5.0)
    t = torch.from_dlpack(export(x))
    assert t.data_ptr() == x.unsafe_buffer_pointer()
    np.testing.assert_array_equal(t.numpy(), np.asarray(x))


DTYPES = ["bool", "int8", "int32", "int64", "uint8", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4)])
def test_routines_match_their_numpy_results(dtype, shape):
    rng = np.random.default_rng(0)
    values = (rng.standard_normal(shape) * 3).astype(dtype) if shape else np.asarray(1.5).astype(dtype)
    x = jnp.asarray(values)
    for name in ("erf", "expit"):
        if np.dtype(dtype).kind == "c" and name == "expit":
            continue
        got, want = getattr(tb.special, name)(x), getattr(sp, name)(values)
        assert isinstance(got, jax.Array)
        assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6 if "32" in str(got.dtype) else 1e-13)
    assert np.asarray(x).tolist() == values.tolist()  # the input is untouched


def test_strided_result_comes_back_contiguous_and_right():
    x = jnp.asarray(np.arange(12.0).reshape(3, 4))
    got = tb.fft.fft(x, axis=0)  # computed along the outer axis: a strided tensor inside
    np.testing.assert_allclose(np.asarray(got), np.fft.fft(np.arange(12.0).reshape(3, 4), axis=0), atol=1e-12)


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_several_devices_take_the_public_path():
    # jaxlib's export of a sharded array would hand out its first shard;
    # __dlpack__ refuses it, and so must torchbridge
    out = _run(
        """
        import os
        os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
        import jax, jax.numpy as jnp, numpy as np
        jax.config.update("jax_enable_x64", True)
        from jax.sharding import NamedSharding, PartitionSpec
        import torchbridge as tb
        from torchbridge import _jax
        assert _jax.exchange() is None
        one = jax.device_put(jnp.arange(4.0), jax.devices()[0])
        np.testing.assert_allclose(np.asarray(tb.special.expit(one)), 1 / (1 + np.exp(-np.arange(4.0))))
        sharded = jax.device_put(jnp.arange(8.0), NamedSharding(jax.make_mesh((2,), ("x",)), PartitionSpec("x")))
        try:
            tb.special.expit(sharded)
        except Exception as error:
            print("refused", type(error).__name__)
        """
    )
    assert out.startswith("refused")


def test_without_x64_64_bit_results_are_canonicalised_as_from_dlpack_does():
    out = _run(
        """
        import jax, jax.numpy as jnp, numpy as np, torch
        import torchbridge as tb
        x = jnp.asarray([1, 2, 3], dtype=jnp.int32)  # x64 off: an int32 array
        got = tb.special.erf(x)  # computed in float64, as SciPy's ufunc computes an int32 input
        want = jnp.from_dlpack(torch.zeros(1, dtype=torch.float64))
        print(got.dtype, want.dtype)
        np.testing.assert_allclose(np.asarray(got), [0.8427007929, 0.995322265, 0.9999779095], rtol=1e-6)
        """
    )
    got, want = out.split()
    assert got == want == "float32"
