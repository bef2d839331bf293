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
"""

from __future__ import annotations

import numbers
import operator
import os

from . import _device
from ._core import fft as _fft
from .errors import InvalidArgumentError as _InvalidArgumentError
from .errors import UnsupportedParameterError as _UnsupportedParameterError

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


# ---------------------------------------------------------------------------
# Option parsing, as scipy.fft's helpers do it
# ---------------------------------------------------------------------------

_NORMS = {None: "backward", "backward": "backward", "ortho": "ortho", "forward": "forward"}


def _options(norm, workers, plan) -> str:
    """Validates `plan`, `norm` and `workers` in SciPy's order; returns the norm's name."""
    if plan is not None:
        raise _UnsupportedParameterError(
            f"plan={plan!r}: precomputed plans are not supported (scipy.fft supports none either)"
        )
    try:
        name = _NORMS[norm]
    except KeyError:
        raise _InvalidArgumentError(
            f'Invalid norm value {norm!r}, should be "backward", "ortho" or "forward"'
        ) from None
    if workers is not None:
        workers = operator.index(workers)
        cpus = os.cpu_count() or 1
        if workers == 0:
            raise _InvalidArgumentError("workers must not be zero")
        if workers < -cpus:
            raise _InvalidArgumentError(
                f"workers value out of range; got {workers}, must not be less than {-cpus}"
            )
    return name


def _index(value):
    return None if value is None else operator.index(value)


def _ints(value, name: str):
    """SciPy's `_iterable_of_int`: a scalar or an iterable of integers, as a list."""
    if value is None:
        return None
    if isinstance(value, numbers.Number):
        value = (value,)
    try:
        return [operator.index(v) for v in value]
    except TypeError as e:
        raise _InvalidArgumentError(f"{name} must be a scalar or iterable of integers") from e


def _orthogonalize(value):
    return None if value is None else bool(value)


# ---------------------------------------------------------------------------
# Fourier transforms
# ---------------------------------------------------------------------------


def fft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """1-D discrete Fourier transform (`scipy.fft.fft`).

    ``n`` zero-pads or truncates `x` along `axis`; ``norm`` is "backward"
    (default, no scaling), "ortho" or "forward". Real input gives a complex
    result of matching precision. ``overwrite_x`` and ``workers`` are accepted
    hints without effect; ``plan`` must be None.
    """
    name = _options(norm, workers, plan)
    return _fft.transform_1d("fft", x, _index(n), operator.index(axis), name)


def ifft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """1-D inverse discrete Fourier transform (`scipy.fft.ifft`); see :func:`fft`."""
    name = _options(norm, workers, plan)
    return _fft.transform_1d("ifft", x, _index(n), operator.index(axis), name)


def rfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """1-D transform of real input (`scipy.fft.rfft`): the ``n//2 + 1``
    non-negative frequency terms. Complex input raises TypeError."""
    name = _options(norm, workers, plan)
    return _fft.transform_1d("rfft", x, _index(n), operator.index(axis), name)


def irfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """Inverse of :func:`rfft` (`scipy.fft.irfft`): a real result of length
    ``n`` (default ``2*(m-1)`` for ``m`` input points)."""
    name = _options(norm, workers, plan)
    return _fft.transform_1d("irfft", x, _index(n), operator.index(axis), name)


def hfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """FFT of a Hermitian-symmetric signal (`scipy.fft.hfft`): a real result
    of length ``n`` (default ``2*(m-1)``)."""
    name = _options(norm, workers, plan)
    return _fft.transform_1d("hfft", x, _index(n), operator.index(axis), name)


def ihfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """Inverse of :func:`hfft` for real input (`scipy.fft.ihfft`)."""
    name = _options(norm, workers, plan)
    return _fft.transform_1d("ihfft", x, _index(n), operator.index(axis), name)


def _nd(routine, x, s, axes, norm, workers, plan):
    name = _options(norm, workers, plan)
    return _fft.transform_nd(routine, x, _ints(s, "shape"), _ints(axes, "axes"), name)


def fftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """N-D discrete Fourier transform (`scipy.fft.fftn`).

    ``s`` (lengths, ``-1`` keeps the input's) and ``axes`` (default: all, or
    the last ``len(s)``) as in SciPy; axes must be unique. With no axes to
    transform the input is returned as is.
    """
    return _nd("fftn", x, s, axes, norm, workers, plan)


def ifftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """N-D inverse discrete Fourier transform (`scipy.fft.ifftn`); see :func:`fftn`."""
    return _nd("ifftn", x, s, axes, norm, workers, plan)


