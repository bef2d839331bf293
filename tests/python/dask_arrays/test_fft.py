"""torchbridge.fft on dask arrays: the transformed axes in one chunk (else a
ValueError naming the axis, as dask.array.fft raises), the batch axes in
parallel, lazily; the result equals the eager transform bit for bit
(libtorch's FFTs transform each row of a batch alone)."""

from __future__ import annotations

import dask.array as da
import numpy as np
import pytest

import torchbridge as tb
from torchbridge.dask import CHUNKING
from torchbridge.dask._chunking import AlongAxis, NoArrays, Reorder
from torchbridge.errors import UnsupportedParameterError

from .cases import CHUNKINGS, chunked, no_compute

ROWS = {name.split(".", 1)[1]: row for name, row in CHUNKING.items() if name.startswith("fft.")}
TRANSFORMS = sorted(name for name, row in ROWS.items() if isinstance(row, AlongAxis))

RNG = np.random.default_rng(0)
REAL = RNG.standard_normal((7, 10, 8))
COMPLEX = REAL + 1j * RNG.standard_normal(REAL.shape)
BATCH_CHUNKS = ((2, 3, 2), (10,), (8,))  # ragged along the batch axis, the core axes whole


def _input(name: str) -> np.ndarray:
    real_input = name.startswith(("r", "d", "id")) or name in ("ihfft", "ihfft2", "ihfftn", "fht", "ifht")
    return REAL if real_input else COMPLEX


def _options(name: str) -> list[dict]:
    """Default lengths and explicit ones, over the core axes (1, 2) or the last
    (the fast Hankel transforms: their ``dln``, ``mu`` and ``offset``)."""
    if not ROWS[name].axes:
        return [{"dln": 0.1, "mu": 0.5}, {"dln": 0.05, "mu": -0.5, "offset": 0.2, "bias": 0.3}]
    if ROWS[name].axes == "axis":
        return [{}, {"n": 12}, {"axis": 1}, {"axis": 1, "n": 6}]
    return [{"axes": (1, 2)}, {"axes": (1, 2), "s": (6, 12)}, {"axes": (2,), "s": (5,)}]


@pytest.mark.parametrize("name", TRANSFORMS)
def test_transform_is_lazy_and_equals_the_eager_one(name):
    x = _input(name)
    func = getattr(tb.fft, name)
    for options in _options(name):
        eager = func(x, **options)
        with no_compute():
            lazy = func(da.from_array(x, chunks=BATCH_CHUNKS), **options)
        assert isinstance(lazy, da.Array) and lazy.dtype == eager.dtype and lazy.shape == eager.shape
        assert lazy.chunks[0] == BATCH_CHUNKS[0], "the batch axis keeps the caller's chunks"
        got = lazy.compute()
        np.testing.assert_array_equal(got, eager, err_msg=f"{name}({options})")


@pytest.mark.parametrize("name", TRANSFORMS)
def test_a_chunked_core_axis_raises_naming_it(name):
    if not ROWS[name].axes:  # the last axis, split
        with pytest.raises(ValueError, match=r"axis 2 in one chunk.*rechunk\(\{2: -1\}\)"):
            getattr(tb.fft, name)(da.from_array(_input(name), chunks=(7, 10, 4)), 0.1, 0.5)
        return
    options = {"axis": 0} if ROWS[name].axes == "axis" else {"axes": (0, 1)}
    with pytest.raises(ValueError, match=r"axis 0 in one chunk.*rechunk\(\{0: -1\}\)"):
        getattr(tb.fft, name)(da.from_array(_input(name), chunks=BATCH_CHUNKS), **options)


def test_axes_none_means_every_axis_and_the_batch_axis_must_then_be_whole():
    x = da.from_array(COMPLEX, chunks=BATCH_CHUNKS)
    with pytest.raises(ValueError, match="axis 0"):
        tb.fft.fftn(x)
    np.testing.assert_array_equal(tb.fft.fftn(x.rechunk(-1)).compute(), tb.fft.fftn(COMPLEX))


def test_float32_stays_single_precision():
    x = REAL.astype(np.float32)
    lazy = tb.fft.rfft(da.from_array(x, chunks=BATCH_CHUNKS))
    assert lazy.dtype == np.complex64
    np.testing.assert_array_equal(lazy.compute(), tb.fft.rfft(x))


@pytest.mark.parametrize("how", CHUNKINGS)
@pytest.mark.parametrize("name", sorted(n for n, row in ROWS.items() if isinstance(row, Reorder)))
@pytest.mark.parametrize("axes", [None, 0, (1,)])
def test_shifts_on_any_chunking(name, how, axes):
    x = REAL[:, :, 0]
    with no_compute():
        lazy = getattr(tb.fft, name)(chunked(x, how), axes=axes)
    np.testing.assert_array_equal(lazy.compute(), getattr(tb.fft, name)(x, axes=axes))


@pytest.mark.parametrize("name", sorted(n for n, row in ROWS.items() if isinstance(row, NoArrays)))
def test_routines_of_sizes_refuse_a_dask_array(name):
    if name == "get_workers":  # takes nothing at all
        return
    with pytest.raises(TypeError, match="takes no arrays"):
        getattr(tb.fft, name)(*[da.ones((), dtype=int, chunks=())] * (2 if name == "fhtoffset" else 1))


class _NeverComputed(da.Array):
    """A dask array that fails if anything converts it to a number."""

    def __float__(self):
        raise AssertionError("a dask option was computed")

    __int__ = __index__ = __bool__ = __float__


def test_a_dask_option_is_refused_before_anything_converts_it():
    """fht converts its numbers in Python: it is routed first, so a dask ``dln`` is refused before
    ``float()`` would compute it (a compiled routine's int options convert as NumPy's do)."""
    scalar = da.asarray(0.1)
    option = _NeverComputed(scalar.dask, scalar.name, scalar.chunks, meta=scalar._meta)
    x = da.from_array(REAL, chunks=BATCH_CHUNKS)
    with pytest.raises(UnsupportedParameterError, match="`dln` as a dask array is not supported"):
        tb.fft.fht(x, option, 0.5)
