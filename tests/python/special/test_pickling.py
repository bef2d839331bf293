"""Every torchbridge.special routine pickles by reference (process pools, joblib
and dask send functions that way)."""

from __future__ import annotations

import importlib
import pickle

import pytest

import torchbridge as tb


@pytest.mark.parametrize("name", sorted(tb.special.__all__))
def test_every_routine_pickles_by_reference(name):
    f = getattr(tb.special, name)
    assert pickle.loads(pickle.dumps(f)) is f
    module = importlib.import_module(f.__module__)
    assert getattr(module, f.__qualname__) is f
