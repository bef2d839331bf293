"""Lifetimes: producers are released exactly once, results outlive inputs, no leaks."""

from __future__ import annotations

import gc
import resource
import sys
import weakref

import numpy as np
import pytest

import torchbridge as tb


def test_result_survives_deletion_of_the_source():
    x = np.linspace(0, 1, 100_000)
    expected = x * 2
    y = tb.apply(lambda t: t, x)
    z = tb.apply(lambda t: t * 2, x)
    del x
    gc.collect()
    np.testing.assert_array_equal(z, expected)
    np.testing.assert_array_equal(y * 2, expected)


def test_producer_released_exactly_once_when_the_last_view_dies():
    released = []
    x = np.arange(1000.0)
    weakref.finalize(x, released.append, "x")
    v = tb.apply(lambda t: t, x)  # a view of x's memory through two DLPack hops
    del x
    gc.collect()
    assert released == []  # v still views the memory
    v[0] = 5.0
    del v
    gc.collect()
    assert released == ["x"]


def test_no_reference_leak_on_success_or_error():
    x = np.arange(100.0)
    before = sys.getrefcount(x)
    for _ in range(1000):
        tb.special.erf(x)
        tb.apply(lambda t: t, x)
        tb.apply(lambda t: t[::2], x[::-1])
    bad = np.array(["a"])
    bad_before = sys.getrefcount(bad)
    for _ in range(1000):
        with pytest.raises(tb.DtypeError):
            tb.special.erf(bad)
    gc.collect()
    assert sys.getrefcount(x) == before
    assert sys.getrefcount(bad) == bad_before


def test_rss_is_flat_over_100k_calls():
    x = np.linspace(-1, 1, 64)
    for _ in range(2000):  # warm up allocator pools
        tb.special.erf(x)
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(100_000):
        tb.special.erf(x)
    gc.collect()
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 20 * 1024, f"RSS grew by {grown_kb} kB over 100k calls"


def test_threads_share_work_with_the_gil_released():
    import threading

    rng = np.random.default_rng(7)
    inputs = [rng.standard_normal(200_000) for _ in range(4)]
    results = [None] * 4

    def work(i):
        for _ in range(5):
            results[i] = tb.special.erfc(inputs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    import scipy.special as sc

    for i in range(4):
        np.testing.assert_allclose(results[i], sc.erfc(inputs[i]), rtol=1e-13)
