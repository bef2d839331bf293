"""stats' warning classes are SciPy's too (``scipy.stats.ConstantInputWarning``
and its kin, ``SmallSampleWarning``), made on first use so that
``import torchbridge.stats`` does not import ``scipy.stats``."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.stats
from scipy.stats._axis_nan_policy import SmallSampleWarning as ScipySmallSampleWarning

import torchbridge.stats as ts
from torchbridge.stats._axis_nan_policy import SmallSampleWarning


def test_classes_are_scipys_subclasses():
    for name in ("DegenerateDataWarning", "ConstantInputWarning", "NearConstantInputWarning"):
        ours = getattr(ts, name)
        assert issubclass(ours, getattr(scipy.stats, name)) and issubclass(ours, RuntimeWarning)
        assert ours is getattr(ts, name) and ours.__module__ == "torchbridge.stats._warnings_errors"
        assert name in dir(ts)
    assert issubclass(ts.ConstantInputWarning, ts.DegenerateDataWarning)
    assert issubclass(ts.NearConstantInputWarning, ts.DegenerateDataWarning)
    assert issubclass(SmallSampleWarning, ScipySmallSampleWarning)
    with pytest.raises(AttributeError):
        ts.NoSuchWarning  # noqa: B018


def test_scipy_filters_catch_ours():
    """Code written for SciPy (``pytest.warns`` on SciPy's class, a filter
    silencing it) works unchanged on torchbridge's warnings."""
    x = np.arange(5.0)
    with pytest.warns(scipy.stats.ConstantInputWarning) as record:
        ts.pearsonr(np.ones(5), x)
    assert all(type(w.message) is ts.ConstantInputWarning for w in record)
    with pytest.warns(scipy.stats.NearConstantInputWarning):
        ts.pearsonr(np.array([1.0, 1.0 + 1e-15, 1.0, 1.0, 1.0]) * 1e5, x)
    with pytest.warns(ScipySmallSampleWarning):
        ts.skew(np.array([]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", scipy.stats.DegenerateDataWarning)
        ts.pearsonr(np.ones(5), x)  # silenced by SciPy's base class


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_made_lazily_and_without_scipy():
    """``import torchbridge.stats`` leaves ``scipy.stats`` unimported; with
    SciPy absent the classes are torchbridge's own, and still warn."""
    assert _run("import sys, torchbridge.stats; print('scipy.stats' in sys.modules)") == "False"
    code = (
        "import sys; sys.modules['scipy'] = None\n"
        "import warnings, numpy as np, torchbridge.stats as ts, torchbridge.linalg as tl\n"
        "print([c.__name__ for c in ts.ConstantInputWarning.__mro__[:3]], tl.LinAlgWarning.__mro__[1].__name__)\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    ts.pearsonr(np.ones(5), np.arange(5.0))\n"
        "print(type(w[0].message).__name__)\n"
    )
    assert _run(code).splitlines() == [
        "['ConstantInputWarning', 'DegenerateDataWarning', 'RuntimeWarning'] LinAlgWarning",
        "ConstantInputWarning",
    ]
