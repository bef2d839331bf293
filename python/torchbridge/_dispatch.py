"""The public face of every SciPy-compatible routine: the compiled function,
plus the route for arrays that are not there yet (dask).

Each routine in ``torchbridge.special``/``fft``/``linalg``/... is a thin
Python function around its compiled ``torchbridge._core`` builtin. The common
call goes straight through (one Python frame; a ``try`` costs nothing when
nothing is raised). Only when the builtin refuses an argument's type
(:class:`~torchbridge.errors.InputTypeError`) and the caller has imported
``dask.array`` does the call go to :mod:`torchbridge.dask`, which builds the
lazy graph from the routine's row in its chunking table. torchbridge never
imports dask itself.

The ufuncs of ``special`` have no Python face: their compiled functions do
the same work themselves (``src/python/special/ufuncs.rs``, ``face``), and
are exported as they are. A Python face costs about 0.2 us a call (one
frame and the forwarding of ``*args``/``**kwargs``), which is nothing beside
an FFT or a factorization and a sixth of a one-element ufunc call.

The compiled builtins refuse dask arrays on purpose: a dask array has
``__array__``, and converting through it would compute the whole graph
silently. Where a builtin converts an argument itself (a size, the items of
a tuple argument), the conversion would compute it just the same, so those
routines look for dask arrays before the call (:data:`ROUTED_FIRST`).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .errors import InputTypeError

F = TypeVar("F", bound=Callable[..., Any])


#: By family, the routines whose compiled code converts some arguments
#: itself (a size ``n``, the items of ``cho_solve``'s ``(c, lower)``): a dask
#: array there would be computed by the conversion (``__index__``,
#: ``__bool__``, ``__array__``), so dask arrays are routed before the call.
ROUTED_FIRST: dict[str, tuple[str, ...]] = {}


#: What a family's faces check after each call (``special``: SciPy's
#: ``errstate``): a list the face adds the cell of its ``reporting`` flag to
#: (a closure variable, False until some thread asks for reports: the owner
#: of the list sets ``cell_contents``; reading it is the cheapest test Python
#: has), and the function that reports ``(name, args, kwargs, result)``.
Reporter = tuple[list[Any], Callable[[str, tuple[Any, ...], dict[str, Any], Any], None]]


def routine(
    func: F,
    module: str,
    family: str,
    routed_first: bool = False,
    reporter: Reporter | None = None,
) -> F:
    """``func`` as the public routine ``{module}.{func.__name__}``.

    The wrapper keeps ``func``'s name, docstring and signature
    (``inspect.signature`` follows ``__wrapped__``) and pickles by reference
    as ``{module}.{name}``. ``routed_first``: see :data:`ROUTED_FIRST`.
    ``reporter``: see :data:`Reporter`; the default path pays one test of
    the gate's item.
    """
    name = func.__name__
    qualified = f"{family}.{name}"
    if reporter is not None and not routed_first:
        return _reporting(func, module, name, qualified, reporter)

    if routed_first:

        @functools.wraps(func)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if "dask.array" in sys.modules:
                from .dask import _route

                lazy = _route.route(qualified, func, args, kwargs)
                if lazy is not NotImplemented:
                    return lazy
            return func(*args, **kwargs)

        return _public(checked, module, name)

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputTypeError as error:
            if "dask.array" not in sys.modules:
                raise
            refused = error
        # outside the handler: errors of the dask path are not chained to the refusal
        from .dask import _route

        lazy = _route.route(qualified, func, args, kwargs)
        if lazy is NotImplemented:
            raise refused
        return lazy

    return _public(call, module, name)


def _reporting(func: F, module: str, name: str, qualified: str, reporter: Reporter) -> F:
    """:func:`routine`'s face with a report after the call (see :data:`Reporter`)."""
    cells, report = reporter
    reporting = bool(cells and cells[0].cell_contents)

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            result = func(*args, **kwargs)
        except InputTypeError as error:
            if "dask.array" not in sys.modules:
                raise
            refused = error
        else:
            if reporting:
                report(name, args, kwargs, result)
            return result
        from .dask import _route

        lazy = _route.route(qualified, func, args, kwargs)
        if lazy is NotImplemented:
            raise refused
        return lazy

    inner: Any = call  # (functools.wraps' type hides the function's own attributes)
    cells.append(inner.__closure__[inner.__code__.co_freevars.index("reporting")])
    return _public(call, module, name)


def _public(wrapper: Callable[..., Any], module: str, name: str) -> Any:
    """``wrapper`` named as ``{module}.{name}`` (what pickle looks up) and marked as a public face."""
    wrapper.__module__ = module
    wrapper.__qualname__ = name
    wrapper._torchbridge_face = True  # type: ignore[attr-defined]
    return wrapper


def families() -> tuple[str, ...]:
    """The SciPy-compatible families, in the order their packages exposed them
    (``"special"``, ..., dotted for nested ones: ``"spatial.distance"``): the
    one list the tests and the generated tables take the families from."""
    return tuple(ROUTED_FIRST)


def expose(
    namespace: dict[str, Any],
    names: Iterable[str],
    family: str,
    routed_first: tuple[str, ...] = (),
    reporter: Reporter | None = None,
    ufuncs: frozenset[str] = frozenset(),
) -> None:
    """Replaces each routine ``names`` lists in ``namespace`` (a module's
    globals) by its public face, as a routine of ``torchbridge.{family}``;
    ``routed_first``: see :data:`ROUTED_FIRST`; ``reporter``: see :data:`Reporter`;
    ``ufuncs``: the names that are NumPy ufuncs in SciPy, whose compiled
    functions do all of a face's work themselves (the dask route, the report,
    pandas results; ``src/python/special/ufuncs.rs``): exported as they are,
    named as routines of ``torchbridge.{family}``."""
    module = f"torchbridge.{family}"
    ROUTED_FIRST[family] = routed_first
    for name in names:
        value = namespace[name]
        if name in ufuncs:
            # the compiled ufuncs are their own faces (src/python/special/ufuncs.rs: `face`)
            value.__module__ = module
        elif callable(value) and not isinstance(value, type) and not getattr(value, "_torchbridge_face", False):
            namespace[name] = routine(value, module, family, routed_first=name in routed_first, reporter=reporter)
