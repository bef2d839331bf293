"""The stats moments as mergeable reductions (``dask.array.reduction``).

Each chunk is reduced by libtorch (``torchbridge.ops.aten``) to its partials
along the reduced axes: the count of values taken, the count of NaNs, the
mean as an unevaluated sum ``hi + lo`` (``hi`` the chunk's rounded mean,
``lo`` the mean of the exact deviations ``x - hi``: the chunk's mean to twice
the working precision), the sums of powers of the deviations about that
mean up to the order the statistic needs, and where wanted the extrema.
Partials merge by Chan et al.'s pairwise formulas, written for any order by
binomial expansion (Pébay 2008): with ``d = mean_b - mean_a``,

``M_p = sum_k C(p, k) (M_{p-k,a} (-n_b d / n)**k + M_{p-k,b} (n_a d / n)**k)``

(``M_0 = n``, ``M_1 = 0``), which for ``p <= 4`` is Chan's. The merged
mean stays a ``hi + lo`` pair, so data with a large mean (``1e9 +`` noise)
keep SciPy's two-pass accuracy (better: the mean's own rounding, which
moves a two-pass third moment by ``3 m2 d``, does not enter). The
statistic is then formed from the merged partials as the eager routine
forms it from its moments.

``nan_policy``: "propagate" gives NaN for a slice holding a NaN (the NaN
count merges); "omit" leaves NaNs out (the counts merge); "raise" raises
``ValueError("The input contains nan values")`` at compute, from the task
of the chunk that holds one (nothing is computed while the graph is built).
Where SciPy warns (too small a sample, constant input, precision loss in
the moments) the dask path gives the same NaNs without the warnings: a
warning inside a task would reach the caller only on the threaded
scheduler, never from a distributed worker. Where the eager trimmed
statistics raise because no value lies within ``limits``, the dask path
(which cannot know at build time) gives NaN for those slices.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from math import comb
from typing import Any, Callable

import numpy as np

from ..errors import InvalidArgumentError, UnsupportedParameterError
from ._chunking import _as_dask, _meta, _normalize_axis, _probe, namespace_of
from ._route import Call


@dataclass(frozen=True)
class PartialMoments:
    """Statistics from moments (``skew``, ``describe``, ``zscore``, ...):
    ``dask.array.reduction`` over the statistic's axes, each chunk reduced by
    libtorch to its count, mean and central power sums, the partials merged
    by Chan et al.'s pairwise formulas (any order by binomial merges; the
    mean kept to twice the precision), then the statistic formed from them;
    ``zscore``/``zmap`` then an elementwise pass; within 1e-12 relative of
    the unchunked result (see ``_moments``)."""

    build_graph: Callable[[Call], Any]
    kind: str = "partial moments"

    def build(self, call: Call) -> Any:
        if call.get("device") is not None:
            raise UnsupportedParameterError(
                f"{call.name} on dask arrays: `device=` is not supported here (the partials are computed where "
                "the chunks live: numpy chunks on the CPU, cupy chunks on their GPU)"
            )
        return self.build_graph(call)


# --------------------------------------------------------------------------- partials


@dataclass(frozen=True)
class Spec:
    """What a chunk's partials hold: central power sums up to ``order``
    (``0``: count and mean only), the extrema when ``extrema``; values
    outside ``limits`` (``(lower, upper, lower_inclusive, upper_inclusive)``,
    ``None`` for none) are left out as NaNs under "omit" are; ``nans``:
    "propagate", "omit" or "raise"; ``raw``: also ``sum((x - center)**raw_order)``."""

    order: int = 2
    extrema: bool = False
    nans: str = "propagate"
    limits: tuple | None = None
    omit_nan_always: bool = False
    center: float | None = None
    raw_order: int = 0


def _aten() -> Any:
    from ..ops import aten

    return aten


class _Chunk:
    """A chunk's partials over ``axis`` (kept as length-1 axes), a dict of arrays."""

    __name__ = "moments-chunk"  # dask names the graph's layers after it

    def __init__(self, spec: Spec):
        self.spec = spec

    def __dask_tokenize__(self) -> Any:
        return ("torchbridge-moments-chunk", self.spec)

    def __call__(self, block: Any, axis: tuple[int, ...], keepdims: bool, computing_meta: bool = False) -> Any:
        if computing_meta:
            return block
        return partials(block, axis, self.spec)


