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

``torchbridge.fft`` is also a backend of ``scipy.fft``:
``scipy.fft.set_backend(torchbridge.fft)`` runs SciPy's own transforms (and
every SciPy routine built on them) here where that is faster, and leaves the
rest to SciPy (see :mod:`torchbridge.fft._backend`). ``fht``/``ifht`` (FFTLog)
are composites of torch ops; ``set_workers``/``get_workers`` set libtorch's
thread count for a block.

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
from ._backend import __ua_convert__ as __ua_convert__
from ._backend import __ua_domain__ as __ua_domain__
from ._backend import __ua_function__ as __ua_function__
from ._backend import get_workers, set_workers
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
from ._fftlog import fht, fhtoffset, ifht
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
    # Python composites (torch ops through torchbridge.apply) and SciPy's backend
    # protocol (``scipy.fft.set_backend(torchbridge.fft)``, see ``_backend``)
    "fht",
    "ifht",
    "fhtoffset",
    "set_workers",
    "get_workers",
]

# Each routine's public face: the compiled function, plus the route for dask arrays (before the call
# for the routines that convert numbers themselves, which would compute a dask array passed as one).
_dispatch.expose(
    globals(),
    __all__,
    "fft",
    routed_first=(
        *("fftfreq", "rfftfreq", "next_fast_len", "prev_fast_len", "fhtoffset", "set_workers", "get_workers"),
        *("fht", "ifht"),
    ),
)


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