def fft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """2-D discrete Fourier transform (`scipy.fft.fft2`): :func:`fftn` over `axes`."""
    return _nd("fftn", x, s, axes, norm, workers, plan)


def ifft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """2-D inverse discrete Fourier transform (`scipy.fft.ifft2`)."""
    return _nd("ifftn", x, s, axes, norm, workers, plan)


def rfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """N-D transform of real input (`scipy.fft.rfftn`): the last axis keeps
    ``s[-1]//2 + 1`` non-negative frequencies."""
    return _nd("rfftn", x, s, axes, norm, workers, plan)


def irfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """Inverse of :func:`rfftn` (`scipy.fft.irfftn`): real output, the last
    axis ``2*(m-1)`` long unless ``s`` says otherwise."""
    return _nd("irfftn", x, s, axes, norm, workers, plan)


def rfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """2-D transform of real input (`scipy.fft.rfft2`)."""
    return _nd("rfftn", x, s, axes, norm, workers, plan)


def irfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """Inverse of :func:`rfft2` (`scipy.fft.irfft2`)."""
    return _nd("irfftn", x, s, axes, norm, workers, plan)


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """N-D FFT of a Hermitian-symmetric signal (`scipy.fft.hfftn`): real output."""
    return _nd("hfftn", x, s, axes, norm, workers, plan)


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """Inverse of :func:`hfftn` for real input (`scipy.fft.ihfftn`)."""
    return _nd("ihfftn", x, s, axes, norm, workers, plan)


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """2-D FFT of a Hermitian-symmetric signal (`scipy.fft.hfft2`)."""
    return _nd("hfftn", x, s, axes, norm, workers, plan)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """Inverse of :func:`hfft2` for real input (`scipy.fft.ihfft2`)."""
    return _nd("ihfftn", x, s, axes, norm, workers, plan)


# ---------------------------------------------------------------------------
# Cosine and sine transforms
# ---------------------------------------------------------------------------


def _r2r(routine, x, type, n, axis, norm, workers, orthogonalize):
    name = _options(norm, workers, None)
    return _fft.real_transform(
        routine, x, operator.index(type), _index(n), operator.index(axis), name,
        _orthogonalize(orthogonalize),
    )


def _r2rn(routine, x, type, s, axes, norm, workers, orthogonalize):
    name = _options(norm, workers, None)
    return _fft.real_transform_nd(
        routine, x, operator.index(type), _ints(s, "shape"), _ints(axes, "axes"), name,
        _orthogonalize(orthogonalize),
    )


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """Discrete cosine transform of type 1, 2, 3 or 4 (`scipy.fft.dct`).

    Float32 input stays float32; complex input is transformed part by part.
    ``orthogonalize`` (default: True exactly for ``norm="ortho"``) rescales the
    end terms so that "ortho" gives an orthonormal transform; as in SciPy it
    keeps its default for complex input. DCT-I needs at least 2 points.
    Computed from libtorch FFTs (Makhoul's algorithm for types 2 and 3).
    """
    return _r2r("dct", x, type, n, axis, norm, workers, orthogonalize)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """Inverse discrete cosine transform (`scipy.fft.idct`); see :func:`dct`."""
    return _r2r("idct", x, type, n, axis, norm, workers, orthogonalize)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """Discrete sine transform of type 1, 2, 3 or 4 (`scipy.fft.dst`); see :func:`dct`."""
    return _r2r("dst", x, type, n, axis, norm, workers, orthogonalize)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """Inverse discrete sine transform (`scipy.fft.idst`); see :func:`dct`."""
    return _r2r("idst", x, type, n, axis, norm, workers, orthogonalize)


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *,
         orthogonalize=None):
    """N-D discrete cosine transform (`scipy.fft.dctn`): :func:`dct` along
    each of `axes` (``s``/``axes`` as in :func:`fftn`)."""
    return _r2rn("dctn", x, type, s, axes, norm, workers, orthogonalize)


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
          orthogonalize=None):
    """N-D inverse discrete cosine transform (`scipy.fft.idctn`)."""
    return _r2rn("idctn", x, type, s, axes, norm, workers, orthogonalize)


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None):
    """N-D discrete sine transform (`scipy.fft.dstn`)."""
    return _r2rn("dstn", x, type, s, axes, norm, workers, orthogonalize)


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
          orthogonalize=None):
    """N-D inverse discrete sine transform (`scipy.fft.idstn`)."""
    return _r2rn("idstn", x, type, s, axes, norm, workers, orthogonalize)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _step(n, d) -> float:
    """NumPy's frequency step ``1.0 / (n * d)``, computed as NumPy computes it
    (so float32 `d` rounds as there); real scalars only."""
    val = 1.0 / (n * d)
    kind = getattr(getattr(val, "dtype", None), "kind", None)
    if isinstance(val, numbers.Real) or (getattr(val, "shape", None) == () and kind is not None and kind in "biuf"):
        return float(val)
    raise _UnsupportedParameterError(f"d={d!r}: only a real scalar sample spacing is supported")


