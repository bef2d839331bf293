"""Every public linalg routine pickles by reference (process pools, joblib
and dask send functions that way)."""

from __future__ import annotations

import importlib
import pickle

import pytest

import torchbridge.linalg as tl


@pytest.mark.parametrize("name", tl.__all__)
def test_routines_pickle_by_reference(name):
    f = getattr(tl, name)
    assert pickle.loads(pickle.dumps(f)) is f
    module = importlib.import_module(f.__module__)
    owner = module
    for part in f.__qualname__.split("."):
        owner = getattr(owner, part)
    assert owner is f
