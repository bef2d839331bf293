"""The chunking table: one row per public routine, its chunking class.

This table is the one place that says how a routine runs on dask arrays;
the dask path (:mod:`._route`), the README's table (``python -m
torchbridge.dask``) and the tests (``tests/python/dask/``) are generated from
it, and a test fails when a public routine has no row.
"""

from __future__ import annotations

import inspect
from typing import Any

from .._core import special as _special
from . import _linalg_rows, _ndimage_rows, _reductions, _signal_rows, _spatial_rows, _stats_rows
from ._chunking import AlongAxis, Chunking, Elementwise, Gufunc, MultiUfunc, NoArrays, Reduction, Reorder


def _ufunc_arrays(name: str) -> tuple[str, ...]:
    """A compiled ufunc's array arguments: its positional-only parameters."""
    parameters = inspect.signature(getattr(_special, name)).parameters.values()
    return tuple(p.name for p in parameters if p.kind is inspect.Parameter.POSITIONAL_ONLY)


def _diff_n(call: Any) -> int:
    d = call.get("diff_n", 0)
    return int(d) if d is not None else 0


def _sph_harm_y_signature(call: Any, shapes: dict) -> tuple[str, dict[str, int]]:
    """``sph_harm_y``: the value, then the gradient ``(..., 2)`` and the Hessian ``(..., 2, 2)``."""
    outputs = ["()", "(i)", "(i,j)"][: _diff_n(call) + 1]
    return "(),(),(),()->" + ",".join(outputs), {"i": 2, "j": 2}


def _legendre_signature(call: Any, shapes: dict) -> tuple[str, dict[str, int]]:
    """The Legendre functions: one core axis of the value and its ``diff_n`` derivatives."""
    return ",".join("()" for _ in shapes) + "->(k)", {"k": _diff_n(call) + 1}


_SPECIAL: dict[str, Chunking] = {name: Elementwise(_ufunc_arrays(name)) for name in _special.UFUNCS} | {
    "polygamma": Elementwise(("n", "x")),
    "multigammaln": Elementwise(("a",), probe=1e3),  # its domain is a > (d - 1) / 2
    "factorial": Elementwise(("n",)),
    "comb": Elementwise(("N", "k")),
    "perm": Elementwise(("N", "k")),
    "bernoulli": NoArrays(),
    "euler": NoArrays(),
    "jnyn_zeros": NoArrays(),
    "jn_zeros": NoArrays(),
    "jnp_zeros": NoArrays(),
    "yn_zeros": NoArrays(),
    "ynp_zeros": NoArrays(),
    "roots_legendre": NoArrays(),
    "roots_chebyt": NoArrays(),
    "roots_chebyu": NoArrays(),
    "roots_chebyc": NoArrays(),
    "roots_chebys": NoArrays(),
    "roots_hermite": NoArrays(),
    "roots_hermitenorm": NoArrays(),
    "roots_laguerre": NoArrays(),
    "roots_genlaguerre": NoArrays(),
    "roots_jacobi": NoArrays(),
    "roots_sh_jacobi": NoArrays(),
    "roots_gegenbauer": NoArrays(),
    "roots_sh_legendre": NoArrays(),
    "roots_sh_chebyt": NoArrays(),
    "roots_sh_chebyu": NoArrays(),
    "sinc": Elementwise(("x",)),
    "zeta": Elementwise(("x", "q")),
    "lambertw": Elementwise(("z", "k", "tol"), probe=1.0),
    **{f"spherical_{kind}n": Elementwise(("n", "z")) for kind in "jyik"},
    "sph_harm_y": MultiUfunc(Gufunc(("n", "m", "theta", "phi"), _sph_harm_y_signature)),
    "sph_legendre_p": MultiUfunc(Gufunc(("n", "m", "theta"), _legendre_signature), leading=True),
    "assoc_legendre_p": MultiUfunc(Gufunc(("n", "m", "z", "branch_cut"), _legendre_signature), leading=True),
    "legendre_p": MultiUfunc(Gufunc(("n", "z"), _legendre_signature), leading=True),
    "logsumexp": Reduction(_reductions.logsumexp),
    "softmax": Reduction(_reductions.softmax),
    "log_softmax": Reduction(_reductions.softmax),
}

_FFT: dict[str, Chunking] = {
    **{name: AlongAxis("axis", "n") for name in ("fft", "ifft")},
    **{name: AlongAxis("axes", "s") for name in ("fft2", "ifft2", "fftn", "ifftn")},
    **{name: AlongAxis("axis", "n", last="r2c") for name in ("rfft", "ihfft")},
    **{name: AlongAxis("axis", "n", last="c2r") for name in ("irfft", "hfft")},
    **{name: AlongAxis("axes", "s", last="r2c") for name in ("rfft2", "rfftn", "ihfft2", "ihfftn")},
    **{name: AlongAxis("axes", "s", last="c2r") for name in ("irfft2", "irfftn", "hfft2", "hfftn")},
    **{name: AlongAxis("axis", "n") for name in ("dct", "idct", "dst", "idst")},
    **{name: AlongAxis("axes", "s") for name in ("dctn", "idctn", "dstn", "idstn")},
    "fftshift": Reorder(),
    "ifftshift": Reorder(),
    "fht": AlongAxis("", "", array="a"),
    "ifht": AlongAxis("", "", array="A"),
    **{
        name: NoArrays()
        for name in ("fftfreq", "rfftfreq", "next_fast_len", "prev_fast_len", "fhtoffset", "set_workers", "get_workers")
    },
}

#: ``"family.name"`` -> the routine's chunking class.
TABLE: dict[str, Chunking] = {
    **{f"special.{name}": row for name, row in _SPECIAL.items()},
    "special.psi": _SPECIAL["digamma"],
    **{f"fft.{name}": row for name, row in _FFT.items()},
    **{f"linalg.{name}": row for name, row in _linalg_rows.ROWS.items()},
    **{f"signal.{name}": row for name, row in _signal_rows.ROWS.items()},
    **{f"signal.windows.{name}": row for name, row in _signal_rows.WINDOW_ROWS.items()},
    **{f"spatial.distance.{name}": row for name, row in _spatial_rows.ROWS.items()},
    **{f"ndimage.{name}": row for name, row in _ndimage_rows.ROWS.items()},
    **{f"stats.{name}": row for name, row in _stats_rows.ROWS.items()},
}
