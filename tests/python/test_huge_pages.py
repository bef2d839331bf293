"""Large results of torchbridge's own CPU kernels get NumPy's transparent-huge-page advice.

csrc/huge_pages.h advises huge pages for the results of 32 MiB or more that the IIR and ndimage
line kernels write (glibc maps such blocks fresh, so every 4 KiB would otherwise fault on first
write). The advice shows as ``hg`` in the ``VmFlags`` of the mapping in ``/proc/self/smaps``.
libtorch's own global switch (``THP_MEM_ALLOC_ENABLE``) is left to the user: it also advises the
smaller blocks glibc recycles, which measured slower.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import torchbridge as tb

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="madvise and /proc/self/smaps are Linux's")


def advised(address: int) -> bool:
    """Whether the mapping holding ``address`` carries madvise(MADV_HUGEPAGE) (``hg``)."""
    inside = False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()[0]
            if "-" in head and not head.endswith(":"):
                start, end = (int(part, 16) for part in head.split("-"))
                inside = start <= address < end
            elif inside and head == "VmFlags:":
                return "hg" in line.split()[1:]
    raise AssertionError(f"no mapping holds {address:#x}")


def middle(a: np.ndarray) -> int:
    """An address in the 2 MiB-aligned interior of ``a``'s memory (the advised part)."""
    return a.ctypes.data + a.nbytes // 2


def test_large_kernel_results_are_advised() -> None:
    b, a = [0.2, 0.3], [1.0, -0.5]
    rows = np.random.default_rng(0).standard_normal((64, 70_000))  # 36 MB of float64
    assert advised(middle(tb.signal.lfilter(b, a, rows)))
    assert advised(middle(tb.signal.sosfilt([[0.2, 0.3, 0.0, 1.0, -0.5, 0.0]], rows)))
    image = np.random.default_rng(1).standard_normal((2100, 2100))  # 35 MB
    assert advised(middle(tb.ndimage.gaussian_filter(image, 2.0)))
    assert advised(middle(tb.ndimage.uniform_filter(image, 3)))


def test_small_results_are_not() -> None:
    # in a fresh process: in this one, the heap a small result lands in may
    # carry the advice an earlier large block (numpy's, ours) left on it
    code = (
        "import sys, numpy as np, torchbridge as tb; sys.path.insert(0, sys.argv[1]); "
        "from test_huge_pages import advised, middle; "
        "small = tb.signal.lfilter([0.2, 0.3], [1.0, -0.5], np.ones((4, 1000))); "
        "print(advised(middle(small)))"
    )
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run([sys.executable, "-c", code, here], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]


def test_libtorch_switch_is_left_to_the_user() -> None:
    environ = {k: v for k, v in os.environ.items() if k != "THP_MEM_ALLOC_ENABLE"}
    code = "import os, torchbridge; print(os.environ.get('THP_MEM_ALLOC_ENABLE'))"
    done = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None"]
