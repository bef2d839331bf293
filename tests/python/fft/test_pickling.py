"""Every torchbridge.fft routine pickles by reference."""

from __future__ import annotations

from torchbridge import fft as tf


def test_every_routine_pickles_by_reference():
    import importlib
    import pickle

    for name in tf.__all__:
        routine = getattr(tf, name)
        assert pickle.loads(pickle.dumps(routine)) is routine, name
        module = importlib.import_module(routine.__module__)
        assert getattr(module, routine.__qualname__) is routine, name
