"""Sizes, lengths and axes far beyond memory or int64 end in a clean Python
exception, in a subprocess."""

from __future__ import annotations

# (call, the exception class it must raise): sizes, lengths and axes far
# beyond memory or int64 end in a clean Python exception naming the problem,
# never a signal, an abort or a PanicException.
HUGE = [
    ("tf.fft(x, n=2**62)", MemoryError),
    ("tf.ifft(x, n=2**62)", MemoryError),
    ("tf.rfft(x, n=2**40)", MemoryError),
    ("tf.ihfft(x, n=2**40)", MemoryError),
    ("tf.irfft(x, n=2**62)", MemoryError),
    ("tf.hfft(x, n=2**40)", MemoryError),
    ("tf.fft(np.zeros((0, 4)), n=2**62)", MemoryError),
    ("tf.fft(x, n=2**63)", OverflowError),
    ("tf.fft(x, n=-2**63)", ValueError),
    ("tf.fft(x, axis=2**62)", IndexError),
    ("tf.rfft(x, axis=-2**63)", IndexError),
    ("tf.fft(x, axis=2**70)", OverflowError),
    ("tf.fft2(x2, s=[2**40, 2**40])", MemoryError),
    ("tf.fftn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.ifftn(x3, s=[2**63 - 1] * 3)", MemoryError),
    ("tf.rfftn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.irfftn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.hfftn(x3, s=[2**62, -1, -1])", MemoryError),
    ("tf.ihfft2(x2, s=[2**40, 2**40])", MemoryError),
    ("tf.fftn(x3, axes=[2**62])", ValueError),
    ("tf.fftn(x3, s=[2**70])", OverflowError),
    ("tf.dct(x, n=2**62)", MemoryError),
    ("tf.idct(x, 4, n=2**61)", MemoryError),
    ("tf.dst(x, 1, n=2**40)", MemoryError),
    ("tf.idst(np.zeros((0, 4)), n=2**40)", MemoryError),
    ("tf.dct(x, axis=2**62)", IndexError),
    ("tf.dct(x, type=2**62)", ValueError),
    ("tf.dctn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.idctn(x3, s=[2**40] * 3)", MemoryError),
    ("tf.dstn(x3, axes=[-2**63])", ValueError),
    ("tf.idstn(x3, s=[2**62], axes=[0])", MemoryError),
    ("tf.fftfreq(2**62)", MemoryError),
    ("tf.fftfreq(2**40)", MemoryError),
    ("tf.rfftfreq(2**62)", MemoryError),
    ("tf.rfftfreq(2**41)", MemoryError),
    ("tf.fftfreq(2**70)", OverflowError),
    ("tf.next_fast_len(2**70)", OverflowError),
    ("tf.prev_fast_len(2**70)", OverflowError),
    ("tf.next_fast_len(2**62)", ValueError),
    ("tf.prev_fast_len(2**62, True)", ValueError),
    ("tf.fftshift(x, axes=2**62)", IndexError),
    ("tf.ifftshift(x, axes=[2**70])", OverflowError),
    ("tf.fft(x, workers=2**70)", OverflowError),
    ("tf.fft(x, workers=-2**62)", ValueError),
]


def test_huge_sizes_raise_clean_exceptions():
    import subprocess
    import sys

    lines = ["import numpy as np", "import torchbridge.fft as tf",
             "x, x2, x3 = np.ones(8), np.ones((4, 4)), np.ones((2, 2, 2))"]
    for call, _ in HUGE:
        lines += ["try:", f"    {call}", "    print('returned')",
                  "except Exception as e:", "    print(type(e).__mro__.__repr__(), str(e)[:200].replace(chr(10), ' '))"]
    done = subprocess.run([sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True, timeout=600)
    outcomes = done.stdout.splitlines()
    assert done.returncode == 0 and len(outcomes) == len(HUGE), (done.returncode, outcomes, done.stderr[-3000:])
    for (call, expected), outcome in zip(HUGE, outcomes):
        assert f"'{expected.__name__}'" in outcome and "Panic" not in outcome, (call, outcome)
