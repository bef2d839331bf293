"""Every exported routine has a SciPy counterpart with the same signature, the
families meet the issue's floors, and the README's table is the package's."""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / ".ci"))
import coverage_table as cov  # noqa: E402  (.ci/coverage_table.py, the table generator)
from conftest import with_device  # noqa: E402

from torchbridge.stats._distn_infrastructure import rv_generic  # noqa: E402

# Routines that take no arrays, hence no device keyword.
NO_ARRAYS = (
    # scipy.special's error handling (state and classes)
    "errstate", "geterr", "seterr", "SpecialFunctionError", "SpecialFunctionWarning",
    "next_fast_len", "prev_fast_len", "fhtoffset", "set_workers", "get_workers", "correlation_lags", "unit_impulse",
    "kaiser_beta", "kaiser_atten", "kaiserord", "firwin", "firwin2",
    "bessel", "butter", "cheby1", "cheby2", "iirfilter",
)
FLOORS = {
    "special": 192, "fft": 24, "linalg": 93, "signal": 68, "signal.windows": 26, "spatial.distance": 26, "ndimage": 66,
    "stats": 58,
}
ROUTINES = [
    (family, name)
    for family in cov.families()
    for name in importlib.import_module(f"torchbridge.{family}").__all__
]


@pytest.mark.parametrize("family", cov.families())
def test_floor(family):
    exported = importlib.import_module(f"torchbridge.{family}").__all__
    assert len(exported) >= FLOORS[family], sorted(exported)
    assert len(set(exported)) == len(exported)


def _scipy_signature(theirs) -> inspect.Signature:
    """SciPy's signature; a MultiUFunc (``sph_harm_y``, ...) takes ``*args, **kwargs``
    and states its real one on its docstring's first line."""
    if type(theirs).__name__ == "MultiUFunc":
        first = theirs.__doc__.strip().splitlines()[0]
        params = first[first.index("(") + 1 : first.rindex(")")]
        return inspect.signature(eval(f"lambda {params}: None"))  # SciPy's own docstring
    return inspect.signature(theirs)


@pytest.mark.parametrize(("family", "name"), ROUTINES)
def test_same_signature_as_scipy(family, name):
    ours = getattr(importlib.import_module(f"torchbridge.{family}"), name)
    theirs = cov.scipy_counterpart(family, name)
    assert theirs is not None, f"scipy.{family} has no {name}"
    if isinstance(ours, rv_generic):
        _same_rv_methods(ours, theirs)
        return
    if isinstance(ours, type) and issubclass(ours, BaseException):
        # an exception or warning class (no signature): SciPy's own class is a base of ours
        assert issubclass(ours, theirs), (ours, theirs)
        return
    got = inspect.signature(ours)
    if name in NO_ARRAYS:
        expected = inspect.signature(theirs)
    else:
        # Every routine takes a keyword-only device=None besides SciPy's parameters.
        assert got.parameters["device"].kind is inspect.Parameter.KEYWORD_ONLY, got
        assert got.parameters["device"].default is None, got
        expected = with_device(_scipy_signature(theirs))
    if isinstance(theirs, np.ufunc):
        # A ufunc: the positional parameters and `out` must match; its
        # keyword-only options must be declared with SciPy's defaults, or be
        # taken by **kwargs (and refused unless left at their defaults).
        def leading(sig):
            return [p for p in sig.parameters.values() if p.kind is not p.KEYWORD_ONLY and p.kind is not p.VAR_KEYWORD]

        assert [(p.name, p.kind, p.default) for p in leading(got)] == [
            (p.name, p.kind, p.default) for p in leading(expected)
        ]
        has_var_kw = any(p.kind is p.VAR_KEYWORD for p in got.parameters.values())
        for p in expected.parameters.values():
            if p.kind is p.KEYWORD_ONLY:
                assert p.name in got.parameters or has_var_kw, p.name
                if p.name in got.parameters:
                    assert got.parameters[p.name].default == p.default, p.name
        return
    assert [(p.name, p.kind, p.default) for p in got.parameters.values()] == [
        (p.name, p.kind, _not_passed(p.default)) for p in expected.parameters.values()
    ], f"{got} != {expected}"


def _rv_methods(obj) -> list[str]:
    """The public methods torchbridge's rv object (or frozen rv) defines."""
    return sorted(n for n in dir(obj) if not n.startswith("_") and inspect.ismethod(getattr(obj, n)))


def _same_rv_methods(ours, theirs):
    """A distribution object: SciPy's instance has each of its methods, with
    the same signature plus the keyword-only ``device=None``; the same for
    the frozen forms."""
    assert type(theirs).__mro__[1].__name__ == type(ours).__mro__[1].__name__  # rv_continuous / rv_discrete
    params = [1] * ours.numargs
    for mine, scipy_obj in [(ours, theirs), (ours(*params), theirs(*params))]:
        methods = _rv_methods(mine)
        assert {"cdf", "ppf", "rvs", "mean", "stats"} <= set(methods), methods
        for method in methods:
            ref = getattr(scipy_obj, method, None)
            assert ref is not None, f"SciPy's {scipy_obj} has no {method}"
            got = inspect.signature(getattr(mine, method))
            if method in ("freeze",):  # builds a frozen rv: no arrays
                expected = inspect.signature(ref)
            else:
                expected = with_device(inspect.signature(ref))
            assert [(p.name, p.kind, p.default) for p in got.parameters.values()] == [
                (p.name, p.kind, p.default) for p in expected.parameters.values()
            ], f"{method}: {got} != {expected}"


def _not_passed(default):
    """SciPy's anonymous ``object()`` sentinel for "not passed" (``lombscargle``'s deprecated
    ``precenter``): a compiled signature cannot hold it, so torchbridge declares ``None`` there
    and tells "not passed" from "passed None" itself."""
    return None if type(default) is object else default


def test_readme_table_is_generated_from_the_package():
    assert cov.readme_block(cov.README.read_text()) == cov.table(), "run: python .ci/coverage_table.py --write"
