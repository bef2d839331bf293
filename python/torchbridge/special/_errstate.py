"""SciPy's error handling for the special functions (``scipy.special._ufuncs``'
``errstate``/``geterr``/``seterr`` and ``scipy.special._sf_error``'s classes).

How it is wired: every public routine of :mod:`torchbridge.special` asks one
question after its compiled function returns: is its ``reporting`` flag set
(set while :data:`GATE` counts some thread with a category at ``"warn"`` or
``"raise"``)? The flag of a ``torchbridge._dispatch`` face is a closure
variable (:data:`CELLS`); the compiled ufuncs, which are their own faces,
read one flag in the extension (``_core.special.set_reporting``). On
the default path (every thread at ``"ignore"``, the state each thread starts
in, as in SciPy) that is all it costs. Only when the answer is yes does
:func:`report` look at the calling thread's settings and, where one of the
routine's categories is not ignored, evaluate the routine's predicates
(:mod:`._sf_error_table`) on its inputs and result, then warn with
:class:`SpecialFunctionWarning` or raise :class:`SpecialFunctionError` with
SciPy's message (``scipy.special/lgam: singularity``: the name is the one
SciPy reports, often its internal C name).

Differences from SciPy: SciPy reports from inside its C loops, once per
offending element; torchbridge reports once per category and call (the
warnings of the categories found, in the order of their first element, then
the error of the first element whose category raises). SciPy's reports that
come from the floating-point status flags after the loop (the messages
``(overflow) floating point overflow`` and the like) depend on how each C
kernel computes and are not reproduced; the reports SciPy's kernels make
themselves are, for the routines :mod:`._sf_error_table` lists.
"""

from __future__ import annotations

import contextlib
import inspect
import threading
import warnings
from typing import Any

import numpy as np

from .. import _core
from .._scipy_classes import scipy_subclass
from ..errors import TorchbridgeError

#: SciPy's categories, in SciPy's order (``memory`` last, at ``"raise"`` by default).
CATEGORIES = ("singular", "underflow", "overflow", "slow", "loss", "no_result", "domain", "arg", "other", "memory")
ACTIONS = ("ignore", "warn", "raise")
_DEFAULT = {**dict.fromkeys(CATEGORIES, "ignore"), "memory": "raise"}
#: SciPy's words for each category (``sf_error_messages``).
MESSAGES = {
    "singular": "singularity",
    "underflow": "underflow",
    "overflow": "overflow",
    "slow": "too slow convergence",
    "loss": "loss of precision",
    "no_result": "no result obtained",
    "domain": "domain error",
    "arg": "invalid input argument",
    "other": "other error",
    "memory": "memory allocation failed",
}
# torchbridge reports no allocation failure through this seam (they raise OutOfMemoryError):
# "memory" does not open the gate.
_REPORTED = CATEGORIES[:-1]

#: How many threads have some reported category not at "ignore".
GATE = [0]
#: The cells of the faces' ``reporting`` flags (see ``torchbridge._dispatch.Reporter``):
#: ``GATE[0] > 0``, the one test a face makes after its call.
CELLS: list[Any] = []
_gate_lock = threading.Lock()
_local = threading.local()


class _SpecialFunctionWarning(Warning):
    """Warning that can be emitted by special functions."""


class _SpecialFunctionError(TorchbridgeError):
    """Exception that can be raised by special functions."""


_WARNING_DOC = """Warning that can be emitted by special functions.

torchbridge's class, and a subclass of ``scipy.special.SpecialFunctionWarning``
where SciPy is installed, so filters and ``pytest.warns`` written for SciPy's
class catch it. Emitted (once per category and call) by the routines of
``torchbridge.special`` for the categories :func:`seterr` sets to ``"warn"``,
whatever the device the computation ran on.
"""

_ERROR_DOC = """Exception that can be raised by special functions.

torchbridge's class: a ``TorchbridgeError`` and, where SciPy is installed, a
subclass of ``scipy.special.SpecialFunctionError``, so ``except`` clauses
written for SciPy's class catch it. Raised by the routines of
``torchbridge.special`` for the categories :func:`seterr` sets to ``"raise"``,
whatever the device the computation ran on.
"""


def warning_class() -> type[Warning]:
    """``torchbridge.special.SpecialFunctionWarning`` (made on first use, see :mod:`torchbridge._scipy_classes`)."""
    cls = scipy_subclass(
        "SpecialFunctionWarning", _SpecialFunctionWarning, "torchbridge.special", "scipy.special", _WARNING_DOC
    )
    if not _filtered:
        # as SciPy does for its class (_sf_error.py): every report shows, not just the first per place
        warnings.simplefilter("always", category=cls)
        _filtered.append(cls)
    return cls


_filtered: list[type] = []


def error_class() -> type[Exception]:
    """``torchbridge.special.SpecialFunctionError`` (made on first use, see :mod:`torchbridge._scipy_classes`)."""
    return scipy_subclass(
        "SpecialFunctionError", _SpecialFunctionError, "torchbridge.special", "scipy.special", _ERROR_DOC
    )


def _settings() -> dict[str, str]:
    settings = getattr(_local, "settings", None)
    if settings is None:
        settings = _local.settings = dict(_DEFAULT)
        _local.open = False
    return settings


