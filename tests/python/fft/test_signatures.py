"""The family and its signatures: torchbridge.fft exports scipy.fft's names with
SciPy's signatures (plus ``device=``)."""

from __future__ import annotations

import inspect

import scipy.fft as sf
from conftest import with_device

from torchbridge import fft as tf


def test_exports_match_scipy_signatures():
    assert len(tf.__all__) == len(set(tf.__all__)) >= 24
    public = {n for n in dir(tf) if not n.startswith("_") and callable(getattr(tf, n))}
    assert public - {"annotations"} == set(tf.__all__)
    for name in tf.__all__:
        expected = inspect.signature(getattr(sf, name))
        if name not in ("next_fast_len", "prev_fast_len", "fhtoffset", "set_workers", "get_workers"):  # no arrays
            expected = with_device(expected)
        assert inspect.signature(getattr(tf, name)) == expected, name
