"""JAX arrays exchanged through jaxlib's own DLPack functions.

The public exchange costs more than a small JAX computation:
``jax.numpy.from_dlpack`` about 20 us a call (device and stream discovery in
Python, then ``jnp.asarray``), ``jax.Array.__dlpack__`` about 3 us, where a
1-element ``jax.scipy.special.erf`` takes about 15 us. The two jaxlib
functions behind them cost about 1 and 0.5 us. torchbridge calls them
directly only where they give what the public functions give:

- JAX runs on one CPU device and nothing else: every array is a single
  buffer in host memory (no stream to order, no shard to pick; given a
  sharded array, ``buffer_to_dlpack_managed_tensor`` would export its first
  shard, where ``__dlpack__`` raises);
- a jaxlib whose ``dlpack_managed_tensor_to_buffer`` takes the signature
  ``from_dlpack`` uses (extension version 467 on).

Anywhere else :func:`exchange` returns None and the public functions are
used. The compiled code asks once, when it first meets a JAX array.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: DLPack's device type of host memory.
_DL_CPU = 1


def exchange() -> tuple[Callable[[Any], Any], Callable[[Any], Any]] | None:
    """``(export, build)``: ``export(array)`` is ``array.__dlpack__()``'s
    capsule, ``build(capsule)`` is ``jax.numpy.from_dlpack``'s array (zero-copy,
    canonical dtype); None where they would differ from the public functions."""
    try:
        import jax.numpy as jnp
        from jax._src import config, dtypes, xla_bridge
        from jax._src.lib import _jax, jaxlib_extension_version
    except ImportError:
        return None
    if jaxlib_extension_version < 467 or set(xla_bridge.backends()) != {"cpu"}:
        return None
    backend = xla_bridge.get_backend("cpu")
    if backend.device_count() != 1:
        return None
    device = backend.device_from_local_hardware_id(0)
    to_buffer = _jax.dlpack_managed_tensor_to_buffer
    export = _jax.buffer_to_dlpack_managed_tensor
    x64 = config.enable_x64

    def build(capsule: Any) -> Any:
        array = to_buffer(capsule, device, None, None, _DL_CPU)
        if x64.value:
            return array
        # as from_dlpack: without x64, 64-bit results become 32-bit arrays
        return jnp.asarray(array, dtype=dtypes.canonicalize_dtype(array.dtype))

    return export, build
