"""``torchbridge.fft`` as a backend of ``scipy.fft`` (SciPy's uarray protocol),
and ``set_workers``/``get_workers``.

``scipy.fft.set_backend(torchbridge.fft)`` (or ``set_global_backend``) sends
every call of SciPy's 28 dispatchable functions to :func:`__ua_function__`:
the Fourier transforms and their 2-D and n-D forms, the Hermitian family, the
cosine and sine transforms and their inverses, and ``fht``/``ifht``. SciPy's
own routines that call ``scipy.fft`` (``signal.fftconvolve``, ``oaconvolve``,
``hilbert``, ``resample``, ``czt``, the STFT family behind ``welch``,
``linalg.matmul_toeplitz``, ...) then run their transforms here unchanged.

The backend serves a call only where it gives what SciPy's own backend
would, at least as fast; otherwise it returns ``NotImplemented`` and uarray
tries the next backend (SciPy's, unless ``only=True``):

* the array is a plain ``numpy.ndarray`` (or a list, tuple or scalar, taken
  as NumPy as SciPy takes it) of a dtype torchbridge computes (bool,
  integers, float16/32/64, complex64/128); anything else (torch, CuPy, an
  ndarray subclass such as a masked array, long double, object) is declined,
  so what comes back is always what SciPy's backend returns for it;
* ``plan`` is None, and no option is one torchbridge lacks
  (``UnsupportedParameterError`` declines the call);
* the transform falls in a measured band of its kind and shape
  (:data:`CROSSOVER`): outside them SciPy's pocketfft is faster.

A served call runs on ``workers`` libtorch threads as SciPy's runs on that
many workers: by default one (SciPy's default, :func:`get_workers`), else the
``workers=`` argument or the :func:`set_workers` block's value; libtorch's
thread count is set for the call and restored after it.

``__ua_convert__`` passes SciPy's arguments unchanged, but for the cheapest
decline: an array below every band of the cost model, before
``__ua_function__`` is called. A declined call still costs uarray's dispatch
to one more backend plus that check, about 1-2 us: nothing against a large
transform, a few percent for routines such as ``welch`` that make one tiny
call per segment (the benchmark's "scipy.fft backend" table).

Results are NumPy arrays of SciPy's dtype and shape.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

from .. import _core
from .._core import set_num_threads
from ..errors import InputTypeError, UnsupportedParameterError
from . import _fftlog

__all__ = ["__ua_domain__", "__ua_function__", "__ua_convert__", "set_workers", "get_workers", "CROSSOVER"]

__ua_domain__ = "numpy.scipy.fft"

#: Per dispatchable function: its transform kind, the positions of its
#: length (``n``/``s``), axis (``axis``/``axes``) and ``workers`` arguments (None:
#: it has none) and its default axes ("all": every axis).
_ONE_D = ("c2c", "r2c", "c2r")
_SIGNATURES: dict[str, tuple[str, int | None, int | None, int | None, Any]] = {
    **{name: (kind, 1, 2, 5, -1) for kind, names in zip(_ONE_D, (("fft", "ifft"), ("rfft", "ihfft"), ("irfft", "hfft")))
       for name in names},
    **{name: (kind, 1, 2, 5, (-2, -1)) for kind, names in
       zip(_ONE_D, (("fft2", "ifft2"), ("rfft2", "ihfft2"), ("irfft2", "hfft2"))) for name in names},
    **{name: (kind, 1, 2, 5, "all") for kind, names in
       zip(_ONE_D, (("fftn", "ifftn"), ("rfftn", "ihfftn"), ("irfftn", "hfftn"))) for name in names},
    **{name: ("r2r", 2, 3, 6, -1) for name in ("dct", "idct", "dst", "idst")},
    **{name: ("r2r", 2, 3, 6, "all") for name in ("dctn", "idctn", "dstn", "idstn")},
    **{name: ("fht", None, None, None, -1) for name in ("fht", "ifht")},
}

#: The cost model: per transform kind, the band of sizes where torchbridge is
#: faster than SciPy's pocketfft, ``(first, end)`` (``end`` excluded, None: no
#: upper end), for "single" transforms (the size: one transform's length, its
#: ``n``/``s`` if given) and for "rows", at least ``_ROWS`` transforms of at
#: most ``_ROW_LENGTH`` points in one call (the size: all their points);
#: ``None``: not faster at any size measured, always declined.
#: Measured by ``benches/fft_crossover.py`` on the machine this was written
#: on (2 cores shared with other jobs, so ratios move by 10-20% between runs;
#: both sides at one thread, SciPy's default of one worker, which the backend
#: follows). Its outputs of 2026-12-02 are ``benches/results/fft_crossover-run1.txt``
#: (powers of two only) and ``-run2.txt`` (with a 2,3,5-smooth length beside
#: each power of two). The table keeps only what every run (and a check at
#: fftconvolve's lengths, below) found faster:
#:
#:   c2c  single: from 2^17 in run 1, 2^19 in run 2 (1.09 at 2^18); 0.61-0.93
#:        at 150000-2211840. rows: 2^13 to 2^20 in both (1.04-1.09 at 2^21).
#:   r2c  single: 0.99 / 0.86 at 2^20, 0.79 / 0.68 at 2^21; 0.95 at 1105920,
#:        0.83 at 2211840: from 2^21. rows: from 2^14 in both (2^13: 1.05).
#:   c2r  single: none. Powers of two win from 2^19 (0.83-0.93, 0.31 at 2^21)
#:        but irfft to the lengths fftconvolve uses loses: 1.96 at 150000,
#:        1.59 at 600000, 1.25 at 1105920 and 2211840. rows: 2^14 to 2^16
#:        (run 2 loses at 2^17 for rows of 1024, 1.09; run 1 at 2^20).
#:   r2r  never: 1.3 to 10 (FFT composites).
#:   fht  never: 1-D 4 to 12 (the coefficients' log-gamma), rows 0.8-1.2
#:        at 2^19 to 2^21.
#:
#: Another machine: run the script there and assign the entries
#: (``torchbridge.fft._backend.CROSSOVER[kind] = {...}``).
class _Bands(dict):
    """``CROSSOVER``: a dict that keeps :data:`_FLOOR` (the smallest size any
    band starts at) current when an entry is assigned. Assign whole entries
    (``CROSSOVER["c2c"] = {"single": ..., "rows": ...}``), not into them."""

    def __setitem__(self, key: str, value: dict) -> None:
        super().__setitem__(key, value)
        _refresh()

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        _refresh()

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        _refresh()


CROSSOVER: dict[str, dict[str, tuple[int, int | None] | None]] = {
    "c2c": {"single": (1 << 19, None), "rows": (1 << 13, 1 << 21)},
    "r2c": {"single": (1 << 21, None), "rows": (1 << 14, None)},
    "c2r": {"single": None, "rows": (1 << 14, 1 << 17)},
    "r2r": {"single": None, "rows": None},
    "fht": {"single": None, "rows": None},
}

_FLOOR = 0


def _refresh() -> None:
    """Recomputes :data:`_FLOOR` from :data:`CROSSOVER`."""
    global _FLOOR
    starts = [band[0] for table in CROSSOVER.values() for band in table.values() if band is not None]
    _FLOOR = min(starts) if starts else 1 << 62


CROSSOVER = _Bands(CROSSOVER)
_refresh()

#: The "rows" band applies from this many transforms of at most
#: ``_ROW_LENGTH`` points each (the row lengths measured); any other call is
#: judged by the "single" band on the length of one transform.
_ROWS = 16
_ROW_LENGTH = 1024

#: The dtypes torchbridge computes (``dtype.char``); long double and objects are declined.
_DTYPES = frozenset("?bBhHiIlLqQefdFD")

_ROUTINES: dict[str, Any] = {}


def _routine(name: str) -> Any:
    found = _ROUTINES.get(name)
    if found is None:
        found = getattr(_fftlog, name) if name in ("fht", "ifht") else getattr(_core.fft, name)
        _ROUTINES[name] = found
    return found


def _threads_for(workers: Any) -> int | None:
    """SciPy's ``workers`` as a thread count (None: leave libtorch's as it is)."""
    if workers is None:
        return None
    workers = int(workers)
    cpus = os.cpu_count() or 1
    if workers == 0:
        raise ValueError("workers must not be zero")
    if workers < -cpus:
        raise ValueError(f"workers value out of range; got {workers}, must not be less than {-cpus}")
    return workers if workers > 0 else cpus + 1 + workers


_NONE: dict[str, Any] = {}


def _argument(args: tuple, kwargs: dict, position: int | None, name: str) -> Any:
    if position is None:
        return None
    return args[position] if len(args) > position else kwargs.get(name)


def _worth_it(x: Any, kind: str, args: tuple, kwargs: dict, length_at: int | None, axis_at: int | None,
              default_axes: Any) -> bool:
    """The cost model: whether this transform falls in a band of its kind.
    Cheap on the 1-D path (SciPy's STFT asks once per segment)."""
    table = CROSSOVER.get(kind) or _NONE
    shape = x.shape
    size = x.size
    if not shape or not size:
        return False
    if default_axes == -1:  # a 1-D transform
        axis = args[axis_at] if axis_at is not None and len(args) > axis_at else kwargs.get("axis", -1)
        length = shape[axis]
        n = args[length_at] if length_at is not None and len(args) > length_at else kwargs.get("n")
        transforms = size // length
        if n is not None:
            length = int(n)
    else:
        axes = _argument(args, kwargs, axis_at, "axes")
        if axes is None:
            axes = range(len(shape)) if default_axes == "all" else default_axes
        axes = [int(a) for a in axes] if isinstance(axes, (list, tuple, range)) else [int(axes)]
        length = 1
        for a in axes:
            length *= shape[a]
        transforms = size // length
        s = _argument(args, kwargs, length_at, "s")
        if s is not None:  # the transform's own shape (padded or cropped)
            length = 1
            for m in [int(v) for v in s] if isinstance(s, (list, tuple)) else [int(s)]:
                length *= max(m, 1)
    if transforms >= _ROWS and length <= _ROW_LENGTH:
        found, work = table.get("rows"), transforms * length
    else:
        found, work = table.get("single"), length
    if found is None:
        return False
    return work >= found[0] and (found[1] is None or work < found[1])


def __ua_convert__(dispatchables: Any, coerce: bool) -> Any:
    """uarray's conversion hook, used as the fastest decline: an array
    smaller than every band of the cost model (:data:`_FLOOR` elements,
    whatever ``n``) goes to the next backend before :func:`__ua_function__`
    is called (SciPy's STFT makes one small call per segment, and a module
    without this hook costs uarray a failed attribute lookup per call).
    Otherwise the values pass unchanged."""
    values = [d.value for d in dispatchables]
    size = getattr(values[0], "size", None) if values else None
    if type(size) is int and size < _FLOOR:
        return NotImplemented
    return values


def __ua_function__(method: Any, args: tuple, kwargs: dict) -> Any:
    """Serves the ``scipy.fft`` function ``method`` on ``args``/``kwargs``,
    or returns ``NotImplemented`` to decline (see the module's docstring).

    The cost model is asked first, so that the common decline (SciPy's STFT
    makes one small call per segment) costs about a microsecond."""
    name = getattr(method, "__name__", None)
    signature = _SIGNATURES.get(name)  # type: ignore[arg-type]
    if signature is None:
        return NotImplemented
    kind, length_at, axis_at, workers_at, default_axes = signature
    array_name = "a" if name == "fht" else "A" if name == "ifht" else "x"
    x: Any = args[0] if args else kwargs.get(array_name)
    np = sys.modules["numpy"]  # SciPy imports it before any dispatch
    if type(x) is not np.ndarray:
        if x is None or not isinstance(x, (list, tuple, int, float, complex)):
            return NotImplemented  # SciPy's backend gives its own result or error
        try:
            x = np.asarray(x)
        except Exception:
            return NotImplemented
        if type(x) is not np.ndarray:
            return NotImplemented
        if args:
            args = (x, *args[1:])
        else:
            kwargs = {**kwargs, array_name: x}
    try:
        worth_it = _worth_it(x, kind, args, kwargs, length_at, axis_at, default_axes)
    except (TypeError, ValueError, IndexError):
        worth_it = True  # a bad axis or length: torchbridge raises SciPy's error for it
    if not worth_it:
        return NotImplemented
    if kwargs.get("plan") is not None or x.dtype.char not in _DTYPES:
        return NotImplemented
    threads = _threads_for(_argument(args, kwargs, workers_at, "workers"))
    if threads is None:
        threads = get_workers()
    if "plan" in kwargs:
        kwargs = {k: v for k, v in kwargs.items() if k != "plan"}
    func = _routine(name)  # type: ignore[arg-type]
    before = _torch_threads()
    try:
        if threads != before:
            set_num_threads(threads)
        return func(*args, **kwargs)
    except (UnsupportedParameterError, InputTypeError):
        return NotImplemented
    finally:
        if threads != before:
            set_num_threads(before)


# ---------------------------------------------------------------- workers

#: The innermost ``set_workers`` value (empty: SciPy's default of one worker).
_workers: list[int] = []

_torch: Any = None


def _torch_threads() -> int:
    """libtorch's intra-op thread count now."""
    global _torch
    if _torch is None:
        import torch

        _torch = torch
    return _torch.get_num_threads()


def get_workers():  # SciPy's signature, unannotated
    """Returns the default number of workers within the current context

    SciPy's ``scipy.fft.get_workers``: the innermost :func:`set_workers`
    value, else 1 (SciPy's default).

    torchbridge: the number of libtorch threads a call that the ``scipy.fft``
    backend serves without ``workers=`` runs on. It takes no arrays, hence no
    ``device`` keyword.
    """
    return _workers[-1] if _workers else 1


@contextlib.contextmanager
def set_workers(workers):  # SciPy's signature, unannotated
    """Context manager for the default number of workers used in `scipy.fft`

    SciPy's ``scipy.fft.set_workers``: inside the block, the calls that the
    ``scipy.fft`` backend serves without ``workers=`` run on ``workers``
    threads (negative values count back from ``os.cpu_count()``: -1 is all
    cores).

    torchbridge: libtorch's intra-op thread count
    (:func:`torchbridge.set_num_threads`) is ``workers`` inside the block, so
    torchbridge's routines called directly use it too, and it is restored on
    exit, also when the block raises. It takes no arrays, hence no ``device``
    keyword.
    """
    threads = _threads_for(workers)
    if threads is None:
        raise TypeError("workers must be an integer")
    before = _torch_threads()
    _workers.append(threads)
    set_num_threads(threads)
    try:
        yield
    finally:
        _workers.pop()
        set_num_threads(before)
