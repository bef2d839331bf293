"""torchbridge.special on dask arrays: lazy, in the caller's chunk layout, and
equal to the eager result whatever the chunking: bit for bit for the ufuncs
whose libtorch kernel does not depend on an element's position (see
LAYOUT_DEPENDENT for the others), within 1e-12 relative for the reductions."""

from __future__ import annotations

import dask.array as da
import numpy as np
import pytest
import torch
from special.cases import BINARY, CASES, UNARY, assert_close, sample

import torchbridge as tb
from torchbridge.errors import MixedContainersError, UnsupportedParameterError

from .cases import CHUNKINGS, chunked, no_compute

SHAPE = (16, 12)

#: Kernels whose value at an element depends on where it falls in its block:
#: libtorch computes the body of a contiguous run with SIMD and its tail (and
#: each thread's share) with the scalar code, which rounds differently (the
#: eager result varies the same way with the array's size and thread count;
#: measured: 1-2 ulp, up to ~800 ulp near the zeros of j0/j1/gammainc/chdtr,
#: all inside the routine's tolerance against SciPy). A chunked result is
#: checked against the eager one with that tolerance (cases.py's CASES).
LAYOUT_DEPENDENT = set(
    "expit gamma j0 j1 y0 y1 exp2 exp10 cbrt zeta gammainc gammaincc beta binom chdtr chdtrc pdtr pdtrc"
    # composites built on the kernels above (libtorch's lgamma/exp/pow SIMD bodies)
    " ellipe ellipeinc poch rgamma zetac".split()
)
EDGES = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0])


def _inputs(name: str, seed: int = 0) -> list[np.ndarray]:
    """The ufunc's sampled arguments as SHAPE arrays; the first float one gets edge values."""
    args = [a.reshape(SHAPE) for a in sample(name, np.random.default_rng(seed), n=SHAPE[0] * SHAPE[1])]
    for a in args:
        if a.dtype.kind == "f":
            a.flat[: EDGES.size] = EDGES
            break
    return args


def _assert_same(lazy, eager):
    got = lazy.compute()
    assert type(got) is type(eager) and got.dtype == eager.dtype and got.shape == eager.shape
    np.testing.assert_array_equal(got, eager, strict=True)


@pytest.mark.parametrize("how", CHUNKINGS)
@pytest.mark.parametrize("name", UNARY + BINARY)
def test_ufunc_is_lazy_and_bit_identical(name, how):
    args = _inputs(name)
    func = getattr(tb.special, name)
    with np.errstate(all="ignore"):
        eager = func(*args)
    with no_compute():
        lazy = func(*(chunked(a, how) for a in args))
    assert isinstance(lazy, da.Array)
    assert lazy.chunks == chunked(args[0], how).chunks
    assert lazy.dtype == eager.dtype
    if name not in LAYOUT_DEPENDENT:
        _assert_same(lazy, eager)
    else:
        got = lazy.compute()
        assert got.dtype == eager.dtype and got.shape == eager.shape
        np.testing.assert_array_equal(np.isnan(got), np.isnan(eager))
        assert_close(got, eager, CASES[name].rtol, CASES[name].atol, what=f"{name} chunked {how}")


@pytest.mark.parametrize("name", ["erf", "gammaln", "log_ndtr"])
def test_float32_chunks_keep_float32(name):
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    lazy = getattr(tb.special, name)(da.from_array(x, chunks=10))
    assert lazy.dtype == np.float32
    _assert_same(lazy, getattr(tb.special, name)(x))


def test_broadcasting_scalars_and_numpy_operands():
    rng = np.random.default_rng(1)
    x, y = rng.uniform(0.1, 5, (20, 1)), rng.uniform(0.1, 5, 7)
    with no_compute():
        outer = tb.special.xlogy(da.from_array(x, chunks=(6, 1)), y)
        weak = tb.special.xlogy(da.from_array(x.astype(np.float32), chunks=6), 2.0)
    assert outer.shape == (20, 7)
    _assert_same(outer, tb.special.xlogy(x, y))
    _assert_same(weak, tb.special.xlogy(x.astype(np.float32), 2.0))


@pytest.mark.parametrize(
    "name,call",
    [
        ("polygamma", lambda f, x: f(2, x)),
        ("multigammaln", lambda f, x: f(x + 3.0, 3)),
        ("factorial", lambda f, x: f(x)),
        ("sinc", lambda f, x: f(x)),
        ("zeta", lambda f, x: f(x + 2.0, x + 1.5)),
        ("psi", lambda f, x: f(x)),
    ],
)
def test_other_elementwise_routines(name, call):
    x = np.abs(np.random.default_rng(2).standard_normal(SHAPE)) * 4
    func = getattr(tb.special, name)
    with no_compute():
        lazy = call(func, chunked(x, "ragged"))
    _assert_same(lazy, call(func, x))