def partials(block: Any, axis: tuple[int, ...], spec: Spec) -> dict[str, Any]:
    """The partials of ``block`` over ``axis`` (see :class:`Spec`), by libtorch."""
    aten, xp = _aten(), namespace_of(block)
    axes = list(axis)
    x = block if block.dtype == np.float64 else block.astype(np.float64)
    nan = aten.isnan(x)
    nans = aten.sum(nan, axes, True)
    if spec.nans == "raise" and bool(xp.any(nans)):
        raise InvalidArgumentError("The input contains nan values")
    out = aten.logical_not(nan) if (spec.nans == "omit" or spec.omit_nan_always) else aten.ones_like(nan)
    keep = out
    if spec.limits is not None:
        lower, upper, lower_inclusive, upper_inclusive = spec.limits
        if lower is not None:
            keep = aten.logical_and(keep, aten.ge(x, lower) if lower_inclusive else aten.gt(x, lower))
        if upper is not None:
            keep = aten.logical_and(keep, aten.le(x, upper) if upper_inclusive else aten.lt(x, upper))
        # NaN fails every comparison: under "propagate" it is kept, so that it propagates as eagerly
        if not (spec.nans == "omit" or spec.omit_nan_always):
            keep = aten.logical_or(keep, nan)
    n = aten.sum(aten._cast_Double(keep), axes, True)
    with np.errstate(invalid="ignore", divide="ignore"):
        hi = aten.div(aten.sum(aten.where(keep, x, 0.0), axes, True), n)
        d = aten.where(keep, aten.sub(x, hi), 0.0)
        lo = aten.div(aten.sum(d, axes, True), n)
        lo = aten.where(aten.isfinite(hi), lo, 0.0)  # an infinite mean: no deviations to correct it by
        result = {"n": n, "nans": aten._cast_Double(nans), "hi": hi, "lo": lo}
        if spec.order >= 2:
            e = aten.where(keep, aten.sub(d, lo), 0.0)
            power = aten.mul(e, e)
            result["m2"] = aten.sum(power, axes, True)
            for k in range(3, spec.order + 1):
                power = aten.mul(power, e)
                result[f"m{k}"] = aten.sum(power, axes, True)
        if spec.extrema:
            result["min"] = aten.amin(aten.where(keep, x, float("inf")), axes, True)
            result["max"] = aten.amax(aten.where(keep, x, float("-inf")), axes, True)
        if spec.raw_order:
            c = aten.sub(x, spec.center) if spec.center else x
            result["raw"] = aten.sum(aten.where(keep, aten.pow(c, spec.raw_order), 0.0), axes, True)
    return result


def _merge2(a: dict[str, Any], b: dict[str, Any], spec: Spec, xp: Any) -> dict[str, Any]:
    """Two partials as one (Chan et al.; any order by binomial expansion)."""
    na, nb = a["n"], b["n"]
    n = na + nb
    out = {"n": n, "nans": a["nans"] + b["nans"]}
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        delta = (b["hi"] - a["hi"]) + (b["lo"] - a["lo"])
        fa, fb = na / n, nb / n
        hi, lo = a["hi"], a["lo"] + delta * fb
        total = hi + lo  # renormalised: hi the rounded mean, lo what it leaves out
        # an infinite (or NaN) mean on either side: the plain weighted mean, as a plain sum would give
        finite = xp.isfinite(total)
        plain = (na * (a["hi"] + a["lo"]) + nb * (b["hi"] + b["lo"])) / n
        out["hi"], out["lo"] = xp.where(finite, total, plain), xp.where(finite, lo - (total - hi), 0.0)
        ma = {0: na, 1: xp.zeros_like(na)} | {k: a[f"m{k}"] for k in range(2, spec.order + 1)}
        mb = {0: nb, 1: xp.zeros_like(nb)} | {k: b[f"m{k}"] for k in range(2, spec.order + 1)}
        da_, db_ = -fb * delta, fa * delta
        for p in range(2, spec.order + 1):
            m = ma[p] + mb[p]
            for k in range(1, p + 1):
                m = m + comb(p, k) * (ma[p - k] * da_**k + mb[p - k] * db_**k)
            out[f"m{p}"] = m
    if spec.extrema:
        out["min"], out["max"] = xp.minimum(a["min"], b["min"]), xp.maximum(a["max"], b["max"])
    if spec.raw_order:
        out["raw"] = a["raw"] + b["raw"]
    # an empty side (every value left out): the other as it is
    for key in out:
        if key in ("n", "nans", "min", "max", "raw"):
            continue
        out[key] = xp.where(na == 0, b[key], xp.where(nb == 0, a[key], out[key]))
    return out


