"""The public face of the package: what ``dir()`` and ``help()`` show.

* ``dir()`` of every public module lists its public API and nothing else (no
  ``annotations`` from ``from __future__ import annotations``, no helper
  imports, no private submodules), as SciPy's modules do with a module-level
  ``__dir__`` returning ``__all__``; every name of ``__all__`` resolves.
* ``help()`` on every routine of every family starts with SciPy's own
  one-line summary (read from the installed SciPy), then says what
  torchbridge does differently, ``device=`` included.

The families and their routines come from the package (``tb.__all__`` and each
family's ``__all__``), so a new family or routine is covered without editing
this file.
"""

from __future__ import annotations

import importlib
import inspect
import re
import types

import pytest

import torchbridge as tb
from torchbridge import _dispatch

FAMILIES = _dispatch.families()
PUBLIC_MODULES = ["torchbridge"] + [
    f"torchbridge.{name}" for name in tb.__all__ if isinstance(getattr(tb, name), types.ModuleType)
]

# Names a module shows besides its __all__, each with its reason.
EXTRA = {
    # scipy.linalg has them in its namespace too (module attributes, not routines: __all__ lists routines)
    "torchbridge.linalg": {"LinAlgError", "LinAlgWarning"},
    # scipy.signal lists its windows submodule in __all__; here it is a family of its own
    "torchbridge.signal": {"windows"},
    # scipy.stats' public warning classes
    "torchbridge.stats": {"ConstantInputWarning", "DegenerateDataWarning", "NearConstantInputWarning"},
}


def _ops_namespaces() -> set[str]:
    """The operator namespaces libtorch registered, but its private ones (``_c10d_functional``, ...)."""
    return {ns for ns in (name.split("::", 1)[0] for name in tb.ops.operators()) if not ns.startswith("_")}


def test_public_modules_are_the_ones_expected():
    assert set(PUBLIC_MODULES) >= {
        "torchbridge",
        "torchbridge.special",
        "torchbridge.fft",
        "torchbridge.linalg",
        "torchbridge.torch",
        "torchbridge.ops",
        "torchbridge.errors",
    }


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_name_in_all_resolves(name):
    module = importlib.import_module(name)
    if name != "torchbridge.torch":  # torch's own __all__ repeats a few names
        assert len(module.__all__) == len(set(module.__all__))
    for attr in module.__all__:
        assert hasattr(module, attr), f"{name}.{attr}"  # (torch.newaxis is None: hasattr, not truthiness)


@pytest.mark.parametrize("name", [n for n in PUBLIC_MODULES if n != "torchbridge.torch"])
def test_dir_is_the_public_api(name):
    module = importlib.import_module(name)
    expected = set(module.__all__) | EXTRA.get(name, set())
    if name == "torchbridge.ops":
        expected |= _ops_namespaces()  # tb.ops.<namespace>, one per registered operator namespace
    shown = dir(module)
    assert shown == sorted(expected)
    assert "annotations" not in shown
    assert not [n for n in shown if n.startswith("_") and not n.startswith("__")], shown


def test_dir_of_the_torch_namespace_is_torchs():
    # tb.torch mirrors the torch module: its public API is torch's own namespace
    import torch

    assert dir(tb.torch) == dir(torch)


def test_the_scipy_families_hide_what_scipy_hides():
    for family in FAMILIES:
        module = importlib.import_module(f"torchbridge.{family}")
        assert not {"annotations", "np", "numpy", "numbers"} & set(dir(module))
        assert set(dir(module)) >= set(module.__all__)


def scipy_summary(doc: str) -> str:
    """SciPy's one-line summary: the first paragraph after any signature lines, whitespace-normalised."""
    lines = inspect.cleandoc(doc).splitlines()
    i = 0
    while i < len(lines) and (not lines[i].strip() or re.fullmatch(r"\w+\(.*\)", lines[i].strip())):
        i += 1  # ufunc docstrings start with their signature(s)
    paragraph = []
    while i < len(lines) and lines[i].strip():
        paragraph.append(lines[i].strip())
        i += 1
    return " ".join(" ".join(paragraph).split())


ROUTINES = [(family, name) for family in FAMILIES for name in importlib.import_module(f"torchbridge.{family}").__all__]


@pytest.mark.parametrize(("family", "name"), ROUTINES, ids=[f"{f}.{n}" for f, n in ROUTINES])
def test_help_starts_with_scipys_summary_and_says_what_differs(family, name):
    ours = getattr(importlib.import_module(f"torchbridge.{family}"), name)
    theirs = getattr(importlib.import_module(f"scipy.{family}"), name)
    summary = scipy_summary(theirs.__doc__)
    assert summary and len(summary) > 10
    doc = ours.__doc__
    assert doc, f"{family}.{name} has no docstring"
    lines = inspect.cleandoc(doc).splitlines()
    assert " ".join(lines[0].split()) == summary
    assert len(lines) >= 3 and not lines[1].strip(), "a summary line, a blank line, then the details"
    body = " ".join(lines[2:])
    assert "torchbridge" in body
    assert "device" in body
    # help() renders all of it, not just one line
    assert len(inspect.getdoc(ours).splitlines()) >= 5


def test_ufunc_docs_come_from_the_table():
    from torchbridge._core import special as core

    for name in core.UFUNCS:
        doc = getattr(tb.special, name).__doc__
        types_ = core._ufunc_types(name)
        assert "SciPy's loops" in doc and all(f"``{t}``" in doc for t in types_), name
        assert "UnsupportedParameterError" in doc and "DtypeError" in doc, name


def test_summary_parser():
    assert scipy_summary("f(x, /, out=None)\n\nf(x)\n\nSum of\n   two.\n\nMore.") == "Sum of two."
    assert scipy_summary("\n    Compute it.\n\n    Details.\n") == "Compute it."
