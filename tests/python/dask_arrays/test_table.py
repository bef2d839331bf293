"""The chunking table covers every public routine, the README shows it as it
is, and the dispatch layer stays out of the way of everything but dask."""

from __future__ import annotations

import importlib
import inspect
import pathlib
import subprocess
import sys

import dask.array as da
import numpy as np
import pytest

import torchbridge as tb
from torchbridge import _dispatch
from torchbridge.dask import CHUNKING, chunking_table
from torchbridge.dask._chunking import NoArrays
from torchbridge.errors import InputTypeError
from torchbridge.stats._distn_infrastructure import rv_generic

FAMILIES = _dispatch.families()
README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


# SciPy's error-handling state and classes (scipy.special's errstate, ...): no arrays, no rows
NOT_ROUTINES = {"errstate", "geterr", "seterr", "SpecialFunctionError", "SpecialFunctionWarning"}


def _public(family):
    """The public routines (the distribution objects of ``stats`` are not
    routines: their methods compute pointwise on the caller's arrays and have
    no chunking rows; nor are :data:`NOT_ROUTINES`)."""
    module = importlib.import_module(f"torchbridge.{family}")
    return {
        f"{family}.{name}"
        for name in module.__all__
        if callable(getattr(module, name))
        and not isinstance(getattr(module, name), rv_generic)
        and name not in NOT_ROUTINES
    }


@pytest.mark.parametrize("family", FAMILIES)
def test_every_public_routine_has_exactly_one_row(family):
    rows = {name for name in CHUNKING if name.rsplit(".", 1)[0] == family}  # "signal.windows.x" is not signal's
    assert rows == _public(family), "a routine without a chunking row (or a row without a routine)"


@pytest.mark.parametrize("family", FAMILIES)
def test_routines_of_sizes_only_are_routed_before_the_call(family):
    no_arrays = {
        name for name, row in CHUNKING.items() if name.rsplit(".", 1)[0] == family and isinstance(row, NoArrays)
    }
    assert no_arrays <= {f"{family}.{name}" for name in _dispatch.ROUTED_FIRST.get(family, ())}


def test_the_readme_shows_the_table_as_generated():
    assert chunking_table() in README.read_text(), "regenerate it: python -m torchbridge.dask"


def test_the_module_prints_the_table():
    done = subprocess.run([sys.executable, "-m", "torchbridge.dask"], capture_output=True, text=True, check=True)
    assert done.stdout == chunking_table()


def test_torchbridge_never_imports_dask_itself():
    code = (
        "import sys, numpy as np, torchbridge as tb\n"
        "tb.special.erf(np.ones(3)); tb.fft.fft(np.ones(4)); tb.linalg.inv(np.eye(2))\n"
        "try:\n    tb.special.erf(object())\nexcept tb.InputTypeError:\n    pass\n"
        "assert 'dask' not in sys.modules, sorted(m for m in sys.modules if m.startswith('dask'))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("family", FAMILIES)
def test_public_routines_keep_the_compiled_signature_and_doc(family):
    module = importlib.import_module(f"torchbridge.{family}")
    for qualified in sorted(_public(family)):
        public = getattr(module, qualified.rsplit(".", 1)[1])
        # a Python face wraps its builtin; a compiled ufunc is its own face
        compiled = public if inspect.isbuiltin(public) else getattr(public, "__wrapped__", None)
        assert compiled is not None, qualified
        assert inspect.signature(public) == inspect.signature(compiled), qualified
        assert public.__doc__ == compiled.__doc__ and public.__doc__, qualified
        assert public.__module__ == f"torchbridge.{family}"


def test_other_refused_types_still_raise_input_type_error_with_dask_imported():
    with pytest.raises(InputTypeError, match="expected an array"):
        tb.special.erf(object())
    with pytest.raises(InputTypeError):
        tb.linalg.inv({"not": "an array"})


def test_a_dask_array_is_never_converted_through_array():
    """``__array__`` would compute the whole graph: the dask path never takes it."""

    class Tripwire(da.Array):
        def __array__(self, *args, **kwargs):
            raise AssertionError("computed through __array__")

    x = da.ones(10, chunks=5)
    tripwire = Tripwire(x.dask, x.name, x.chunks, meta=x._meta)
    assert isinstance(tb.special.erf(tripwire), da.Array)
    np.testing.assert_array_equal(tb.special.erf(tripwire).compute(), tb.special.erf(np.ones(10)))