def _is_numpy(xp) -> bool:
    return xp is None or getattr(xp, "__name__", None) == "numpy" or not hasattr(xp, "fft")


def _default_float(xp, device) -> str:
    """The default real floating dtype of namespace `xp`, as "float32"/"float64"."""
    if getattr(xp, "__name__", None) == "torch":
        return str(xp.get_default_dtype()).removeprefix("torch.")
    info = getattr(xp, "__array_namespace_info__", None)
    if info is not None:
        default = info().default_dtypes(device=device)["real floating"]
        for name in ("float32", "float64"):
            if default == getattr(xp, name, None):
                return name
    return "float64"


def _frequencies(n, d, real, xp, device):
    if not isinstance(n, numbers.Integral) or (not real and isinstance(n, bool)):
        if isinstance(n, bool):
            raise TypeError(f"expected a sequence of integers or a single integer, got '{n}'")
        raise _InvalidArgumentError("n should be an integer")
    n = operator.index(n)
    step = _step(n, d)
    if _is_numpy(xp):
        if device is not None:
            raise _InvalidArgumentError("device parameter is not supported for input array type")
        return _fft.frequencies(n, step, real, None, "float64")
    result = _fft.frequencies(n, step, real, xp, _default_float(xp, device))
    if device is not None:
        result = result.to(device) if getattr(xp, "__name__", None) == "torch" else result.to_device(device)
    return result


def fftfreq(n, d=1.0, *, xp=None, device=None):
    """Sample frequencies of an ``n``-point FFT (`scipy.fft.fftfreq`):
    ``[0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n)``.

    A numpy float64 array unless namespace ``xp`` is given; then an ``xp``
    array in that library's default float dtype (as ``xp.fft.fftfreq``),
    computed by libtorch, exported through ``xp.from_dlpack`` and moved to
    ``device``. ``d`` must be a real scalar (NumPy also takes complex and
    array spacings: those raise NotImplementedError here).
    """
    return _frequencies(n, d, False, xp, device)


def rfftfreq(n, d=1.0, *, xp=None, device=None):
    """Sample frequencies for :func:`rfft` (`scipy.fft.rfftfreq`):
    ``[0, 1, ..., n//2] / (d*n)``; see :func:`fftfreq`."""
    return _frequencies(n, d, True, xp, device)


def _shift_axes(axes):
    if axes is None:
        return None
    if isinstance(axes, numbers.Integral):
        return [operator.index(axes)]
    return [operator.index(a) for a in axes]


def fftshift(x, axes=None):
    """Moves the zero-frequency term to the centre (`scipy.fft.fftshift`):
    rolls each of `axes` (default all) by half its length. Any dtype."""
    return _fft.shift(x, _shift_axes(axes), False)


def ifftshift(x, axes=None):
    """The inverse of :func:`fftshift` (`scipy.fft.ifftshift`)."""
    return _fft.shift(x, _shift_axes(axes), True)


def _target(target) -> int:
    target = operator.index(target)
    if not -(2**63) <= target < 2**63:
        raise OverflowError("Python int too large to convert to C ssize_t")
    return target


def next_fast_len(target, real=False):
    """The smallest fast FFT length ``>= target`` (`scipy.fft.next_fast_len`):
    11-smooth for complex transforms, 5-smooth with ``real=True``, exactly as
    SciPy's pocketfft (targets up to 12, resp. 6, and 0 come back unchanged)."""
    return _fft.fast_len(_target(target), bool(real), False)


def prev_fast_len(target, real=False):
    """The largest fast FFT length ``<= target`` (`scipy.fft.prev_fast_len`);
    see :func:`next_fast_len`."""
    return _fft.fast_len(_target(target), bool(real), True)


# Every routine takes `device=` (see torchbridge._device); the ufuncs and the
# routines that already have SciPy's own `device` keep theirs.
for _name in sorted(set(__all__) - _device.TAKES_NO_ARRAYS):
    globals()[_name] = _device.takes_device(globals()[_name])
del _name
