"""torchbridge's warning classes as SciPy's too.

Each class torchbridge warns with where SciPy has a class of the same name
(``scipy.linalg.LinAlgWarning``, ``scipy.stats.ConstantInputWarning``, ...)
is made on first use as a subclass of torchbridge's own class and, where
SciPy is installed, of SciPy's, so that ``pytest.warns`` and
``warnings.simplefilter`` written for SciPy's class catch torchbridge's
warning too. Made lazily because importing ``scipy.linalg`` or
``scipy.stats`` costs more than ``import torchbridge`` should: the modules
that own such classes give them out through their module ``__getattr__``.
"""

from __future__ import annotations

import importlib
from typing import TypeVar, cast

B = TypeVar("B", bound=BaseException)

_made: dict[tuple[str, str], type[BaseException]] = {}


def scipy_subclass(name: str, base: type[B], module: str, scipy_module: str, doc: str) -> type[B]:
    """The warning (or exception) class ``module.name``, made once: a subclass
    of ``base`` and, where importable, of ``scipy_module``'s class ``name``."""
    key = (module, name)
    if key not in _made:
        bases: tuple[type[BaseException], ...] = (base,)
        try:
            theirs = getattr(importlib.import_module(scipy_module), name)
        except (ImportError, AttributeError):
            pass
        else:
            # a built-in base SciPy's class already has (RuntimeWarning) goes after it
            bases = (theirs,) if issubclass(theirs, base) else (base, theirs)
        _made[key] = type(name, bases, {"__module__": module, "__qualname__": name, "__doc__": doc})
    return cast("type[B]", _made[key])