def test_out_is_refused_and_mixed_containers_are_refused():
    d = da.ones(8, chunks=4)
    with pytest.raises(UnsupportedParameterError, match="out="):
        tb.special.erf(d, out=np.empty(8))
    with pytest.raises(MixedContainersError, match="torch"):
        tb.special.xlogy(d, torch.ones(8, dtype=torch.float64))


def test_a_dask_array_as_an_option_is_refused():
    with pytest.raises(UnsupportedParameterError, match="`d` as a dask array"):
        tb.special.multigammaln(da.full(4, 10.0, chunks=2), da.asarray(3))


def test_bad_options_fail_when_the_graph_is_built():
    """The probe call runs the routine with the caller's options: errors come at once, as eagerly."""
    with no_compute(), pytest.raises(UnsupportedParameterError):
        tb.special.erf(da.ones(8, chunks=4), casting="unsafe")


def _relative(got, want):
    got, want = np.asarray(got), np.asarray(want)
    finite = np.isfinite(want)
    assert np.array_equal(np.isfinite(got), finite)
    return float(np.max(np.abs(got[finite] - want[finite]) / np.maximum(np.abs(want[finite]), 1e-300), initial=0))


@pytest.mark.parametrize("chunks", [1, 2, 4, 16, 64])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_merges_partials_for_1_to_64_chunks(chunks, axis, keepdims):
    x = np.random.default_rng(3).standard_normal((64, 9)) * 30 + 500
    d = da.from_array(x, chunks=(-(-64 // chunks), 5))
    assert d.numblocks[0] == chunks
    with no_compute():
        lazy = tb.special.logsumexp(d, axis=axis, keepdims=keepdims)
    eager = tb.special.logsumexp(x, axis=axis, keepdims=keepdims)
    got = lazy.compute()
    assert np.shape(got) == np.shape(eager)
    assert _relative(got, eager) <= 1e-12


@pytest.mark.parametrize("axis", [None, 1])
def test_logsumexp_with_signed_weights_and_return_sign(axis):
    rng = np.random.default_rng(4)
    x, b = rng.standard_normal((40, 6)), rng.choice([-1.0, 0.5, 2.0], (40, 6))
    d = da.from_array(x, chunks=(7, 4))
    with no_compute():
        value, sign = tb.special.logsumexp(d, axis=axis, b=da.from_array(b, chunks=(7, 4)), return_sign=True)
    want_value, want_sign = tb.special.logsumexp(x, axis=axis, b=b, return_sign=True)
    assert _relative(value.compute(), want_value) <= 1e-12
    np.testing.assert_array_equal(sign.compute(), want_sign)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_logsumexp_return_sign_without_weights_negative_axes_and_dtypes(dtype):
    x = np.random.default_rng(6).standard_normal((20, 6)).astype(dtype)
    d = da.from_array(x, chunks=(3, 4))
    value, sign = tb.special.logsumexp(d, axis=-1, return_sign=True)
    want_value, want_sign = tb.special.logsumexp(x, axis=-1, return_sign=True)
    assert value.dtype == want_value.dtype == dtype and sign.dtype == want_sign.dtype
    np.testing.assert_allclose(value.compute(), want_value, rtol=1e-12 if dtype == np.float64 else 1e-6)
    np.testing.assert_array_equal(sign.compute(), want_sign)
    kept = tb.special.logsumexp(d, axis=(-2,), keepdims=True)
    assert kept.shape == tb.special.logsumexp(x, axis=(-2,), keepdims=True).shape == (1, 6)


def test_logsumexp_edges_all_minus_inf_and_nan_chunks():
    x = np.full((8, 4), -np.inf)
    x[:, 1] = np.nan
    x[:4, 2] = 1000.0
    d = da.from_array(x, chunks=(2, 4))
    got, want = tb.special.logsumexp(d, axis=0).compute(), tb.special.logsumexp(x, axis=0)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_softmax_family_normalizes_across_chunks(name, axis):
    x = np.random.default_rng(5).standard_normal((30, 8)) * 10
    func = getattr(tb.special, name)
    with no_compute():
        lazy = func(chunked(x, "ragged"), axis=axis)
    got, want = lazy.compute(), func(x, axis=axis)
    if name == "softmax":
        assert _relative(got, want) <= 1e-12
    else:  # x - logsumexp(x) cancels: its rounding is relative to the inputs' size
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13 * np.abs(x).max())