class _Combine:
    """Merges the partials of a reduction step (nested lists of dicts along ``axis``)."""

    __name__ = "moments-merge"

    def __init__(self, spec: Spec):
        self.spec = spec

    def __dask_tokenize__(self) -> Any:
        return ("torchbridge-moments-combine", self.spec)

    def __call__(self, pairs: Any, axis: tuple[int, ...], keepdims: bool, computing_meta: bool = False) -> Any:
        if computing_meta:
            return pairs
        return merged(pairs, axis, self.spec)


def merged(pairs: Any, axis: tuple[int, ...], spec: Spec) -> dict[str, Any]:
    """The partials in ``pairs`` (dask's nested lists along ``axis``) merged into one (length-1 axes)."""
    from dask.array.core import _concatenate2
    from dask.utils import deepmap

    if not isinstance(pairs, list):
        pairs = [pairs]
    first = pairs
    while isinstance(first, list):
        first = first[0]
    xp = namespace_of(first["n"])
    stacked = {key: _concatenate2(deepmap(lambda p, key=key: p[key], pairs), axes=list(axis)) for key in first}
    lead = tuple(range(len(axis)))
    flat = {}
    for key, value in stacked.items():
        moved = xp.moveaxis(value, list(axis), list(lead))
        flat[key] = moved.reshape((-1,) + moved.shape[len(axis):])
    count = flat["n"].shape[0]
    acc = {key: value[0] for key, value in flat.items()}
    for i in range(1, count):
        acc = _merge2(acc, {key: value[i] for key, value in flat.items()}, spec, xp)
    return {key: xp.expand_dims(value, axis) for key, value in acc.items()}


class _Aggregate(_Combine):
    """The last merge, then ``finish`` on the merged partials; the reduced
    axes dropped unless ``keepdims``."""

    __name__ = "moments"

    def __init__(self, spec: Spec, finish: Callable[[dict[str, Any], Any], Any], dtype: Any):
        super().__init__(spec)
        self.finish = finish
        self.dtype = np.dtype(dtype)

    def __dask_tokenize__(self) -> Any:
        return ("torchbridge-moments-aggregate", self.spec, self.finish, str(self.dtype))

    def __call__(self, pairs: Any, axis: tuple[int, ...], keepdims: bool, computing_meta: bool = False) -> Any:
        if computing_meta:
            return pairs
        p = merged(pairs, axis, self.spec)
        xp = namespace_of(p["n"])
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            value = xp.asarray(self.finish(p, xp))
        value = value.astype(self.dtype, copy=False)
        return value if keepdims else value.squeeze(axis=axis)


# --------------------------------------------------------------------------- the statistics from the partials


