"""`scipy.stats._distn_infrastructure`: the classes of the distribution
objects (``rv_continuous``, ``rv_discrete``) and of their frozen forms
(``rv_continuous_frozen``, ``rv_discrete_frozen``).

Each method parses SciPy's ``*args, **kwds`` (the shape parameters by
position or name, then ``loc`` and, for continuous distributions, ``scale``)
and calls one of three compiled functions of ``torchbridge._core.stats``
(``_distn_method``, ``_distn_moments``, ``_distn_rvs``), which compute with
libtorch on the arrays' device and return the caller's array type (NumPy
scalars for NumPy or Python input reduced to 0-d, as SciPy). Every method
takes a keyword-only ``device=None`` (see :mod:`torchbridge._device`).

As SciPy: inputs broadcast together; every result is float64; invalid
parameters give nan, not an error; outside the support pdf is 0 and cdf 0 or
1; ``ppf(0)``/``ppf(1)`` are the support's ends.

``rvs`` inverts uniform draws of a torch generator (``ppf(u)``), so its
values differ from SciPy's (another generator) but follow the same law.
``random_state``: ``None`` (torch's default generator on the parameters'
device: ``torch.manual_seed`` makes it reproducible), an int (a fresh
``torch.Generator`` on that device seeded with it: CPU and CUDA streams
differ), a ``torch.Generator`` (drawn on its device), or a NumPy
``Generator``/``RandomState``, from which one 63-bit seed is drawn (so the
NumPy generator advances and a seeded one gives reproducible draws).
"""

from __future__ import annotations

import inspect
import numbers
from typing import Any

import numpy as np

from .._core.stats import _distn_method, _distn_moments, _distn_rvs

__all__: list[str] = ["rv_continuous", "rv_discrete", "rv_frozen", "rv_continuous_frozen", "rv_discrete_frozen"]

_P = inspect.Parameter


def _random_state(random_state: Any) -> Any:
    """``random_state`` as ``_distn_rvs`` takes it: ``None``, a seed, or a ``torch.Generator``."""
    if random_state is None or random_state is np.random:
        return None
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        seed = int(random_state)
        if not 0 <= seed < 2**64:
            raise ValueError(f"random_state={seed}: a seed must be between 0 and 2**64 - 1")
        return seed
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**63 - 1))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**63 - 1, dtype=np.int64))
    import torch

    if isinstance(random_state, torch.Generator):
        return random_state
    raise ValueError(
        f"{random_state!r} cannot be used as random_state: pass None, an int, a torch.Generator, or a "
        "numpy Generator/RandomState (a seed is drawn from it)"
    )


def _signature(names: list[str], extra: list[tuple[str, Any]]) -> inspect.Signature:
    required = [_P(n, _P.POSITIONAL_OR_KEYWORD) for n in names]
    return inspect.Signature(required + [_P(n, _P.POSITIONAL_OR_KEYWORD, default=d) for n, d in extra])


