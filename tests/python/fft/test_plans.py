"""The CPU transforms run MKL plans that torchbridge keeps between calls
(src/ops/fft/plans.rs, csrc/dfti.cpp): a plan is looked up by precision,
kind, length, batch, team and scale. These tests interleave calls whose keys
differ in one of those at a time, so that a plan taken for the wrong key
would show as a wrong result, and check that the caller's arrays are only read.
"""

from __future__ import annotations

import threading

import numpy as np
import scipy.fft

import torchbridge.fft as tf

from .cases import F32_TOL, F64_TOL, assert_close


def test_interleaved_keys_each_get_their_own_plan() -> None:
    rng = np.random.default_rng(20261207)
    calls = []
    for n in (8, 9, 1000, 1001):
        for rows in (1, 3):
            x = rng.standard_normal((rows, n))
            z = x + 1j * rng.standard_normal((rows, n))
            for norm in (None, "ortho", "forward"):
                calls.append(("rfft", x, norm))
                calls.append(("irfft", np.fft.rfft(x), norm))
                calls.append(("fft", z, norm))
                calls.append(("ifft", z, norm))
                calls.append(("rfft", x.astype(np.float32), norm))
    for _ in range(2):  # the second round runs on kept plans
        for name, x, norm in calls:
            want = getattr(scipy.fft, name)(x, norm=norm)
            got = getattr(tf, name)(x, norm=norm)
            assert got.dtype == want.dtype
            assert_close(got, want, F32_TOL if x.dtype in (np.float32, np.complex64) else F64_TOL)


def test_axis_and_length_change_the_plan() -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((6, 10, 4))
    for axis in (0, 1, 2, -1):
        for n in (None, 3, 16):
            assert_close(tf.rfft(x, n=n, axis=axis), scipy.fft.rfft(x, n=n, axis=axis))
            assert_close(tf.fft(x, n=n, axis=axis), scipy.fft.fft(x, n=n, axis=axis))
            spectrum = scipy.fft.rfft(x, axis=axis)
            assert_close(tf.irfft(spectrum, n=n, axis=axis), scipy.fft.irfft(spectrum, n=n, axis=axis))


def test_inputs_are_only_read() -> None:
    rng = np.random.default_rng(3)
    # irfft's DC and Nyquist imaginary parts are ignored, and MKL's
    # complex-to-real kernel must not have written its input.
    z = rng.standard_normal(513) + 1j * rng.standard_normal(513)
    x = rng.standard_normal((4, 1024))
    z0, x0 = z.copy(), x.copy()
    assert_close(tf.irfft(z), scipy.fft.irfft(z))
    assert_close(tf.hfft(z), scipy.fft.hfft(z))
    assert_close(tf.rfft(x), scipy.fft.rfft(x))
    assert_close(tf.dct(x), scipy.fft.dct(x))
    np.testing.assert_array_equal(z, z0)
    np.testing.assert_array_equal(x, x0)


def test_threads_sharing_one_shape() -> None:
    """Two threads transforming the same shape at once take two plans (a
    plan is used by one call at a time)."""
    rng = np.random.default_rng(11)
    inputs = [rng.standard_normal((2, 4096)) for _ in range(8)]
    wants = [scipy.fft.rfft(x) for x in inputs]
    failures: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for _ in range(20):
                for x, want in zip(inputs[offset::2], wants[offset::2]):
                    assert_close(tf.rfft(x), want)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