@dataclass(frozen=True)
class Finish:
    """A statistic of merged partials (picklable, tokenized by its fields).

    ``what``: "mean", "sum", "var" (with ``ddof``), "std", "sem", "tvar",
    "tstd", "tsem" (NaN where the count less ``ddof`` is not positive),
    "moment" (``order``), "raw" (the moment about ``Spec.center``), "skew",
    "kurtosis" (``fisher``, ``bias``), "variation", "min", "max", "nobs";
    ``eps``: the eps of the eager routine's working dtype; ``too_small``:
    NaN where the count is at most this (the eager ``too_small``; ``-1``:
    never); ``nans``: the policy; ``empty_inf``: the extrema of a slice with
    no value taken are ``+-inf`` (``describe``'s) rather than NaN (``tmin``'s).
    """

    what: str
    nans: str = "propagate"
    ddof: float = 0.0
    order: int = 0
    fisher: bool = True
    bias: bool = True
    eps: float = float(np.finfo(np.float64).eps)
    too_small: int = 0
    empty_inf: bool = False

    def __call__(self, p: dict[str, Any], xp: Any) -> Any:
        n = p["n"]
        mean = p["hi"] + p["lo"]
        what = self.what
        if what == "mean":
            value = mean
        elif what == "sum":
            value = mean * n
        elif what == "nobs":
            value = n
        elif what in ("min", "max"):
            value = p[what] if self.empty_inf else xp.where(n == 0, np.nan, p[what])
        elif what == "raw":
            value = p["raw"] / n
        elif what == "moment":
            if self.order == 0:
                value = xp.ones_like(n)
            elif self.order == 1:
                value = xp.zeros_like(n)
            else:
                value = p[f"m{self.order}"] / n
        elif what in ("var", "std", "sem", "tvar", "tstd", "tsem"):
            m2 = p["m2"] / n
            var = m2 * n / xp.maximum(n - self.ddof, 0)
            if what.startswith("t"):
                var = xp.where(n - self.ddof <= 0, np.nan, var)
            value = var if what.endswith("var") else xp.sqrt(var)
            if what.endswith("sem"):
                value = value / xp.sqrt(n)
        elif what == "variation":
            std = xp.sqrt(p["m2"] / n)
            result = std * xp.sqrt(n / (n - self.ddof)) / mean
            special = xp.where(std > 0, xp.copysign(np.inf, mean), np.nan)
            value = xp.where(n == self.ddof, special, result)
        elif what == "skew":
            m2, m3 = p["m2"] / n, p["m3"] / n
            zero = m2 <= (mean * self.eps) ** 2
            g1 = m3 / m2**1.5
            value = xp.where(zero, np.nan, g1)
            if not self.bias:
                can = ~zero & (n > 2)
                value = xp.where(can, g1 * xp.sqrt((n - 1) * n) / (n - 2), value)
        elif what == "kurtosis":
            m2, m4 = p["m2"] / n, p["m4"] / n
            zero = m2 <= (mean * self.eps) ** 2
            b2 = m4 / m2**2
            value = xp.where(zero, np.nan, b2)
            if not self.bias:
                can = ~zero & (n > 3)
                corrected = ((n**2 - 1) * b2 - 3 * (n - 1) ** 2) / (n - 2) / (n - 3) + 3
                value = xp.where(can, corrected, value)
            if self.fisher:
                value = value - 3
        else:  # pragma: no cover - a table typo
            raise ValueError(what)
        if self.nans == "propagate":
            value = xp.where(p["nans"] > 0, np.nan, value)
        if self.too_small >= 0:
            value = xp.where(n <= self.too_small, np.nan, value)
        return value


# --------------------------------------------------------------------------- graph building


def _axes(call: Call, axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    axes = tuple(_normalize_axis(call, int(a), ndim) for a in axis)
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"{call.name}: repeated axis")
    return tuple(sorted(axes))