class rv_generic:
    """What ``rv_continuous`` and ``rv_discrete`` share (SciPy's ``rv_generic``)."""

    _discrete = False

    def __init__(self, name: str, shapes: tuple[str, ...] = (), a: float = -np.inf, b: float = np.inf) -> None:
        self.name = name
        # found by name like the routines (pickles, dask workers): `<class's module>.<name>`
        self.__qualname__ = name
        self.shapes = ", ".join(shapes) if shapes else None
        self.numargs = len(shapes)
        self.a = a
        self.b = b
        self.badvalue = np.nan
        self._shape_names = shapes
        locscale = [("loc", 0)] if self._discrete else [("loc", 0), ("scale", 1)]
        self._sig_args = _signature(list(shapes), locscale)
        self._sig_stats = _signature(list(shapes), [*locscale, ("moments", "mv")])
        self._sig_rvs = _signature(list(shapes), [*locscale, ("size", None)])
        self.__doc__ = self._describe()

    def _describe(self) -> str:
        """The instance's help: SciPy's summary line (the class docstring), then how torchbridge computes it."""
        kind = "pmf" if self._discrete else "pdf"
        params = f"shape parameters ``{self.shapes}``, " if self.shapes else ""
        scale = "``loc``" if self._discrete else "``loc`` and ``scale``"
        return (
            f"{inspect.cleandoc(type(self).__doc__ or self.name)}\n\n"
            f"torchbridge's ``{self.name}`` takes SciPy's {params}{scale}, broadcast with the\n"
            f"argument, and has SciPy's methods ({kind}, cdf, sf, ppf, isf, their logs, the moments,\n"
            "``rvs``) and frozen form (``stats.{name}(...)``). The formulas are libtorch ops on\n"
            "the data's device, results in the caller's array type; every method takes a\n"
            "keyword-only ``device=None`` (where to compute). ``rvs`` draws from a torch generator.\n"
        ).replace("{name}", self.name)

    def __repr__(self) -> str:
        return f"<torchbridge.stats.{self.name}>"

    def __reduce__(self) -> Any:
        # the distributions are singletons, pickled by name as SciPy's are not
        return (_instance, (self.name,))

    def _get_support(self, *shapes: Any) -> tuple[Any, Any]:
        """The support of the standardised distribution (SciPy's ``_get_support``)."""
        return self.a, self.b

    def _bind(self, signature: inspect.Signature, args: tuple, kwds: dict) -> dict[str, Any]:
        bound = signature.bind(*args, **kwds)
        bound.apply_defaults()
        return dict(bound.arguments)

    def _parse_args(self, *args: Any, **kwds: Any) -> tuple[tuple, Any, Any]:
        values = self._bind(self._sig_args, args, kwds)
        return tuple(values[n] for n in self._shape_names), values["loc"], values.get("scale", 1)

    def _method(self, method: str, x: Any, args: tuple, kwds: dict, device: Any) -> Any:
        shapes, loc, scale = self._parse_args(*args, **kwds)
        return _distn_method(self.name, method, x, list(shapes), loc, scale, device=device)

    def _moments(self, which: str, args: tuple, kwds: dict, device: Any) -> tuple:
        shapes, loc, scale = self._parse_args(*args, **kwds)
        return _distn_moments(self.name, which, list(shapes), loc, scale, device=device)

    def freeze(self, *args: Any, **kwds: Any) -> rv_frozen:
        """Freeze the distribution for the given arguments."""
        if self._discrete:
            return rv_discrete_frozen(self, *args, **kwds)
        return rv_continuous_frozen(self, *args, **kwds)

    def __call__(self, *args: Any, **kwds: Any) -> rv_frozen:
        return self.freeze(*args, **kwds)

    def ppf(self, q: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Percent point function (inverse of `cdf`) at q of the given RV."""
        return self._method("ppf", q, args, kwds, device)

    def isf(self, q: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Inverse survival function (inverse of `sf`) at q of the given RV."""
        return self._method("isf", q, args, kwds, device)

    def stats(self, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Some statistics of the given RV (``moments``: letters of ``'mvsk'``)."""
        values = self._bind(self._sig_stats, args, kwds)
        moments = values.pop("moments")
        if not isinstance(moments, str) or not moments or set(moments) - set("mvsk"):
            raise ValueError(f"moments={moments!r}: expected a string of the letters 'm', 'v', 's', 'k'")
        shapes = [values[n] for n in self._shape_names]
        out = _distn_moments(self.name, moments, shapes, values["loc"], values.get("scale", 1), device=device)
        return out[0] if len(out) == 1 else out

    def mean(self, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Mean of the distribution."""
        return self._moments("m", args, kwds, device)[0]

    def var(self, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Variance of the distribution."""
        return self._moments("v", args, kwds, device)[0]

    def std(self, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Standard deviation of the distribution."""
        return self._moments("v", args, kwds, device)[0] ** 0.5

    def entropy(self, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Differential entropy of the RV."""
        return self._moments("e", args, kwds, device)[0]

    def median(self, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Median of the distribution."""
        return self.ppf(0.5, *args, device=device, **kwds)

    def interval(self, confidence: Any, *args: Any, device: Any = None, **kwds: Any) -> tuple[Any, Any]:
        """Confidence interval with equal areas around the median."""
        alpha = confidence
        if isinstance(alpha, (numbers.Number, list, tuple, np.ndarray, np.generic)):
            alpha = np.asarray(alpha)
        if bool(((alpha > 1) | (alpha < 0)).any()):
            raise ValueError("alpha must be between 0 and 1 inclusive")
        q1 = (1.0 - alpha) / 2
        q2 = (1.0 + alpha) / 2
        return self.ppf(q1, *args, device=device, **kwds), self.ppf(q2, *args, device=device, **kwds)

    def _support(self, args: tuple, kwds: dict, device: Any) -> tuple[Any, Any]:
        lower, upper = self._moments("ab", args, kwds, device)
        return lower, upper

    def _rvs(self, args: tuple, kwds: dict) -> Any:
        device = kwds.pop("device", None)
        random_state = _random_state(kwds.pop("random_state", None))
        values = self._bind(self._sig_rvs, args, kwds)
        shapes = [values[n] for n in self._shape_names]
        out = _distn_rvs(
            self.name, shapes, values["loc"], values.get("scale", 1), values["size"], random_state, device=device
        )
        if self._discrete and isinstance(out, np.integer):
            return int(out)
        return out


class rv_continuous(rv_generic):
    """A continuous random variable (SciPy's ``rv_continuous``); the
    instances are ``torchbridge.stats.norm``, ``gamma``, ..."""

    def pdf(self, x: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Probability density function at x of the given RV."""
        return self._method("pdf", x, args, kwds, device)

    def logpdf(self, x: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Log of the probability density function at x of the given RV."""
        return self._method("logpdf", x, args, kwds, device)

    def cdf(self, x: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Cumulative distribution function of the given RV."""
        return self._method("cdf", x, args, kwds, device)

    def logcdf(self, x: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Log of the cumulative distribution function at x of the given RV."""
        return self._method("logcdf", x, args, kwds, device)

    def sf(self, x: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Survival function (1 - `cdf`) at x of the given RV."""
        return self._method("sf", x, args, kwds, device)

    def logsf(self, x: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Log of the survival function of the given RV."""
        return self._method("logsf", x, args, kwds, device)

    def rvs(self, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Random variates of given type."""
        return self._rvs(args, dict(kwds, device=device))

    def support(self, *args: Any, device: Any = None, **kwargs: Any) -> tuple[Any, Any]:
        """Support of the distribution."""
        return self._support(args, kwargs, device)


class rv_discrete(rv_generic):
    """A discrete random variable (SciPy's ``rv_discrete``); the instances
    are ``torchbridge.stats.poisson``, ``binom``, ``nbinom``. ``entropy``
    sums ``-pmf log pmf`` over the support between ``ppf(1e-20)`` and
    ``isf(1e-20)`` (``UnsupportedParameterError`` where that range is wider
    than 5e7 values in all)."""

    _discrete = True

    def pmf(self, k: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Probability mass function at k of the given RV."""
        return self._method("pmf", k, args, kwds, device)

    def logpmf(self, k: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Log of the probability mass function at k of the given RV."""
        return self._method("logpmf", k, args, kwds, device)

    def cdf(self, k: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Cumulative distribution function of the given RV."""
        return self._method("cdf", k, args, kwds, device)

    def logcdf(self, k: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Log of the cumulative distribution function at k of the given RV."""
        return self._method("logcdf", k, args, kwds, device)

    def sf(self, k: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Survival function (1 - `cdf`) at k of the given RV."""
        return self._method("sf", k, args, kwds, device)

    def logsf(self, k: Any, *args: Any, device: Any = None, **kwds: Any) -> Any:
        """Log of the survival function of the given RV."""
        return self._method("logsf", k, args, kwds, device)

    def rvs(self, *args: Any, device: Any = None, **kwargs: Any) -> Any:
        """Random variates of given type (int64, as SciPy)."""
        return self._rvs(args, dict(kwargs, device=device))

    def support(self, *args: Any, device: Any = None, **kwargs: Any) -> tuple[Any, Any]:
        """Support of the distribution."""
        return self._support(args, kwargs, device)


class rv_frozen:
    """A distribution with its parameters fixed (SciPy's ``rv_frozen``)."""

    def __init__(self, dist: rv_generic, *args: Any, **kwds: Any) -> None:
        self.args = args
        self.kwds = kwds
        self.dist: Any = dist
        shapes, _, _ = dist._parse_args(*args, **kwds)  # raises as SciPy for wrong arguments
        self.a, self.b = dist._get_support(*shapes)

    @property
    def random_state(self) -> None:
        """torchbridge draws from torch generators: pass ``random_state`` to ``rvs``."""
        return None

    def cdf(self, x: Any, *, device: Any = None) -> Any:
        return self.dist.cdf(x, *self.args, device=device, **self.kwds)

    def logcdf(self, x: Any, *, device: Any = None) -> Any:
        return self.dist.logcdf(x, *self.args, device=device, **self.kwds)

    def ppf(self, q: Any, *, device: Any = None) -> Any:
        return self.dist.ppf(q, *self.args, device=device, **self.kwds)

    def isf(self, q: Any, *, device: Any = None) -> Any:
        return self.dist.isf(q, *self.args, device=device, **self.kwds)

    def rvs(self, size: Any = None, random_state: Any = None, *, device: Any = None) -> Any:
        return self.dist.rvs(*self.args, size=size, random_state=random_state, device=device, **self.kwds)

    def sf(self, x: Any, *, device: Any = None) -> Any:
        return self.dist.sf(x, *self.args, device=device, **self.kwds)

    def logsf(self, x: Any, *, device: Any = None) -> Any:
        return self.dist.logsf(x, *self.args, device=device, **self.kwds)

    def stats(self, moments: str = "mv", *, device: Any = None) -> Any:
        return self.dist.stats(*self.args, moments=moments, device=device, **self.kwds)

    def median(self, *, device: Any = None) -> Any:
        return self.dist.median(*self.args, device=device, **self.kwds)

    def mean(self, *, device: Any = None) -> Any:
        return self.dist.mean(*self.args, device=device, **self.kwds)

    def var(self, *, device: Any = None) -> Any:
        return self.dist.var(*self.args, device=device, **self.kwds)

    def std(self, *, device: Any = None) -> Any:
        return self.dist.std(*self.args, device=device, **self.kwds)

    def entropy(self, *, device: Any = None) -> Any:
        return self.dist.entropy(*self.args, device=device, **self.kwds)

    def interval(self, confidence: Any = None, *, device: Any = None) -> tuple[Any, Any]:
        return self.dist.interval(confidence, *self.args, device=device, **self.kwds)

    def support(self, *, device: Any = None) -> tuple[Any, Any]:
        return self.dist.support(*self.args, device=device, **self.kwds)


class rv_continuous_frozen(rv_frozen):
    """A frozen continuous distribution."""

    def pdf(self, x: Any, *, device: Any = None) -> Any:
        return self.dist.pdf(x, *self.args, device=device, **self.kwds)

    def logpdf(self, x: Any, *, device: Any = None) -> Any:
        return self.dist.logpdf(x, *self.args, device=device, **self.kwds)


class rv_discrete_frozen(rv_frozen):
    """A frozen discrete distribution."""

    def pmf(self, k: Any, *, device: Any = None) -> Any:
        return self.dist.pmf(k, *self.args, device=device, **self.kwds)

    def logpmf(self, k: Any, *, device: Any = None) -> Any:
        return self.dist.logpmf(k, *self.args, device=device, **self.kwds)


def _instance(name: str) -> rv_generic:
    """The distribution object named ``name`` (what pickling looks up)."""
    from . import _continuous_distns, _discrete_distns

    return getattr(_continuous_distns, name, None) or getattr(_discrete_distns, name)
