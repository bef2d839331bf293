"""SciPy-compatible `scipy.fft` routines, computed by libtorch.

Swap ``from scipy import fft`` for ``from torchbridge import fft``: same
names, same parameters and defaults, results in the caller's array type and
on its device. For numpy input the result's type, dtype and shape match
SciPy's: float32 (and float16) input gives complex64 / float32 results,
float64, bool and integer input complex128 / float64 (bfloat16, which NumPy
lacks, computes in float64 like the other non-float dtypes, as SciPy would
convert it).

The Fourier transforms run libtorch's ``torch.fft`` kernels; the cosine and
sine transforms (types 1-4) are composites of them. Options that only tune
SciPy's own implementation are accepted and have no effect on results:

* ``overwrite_x``: torchbridge never writes into its input;
* ``workers``: validated as SciPy does, then ignored; libtorch uses its own
  intra-op thread pool (see :func:`torchbridge.set_num_threads`);
* ``plan``: only ``None`` (SciPy itself accepts no other value).

Every routine that takes arrays also takes a keyword-only ``device=None``:
where to compute, with the copies that costs (see :mod:`torchbridge._device`);
by default the computation runs where the arrays live, CUDA included.

The routines are the compiled functions of ``torchbridge._core.fft`` (one
per SciPy function, its options parsed in Rust), each behind its public face
(``torchbridge._dispatch``: one Python frame, and the route for dask arrays);
the private modules follow SciPy's (``_basic``, ``_realtransforms``,
``_helper``).
"""

from __future__ import annotations

from .. import _dispatch
from ._basic import (
    fft,
    fft2,
    fftn,
    hfft,
    hfft2,
    hfftn,
    ifft,
    ifft2,
    ifftn,
    ihfft,
    ihfft2,
    ihfftn,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftn,
)
from ._helper import fftfreq, fftshift, ifftshift, next_fast_len, prev_fast_len, rfftfreq
from ._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn

__all__ = [
    "fft",
    "ifft",
    "fft2",
    "ifft2",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfft2",
    "irfft2",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "hfft2",
    "ihfft2",
    "hfftn",
    "ihfftn",
    "dct",
    "idct",
    "dst",
    "idst",
    "dctn",
    "idctn",
    "dstn",
    "idstn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
    "next_fast_len",
    "prev_fast_len",
]

# Each routine's public face: the compiled function, plus the route for dask arrays
# (before the call for the routines of sizes, which would convert a dask array to a number).
_dispatch.expose(globals(), __all__, "fft", routed_first=("fftfreq", "rfftfreq", "next_fast_len", "prev_fast_len"))


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