def _eps(dtype: Any) -> float:
    """The eps of the eager routine's working dtype (half precision computes in float32)."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f" or dtype == np.float64:
        return float(np.finfo(np.float64).eps)
    return float(np.finfo(np.float32).eps)


def _probe_dtype(call: Call, name: str, x: Any, inside: float | None = None) -> Any:
    """The eager result on a small non-constant probe (the caller's options: a bad one raises now);
    ``inside``: a value within the caller's limits, the probe's every value."""
    probe = (np.arange(2 ** max(x.ndim, 1), dtype=np.float64).reshape((2,) * max(x.ndim, 1)) + 1) % 3 + 1
    if inside is not None:
        probe = np.full_like(probe, inside)
    if x.ndim == 0:
        probe = probe[:1].reshape(())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _probe(call, {name: probe.astype(x.dtype)})


def _dtype_of(result: Any) -> np.dtype:
    first = result[0] if isinstance(result, (tuple, list)) else result
    return np.asarray(first).dtype


def reduce(
    x: Any, axes: tuple[int, ...], keepdims: bool, spec: Spec, finish: Callable[[dict[str, Any], Any], Any], dtype: Any
) -> Any:
    """``finish`` (a :class:`Finish`, or another picklable statistic of the
    merged partials and the array namespace) of ``x``'s merged partials over
    ``axes``: a lazy dask array."""
    import dask.array as da

    kept = x.ndim if keepdims else x.ndim - len(axes)
    return da.reduction(
        x,
        chunk=_Chunk(spec),
        combine=_Combine(spec),
        aggregate=_Aggregate(spec, finish, dtype),
        axis=axes,
        keepdims=keepdims,
        dtype=dtype,
        concatenate=False,
        meta=_meta(x, kept, dtype),
    )


def _policy(call: Call, name: str = "nan_policy") -> str:
    policy = call.get(name, "propagate")
    return str(policy)


def _common(call: Call, name: str = "a") -> tuple[Any, tuple[int, ...], bool, str]:
    x = _as_dask(call, name, call.get(name))
    axes = _axes(call, call.get("axis"), x.ndim) if x.ndim else ()
    if x.ndim == 0:
        x = x.reshape((1,))
        axes = (0,)
    return x, axes, bool(call.get("keepdims", False)), _policy(call)


def _one(call: Call, spec_order: int, finish: Callable[[str, Any], Finish], **spec_options: Any) -> Any:
    x, axes, keepdims, policy = _common(call)
    dtype = _dtype_of(_probe_dtype(call, "a", x))
    spec = Spec(order=spec_order, nans=policy, **spec_options)
    return reduce(x, axes, keepdims, spec, finish(policy, x.dtype), dtype)


def skew(call: Call) -> Any:
    bias = bool(call.get("bias"))
    return _one(call, 3, lambda policy, dt: Finish("skew", policy, bias=bias, eps=_eps(dt)))


def kurtosis(call: Call) -> Any:
    fisher, bias = bool(call.get("fisher")), bool(call.get("bias"))
    return _one(call, 4, lambda policy, dt: Finish("kurtosis", policy, fisher=fisher, bias=bias, eps=_eps(dt)))


def sem(call: Call) -> Any:
    ddof = float(call.get("ddof"))
    return _one(call, 2, lambda policy, dt: Finish("sem", policy, ddof=ddof, too_small=1))


def variation(call: Call) -> Any:
    ddof = float(call.get("ddof"))
    return _one(call, 2, lambda policy, dt: Finish("variation", policy, ddof=ddof))


def moment(call: Call) -> Any:
    import dask.array as da

    x, axes, keepdims, policy = _common(call)
    probe = _probe_dtype(call, "a", x)
    dtype = _dtype_of(probe)
    order, center = call.get("order"), call.get("center")
    orders = [int(o) for o in np.atleast_1d(np.asarray(order))]
    results = []
    for o in orders:
        if center is not None and o > 0:
            spec = Spec(order=0, nans=policy, center=float(center), raw_order=o)
            results.append(reduce(x, axes, keepdims, spec, Finish("raw", policy), dtype))
        else:
            spec = Spec(order=max(orders + [0]) if o > 1 else 0, nans=policy)
            results.append(reduce(x, axes, keepdims, spec, Finish("moment", policy, order=o), dtype))
    if np.ndim(order) == 0:
        return results[0]
    return da.stack(results)


def describe(call: Call) -> Any:
    from ..stats._stats_py import DescribeResult

    x, axes, _, policy = _common(call)
    if x.size == 0:
        raise InvalidArgumentError("The input must not be empty.")
    probe = _probe_dtype(call, "a", x)
    dtype = np.asarray(probe.mean).dtype
    raw_dtype = np.asarray(probe.minmax[0]).dtype
    ddof, bias, eps = float(call.get("ddof")), bool(call.get("bias")), _eps(x.dtype)
    spec = Spec(order=4, extrema=True, nans=policy)

    def stat(finish: Finish, dt: Any) -> Any:
        return reduce(x, axes, False, spec, finish, dt)

    # under "propagate" and "raise" every value counts, as eagerly; NaNs make the NaN statistics below
    extreme = "omit" if policy == "omit" else "propagate"
    lowest = stat(Finish("min", extreme, too_small=-1, empty_inf=True), raw_dtype)
    highest = stat(Finish("max", extreme, too_small=-1, empty_inf=True), raw_dtype)
    if policy == "omit":
        nobs: Any = stat(Finish("nobs", "omit", too_small=-1), np.int64)
    else:
        nobs = np.int64(np.prod([x.shape[a] for a in axes]))
    return DescribeResult(
        nobs,
        (lowest, highest),
        stat(Finish("mean", policy, too_small=-1), dtype),
        stat(Finish("var", policy, ddof=ddof, too_small=-1), dtype),
        stat(Finish("skew", policy, bias=bias, eps=eps, too_small=-1), dtype),
        stat(Finish("kurtosis", policy, fisher=True, bias=bias, eps=eps, too_small=-1), dtype),
    )


# --------------------------------------------------------------------------- trimmed statistics


def _limits(call: Call, lower: Any, upper: Any, inclusive: Any) -> tuple | None:
    """``(lower, upper, lower_inclusive, upper_inclusive)`` as floats and bools, ``None`` for no limits."""
    if lower is None and upper is None:
        return None
    inclusive = (True, True) if inclusive is None else tuple(bool(i) for i in inclusive)
    return (
        None if lower is None else float(lower),
        None if upper is None else float(upper),
        inclusive[0],
        inclusive[1],
    )


def _inside(lower: Any, upper: Any) -> float | None:
    """A value strictly within ``(lower, upper)`` (either may be ``None``)."""
    if lower is None and upper is None:
        return None
    if lower is None or upper is None:
        return float(upper) - 1.0 if lower is None else float(lower) + 1.0
    return (float(lower) + float(upper)) / 2


def _trimmed(call: Call, what: str, order: int) -> Any:
    x, axes, keepdims, policy = _common(call)
    limits = call.get("limits")
    dtype = _dtype_of(_probe_dtype(call, "a", x, None if limits is None else _inside(limits[0], limits[1])))
    limits = None if limits is None else _limits(call, limits[0], limits[1], call.get("inclusive"))
    ddof = float(call.get("ddof", 0))
    # tvar/tstd/tsem leave NaNs out inside (as SciPy's do); a NaN under "propagate" still makes NaN
    spec = Spec(order=order, nans=policy, limits=limits, omit_nan_always=what != "mean")
    finish = Finish(what if what == "mean" else f"t{what}", policy, ddof=ddof, too_small=0 if what == "mean" else -1)
    return reduce(x, axes, keepdims, spec, finish, dtype)


def tmean(call: Call) -> Any:
    return _trimmed(call, "mean", 0)


def tvar(call: Call) -> Any:
    return _trimmed(call, "var", 2)


def tstd(call: Call) -> Any:
    return _trimmed(call, "std", 2)


def tsem(call: Call) -> Any:
    return _trimmed(call, "sem", 2)


def _textreme(call: Call, what: str, limit: str) -> Any:
    x, axes, keepdims, policy = _common(call)
    bound = call.get(limit)
    inside = None if bound is None else (_inside(bound, None) if what == "min" else _inside(None, bound))
    dtype = _dtype_of(_probe_dtype(call, "a", x, inside))
    inclusive = bool(call.get("inclusive"))
    if bound is None:
        limits = None
    elif what == "min":
        limits = _limits(call, bound, None, (inclusive, True))
    else:
        limits = _limits(call, None, bound, (True, inclusive))
    spec = Spec(order=0, extrema=True, nans=policy, limits=limits)
    return reduce(x, axes, keepdims, spec, Finish(what, policy, too_small=-1), dtype)


def tmin(call: Call) -> Any:
    return _textreme(call, "min", "lowerlimit")


def tmax(call: Call) -> Any:
    return _textreme(call, "max", "upperlimit")


# --------------------------------------------------------------------------- zscore, zmap


class _Standardized:
    """``(x - mean) / std`` on a block, by libtorch, in ``dtype``."""

    __name__ = "standardized"

    def __init__(self, dtype: Any):
        self.dtype = np.dtype(dtype)

    def __dask_tokenize__(self) -> Any:
        return ("torchbridge-standardized", str(self.dtype))

    def __call__(self, block: Any, mean: Any, std: Any) -> Any:
        aten = _aten()
        x = block if block.dtype == np.float64 else block.astype(np.float64)
        return aten.div(aten.sub(x, mean), std).astype(self.dtype, copy=False)


class _ZStd:
    """zscore's standard deviation (NaN where it vanishes beside the mean), keepdims, float64."""

    def __init__(self, ddof: float, eps: float):
        self.ddof = ddof
        self.eps = eps

    def __dask_tokenize__(self) -> Any:
        return ("torchbridge-zstd", self.ddof, self.eps)

    def __call__(self, p: dict[str, Any], xp: Any) -> Any:
        n = p["n"]
        mean = p["hi"] + p["lo"]
        nc = n - self.ddof
        var = xp.where(nc <= 0, np.nan, (p["m2"] / n) * n / nc)
        std = xp.sqrt(var)
        return xp.where(std <= xp.abs(mean * self.eps), np.nan, std)


def zmap(call: Call) -> Any:
    scores_name = "scores" if call.name.endswith("zmap") else "a"
    compare_name = "compare" if call.name.endswith("zmap") else "a"
    scores = _as_dask(call, scores_name, call.get(scores_name))
    compare = _as_dask(call, compare_name, call.get(compare_name))
    policy = _policy(call)
    values = {scores_name: _small(scores), compare_name: _small(compare)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dtype = np.asarray(_probe(call, values)).dtype
    axis = call.get("axis")
    axes = _axes(call, axis, compare.ndim)
    if axis is not None and len(axes) != 1:
        raise InvalidArgumentError(f"{call.name}: axis must be an int or None")
    eps = _eps(dtype if dtype.kind == "f" else np.float64)
    spec = Spec(order=2, nans=policy)
    mean = reduce(compare, axes, True, spec, Finish("mean", "omit" if policy == "omit" else "propagate", too_small=-1),
                  np.float64)
    std = reduce(compare, axes, True, spec, _ZStd(float(call.get("ddof")), eps), np.float64)
    if scores.ndim == compare.ndim:  # the reduced values in the scores' chunks along the kept axes
        chunks = {i: scores.chunks[i] for i in range(scores.ndim) if mean.shape[i] == scores.shape[i] > 1}
        mean, std = mean.rechunk(chunks), std.rechunk(chunks)
    if policy == "raise":
        scores = scores.map_blocks(_RaiseOnNan(), dtype=scores.dtype, meta=scores._meta)
    return scores.map_blocks(_Standardized(dtype), mean, std, dtype=dtype, meta=_meta(scores, scores.ndim, dtype))


class _RaiseOnNan:
    """The block as it is, after checking it holds no NaN ("raise", checked at compute)."""

    __name__ = "nan-check"

    def __dask_tokenize__(self) -> Any:
        return "torchbridge-nan-check"

    def __call__(self, block: Any) -> Any:
        if bool(namespace_of(block).any(_aten().isnan(block))):
            raise InvalidArgumentError("The input contains nan values")
        return block


def _small(x: Any) -> np.ndarray:
    shape = (2,) * x.ndim
    return ((np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % 3) + 1).astype(x.dtype)


# --------------------------------------------------------------------------- power means, entropy


class _Blockwise:
    """An elementwise step on blocks by libtorch (``op``: ``"log"``, ``"reciprocal"``, ``"pow"``,
    ``"exp"``, ``"root"``, ``"weighted"``, ``"joint-nan"``, ``"div"``, ``"entr"``, ``"rel_entr"``,
    ``"scale"``), its result cast to ``dtype``."""

    def __init__(self, op: str, dtype: Any, value: float = 0.0):
        self.op = op
        self.dtype = np.dtype(dtype)
        self.value = value
        self.__name__ = op

    def __dask_tokenize__(self) -> Any:
        return ("torchbridge-blockwise", self.op, str(self.dtype), self.value)

    def __call__(self, *blocks: Any) -> Any:
        aten = _aten()
        blocks = tuple(b if b.dtype == np.float64 else b.astype(np.float64) for b in blocks)
        x = blocks[0]
        op = self.op
        with np.errstate(all="ignore"):
            if op in ("reciprocal", "pow"):  # negative values make NaN (SciPy warns eagerly)
                x = aten.where(aten.lt(x, 0.0), float("nan"), x)
                out = aten.reciprocal(x) if op == "reciprocal" else aten.pow(x, self.value)
            elif op == "log":
                out = aten.log(x)
            elif op == "exp":
                out = aten.exp(x)
            elif op == "root":
                out = aten.pow(x, 1.0 / self.value)
            elif op == "weighted":  # t * w, NaN where either is
                out = aten.mul(x, blocks[1])
            elif op == "joint-nan":  # x, NaN where the other is NaN
                out = aten.where(aten.isnan(blocks[1]), float("nan"), x)
            elif op == "div":
                out = aten.div(x, blocks[1])
            elif op == "entr":
                out = aten.special_entr(x)
            elif op == "rel_entr":
                from .. import special

                out = special.rel_entr(x, blocks[1])
            elif op == "scale":
                out = aten.div(x, self.value)
            else:  # pragma: no cover - a typo
                raise ValueError(op)
        return out.astype(self.dtype, copy=False)


def _map(op: str, dtype: Any, *arrays: Any, value: float = 0.0) -> Any:
    return arrays[0].map_blocks(
        _Blockwise(op, dtype, value), *arrays[1:], dtype=dtype, meta=_meta(arrays[0], arrays[0].ndim, dtype)
    )


def _power_mean(call: Call, power: str, p: float = 0.0) -> Any:
    import dask.array as da

    x, axes, keepdims, policy = _common(call)
    weights = call.get("weights")
    values: dict[str, Any] = {}
    if weights is not None:
        weights = _as_dask(call, "weights", weights)
        values["weights"] = np.ones((2,) * weights.ndim, dtype=weights.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = (np.arange(2 ** x.ndim, dtype=np.float64).reshape((2,) * x.ndim) % 3 + 1).astype(x.dtype)
        dtype = np.asarray(_probe(call, {"a": probe, **values})).dtype
    op = {"geometric": "log", "harmonic": "reciprocal", "power": "pow"}[power]
    t = _map(op, np.float64, x, value=p)
    if weights is not None:
        t, w = da.broadcast_arrays(t, weights)
        if x.ndim == 0:
            t, w = t.reshape((1,)), w.reshape((1,))
        w = _map("joint-nan", np.float64, w, t)
        t = _map("weighted", np.float64, _map("joint-nan", np.float64, t, w), w)
        axes = _axes(call, call.get("axis"), t.ndim)
    spec = Spec(order=0, nans=policy)
    mean = reduce(t, axes, keepdims, spec, Finish("mean", policy), np.float64)
    if weights is not None:
        mean = _map("div", np.float64, mean, reduce(w, axes, keepdims, spec, Finish("mean", policy), np.float64))
    inverse = {"log": "exp", "reciprocal": "reciprocal", "pow": "root"}[op]
    return _map(inverse, dtype, mean, value=p)


def gmean(call: Call) -> Any:
    return _power_mean(call, "geometric")


def hmean(call: Call) -> Any:
    return _power_mean(call, "harmonic")


def pmean(call: Call) -> Any:
    p = float(call.get("p"))
    if p == 0:
        return _power_mean(call, "geometric")
    if not np.isfinite(p):
        _probe_dtype(call, "a", _as_dask(call, "a", call.get("a")))  # raises as eagerly
    return _power_mean(call, "power", p)


def entropy(call: Call) -> Any:
    import dask.array as da

    pk = _as_dask(call, "pk", call.get("pk"))
    qk = call.get("qk")
    policy = _policy(call)
    values: dict[str, Any] = {"pk": _small(pk)}
    if qk is not None:
        qk = _as_dask(call, "qk", qk)
        values["qk"] = _small(qk)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dtype = np.asarray(_probe(call, values)).dtype
    if qk is not None:
        pk, qk = da.broadcast_arrays(pk, qk)
        pk, qk = _map("joint-nan", np.float64, pk, qk), _map("joint-nan", np.float64, qk, pk)
    if pk.ndim == 0:
        pk = pk.reshape((1,))
        qk = None if qk is None else qk.reshape((1,))
    axes = _axes(call, call.get("axis"), pk.ndim)
    keepdims = bool(call.get("keepdims"))
    spec = Spec(order=0, nans=policy)

    def total(x: Any) -> Any:  # the sum over the axes, kept as length-1 axes
        return reduce(x, axes, True, spec, Finish("sum", policy, too_small=-1), np.float64)

    p = _map("div", np.float64, pk, total(pk))
    if qk is None:
        terms = _map("entr", np.float64, p)
    else:
        terms = _map("rel_entr", np.float64, p, _map("div", np.float64, qk, total(qk)))
    s = reduce(terms, axes, keepdims, spec, Finish("sum", policy, too_small=-1), np.float64)
    base = call.get("base")
    return _map("scale", dtype, s, value=float(np.log(base)) if base is not None else 1.0)