def geterr() -> dict[str, str]:
    """Get the current way of handling special-function errors.

    The calling thread's settings, as ``scipy.special.geterr`` returns them:
    a dict from each category (``"singular"``, ``"underflow"``,
    ``"overflow"``, ``"slow"``, ``"loss"``, ``"no_result"``, ``"domain"``,
    ``"arg"``, ``"other"``, ``"memory"``) to ``"ignore"``, ``"warn"`` or
    ``"raise"``. Thread-local as in SciPy: each thread starts with all
    ``"ignore"`` (``"memory"``: ``"raise"``). In torchbridge the settings
    apply to the routines of ``torchbridge.special`` on every device; see
    :func:`seterr`.
    """
    return dict(_settings())


def seterr(**kwargs: str) -> dict[str, str]:
    """Set how special-function errors are handled.

    Keywords as ``scipy.special.seterr``: ``all=`` and one per category
    (``singular``, ``underflow``, ``overflow``, ``slow``, ``loss``,
    ``no_result``, ``domain``, ``arg``, ``other``, ``memory``), each
    ``"ignore"``, ``"warn"`` or ``"raise"``; ``all`` first, the others on top
    of it. Returns the previous settings (a dict, as :func:`geterr`). An
    unknown category or action raises ``KeyError``, as SciPy does.

    In torchbridge the settings are the calling thread's and apply to the
    routines of ``torchbridge.special`` whatever device they compute on: a
    routine whose categories are all ignored costs nothing more; otherwise
    its inputs and result are checked after the call (a copy to the host for
    device arrays) and reported as SciPy reports them.
    """
    settings = _settings()
    previous = dict(settings)
    new = dict(settings)
    if "all" in kwargs:
        action = kwargs["all"]
        if action not in ACTIONS:
            raise KeyError(action)
        new = dict.fromkeys(CATEGORIES, action)
    for key, action in kwargs.items():
        if key == "all":
            continue
        if key not in new:
            raise KeyError(key)
        if action not in ACTIONS:
            raise KeyError(action)
        new[key] = action
    settings.update(new)
    is_open = any(settings[c] != "ignore" for c in _REPORTED)
    if is_open != _local.open:
        with _gate_lock:
            GATE[0] += 1 if is_open else -1
            if GATE[0] <= 1:  # 0 -> 1 or 1 -> 0: flip every face's flag, the compiled ufuncs' too
                for cell in CELLS:
                    cell.cell_contents = GATE[0] > 0
                _core.special.set_reporting(GATE[0] > 0)
        _local.open = is_open
    return previous


class errstate(contextlib.ContextDecorator):
    """Context manager for special-function error handling.

    ``with errstate(**kwargs):`` sets the calling thread's handling with
    :func:`seterr` on entry and restores what it was on exit, as
    ``scipy.special.errstate``; the keywords are :func:`seterr`'s (``all=``
    and the categories). An instance also decorates a function
    (``@errstate(all="raise")``), each call then running in that state.

    In torchbridge the state covers the routines of ``torchbridge.special``
    on every device (checked after each call, see :func:`seterr`).
    """

    def __init__(self, **kwargs: str) -> None:
        self.kwargs = kwargs
        self._previous: list[dict[str, str]] = []

    def __enter__(self) -> None:
        self._previous.append(seterr(**self.kwargs))

    def __exit__(self, *exc_info: Any) -> None:
        seterr(**self._previous.pop())


def _host(value: Any) -> np.ndarray:
    """A float64 (or complex128) NumPy copy of a routine's argument or result."""
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # torch
        value = value.detach().cpu().resolve_conj().numpy()
    elif hasattr(value, "get") and type(value).__module__.startswith("cupy"):
        value = value.get()
    array = np.asarray(value)
    if array.dtype.kind == "c":
        return array.astype(np.complex128)
    if array.dtype.kind not in "biuf":
        return array
    return array.astype(np.float64)


def report(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], result: Any) -> None:
    """Reports what SciPy's routine ``name`` reports on ``args``, as the calling thread's settings say."""
    settings = getattr(_local, "settings", None)
    if settings is None or not _local.open:
        return
    from ._sf_error_table import COMPLEX_TABLE, TABLE

    if name == "lambertw":  # a Python-level function in SciPy: k and tol have defaults
        args = (*args, *[kwargs.get(key, default) for key, default in (("k", 0), ("tol", 1e-8))][len(args) - 1 :])
    complex_loop = name == "lambertw" or any(_host(a).dtype.kind == "c" for a in args)
    entry = (COMPLEX_TABLE if complex_loop else TABLE).get(name)
    if entry is None:
        return
    checks = [(c, msg, f) for c, msg, f in entry if settings[c] != "ignore"]
    if not checks:
        return
    if "q" in kwargs and name == "zeta":  # the ufuncs take positional arguments only; zeta's q is a keyword too
        args = (*args, kwargs["q"])
    if len(args) + 1 != len(inspect.signature(checks[0][2]).parameters):
        return  # another form (Riemann's zeta(x))
    if isinstance(result, tuple):
        result = result[0]
    arrays = [_host(a) for a in args]
    if complex_loop:
        arrays = [a.astype(np.complex128) if a.dtype.kind in "biufc" else a for a in arrays]
    elif any(a.dtype.kind not in "f" for a in arrays):
        return  # other loops: no predicates
    out = _host(result)
    arrays = list(np.broadcast_arrays(*arrays, out))
    first: list[tuple[int, str, str]] = []
    with np.errstate(all="ignore"):
        for category, message, predicate in checks:
            mask = np.asarray(predicate(*arrays), dtype=bool)
            hits = np.flatnonzero(np.broadcast_to(mask, arrays[-1].shape))
            if hits.size:
                first.append((int(hits[0]), category, message))
    first.sort(key=lambda hit: hit[0])
    for _, category, message in first:
        if settings[category] == "raise":
            raise error_class()(message)
        warnings.warn(message, warning_class(), stacklevel=3)
