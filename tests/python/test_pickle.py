"""Every public routine pickles by reference: process pools, joblib and
dask.distributed send functions that way.

The families are found from the package (every submodule with an
``__all__``), so a new family is covered without editing this file.
"""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import pytest

import torchbridge as tb
from torchbridge import _dispatch


def _families():
    return list(_dispatch.families())


def _routines():
    for family in _families():
        module = importlib.import_module(f"torchbridge.{family}")
        for name in module.__all__:
            value = getattr(module, name)
            if callable(value):
                yield pytest.param(family, name, value, id=f"{family}.{name}")


def test_families_are_found():
    assert {"special", "fft", "linalg"} <= set(_families())


@pytest.mark.parametrize("family,name,routine", list(_routines()))
def test_routine_pickles_by_reference(family, name, routine):
    assert pickle.loads(pickle.dumps(routine)) is routine
    home = importlib.import_module(routine.__module__)
    assert getattr(home, routine.__qualname__) is routine
    assert routine.__module__.startswith("torchbridge."), routine.__module__


@pytest.mark.parametrize("name", ["apply", "info", "set_num_threads"])
def test_top_level_functions_pickle(name):
    routine = getattr(tb, name)
    assert pickle.loads(pickle.dumps(routine)) is routine


def test_a_fresh_process_unpickles_every_routine():
    """What a worker process does: import by name from the pickled reference."""
    blobs = [pickle.dumps(routine) for _, _, routine in (p.values for p in _routines())]
    code = (
        "import pickle, sys\n"
        "blobs = pickle.load(sys.stdin.buffer)\n"
        "print(sum(callable(pickle.loads(b)) for b in blobs))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(blobs), capture_output=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert int(done.stdout) == len(blobs)
