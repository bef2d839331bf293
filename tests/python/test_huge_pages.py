"""Large CPU results get NumPy's transparent-huge-page advice (``_torch_runtime.use_huge_pages``).

Checked in fresh processes, as a user meets it: ``import torchbridge`` sets libtorch's
``THP_MEM_ALLOC_ENABLE`` unless the environment already has it, and the memory of a large result
then carries the kernel's huge-page advice flag (``hg`` in ``/proc/self/smaps``' ``VmFlags``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="madvise and /proc/self/smaps are Linux's")

PROBE = """
import os
import numpy as np
import torchbridge as tb

def advised(address):
    # The VmFlags of the mapping holding `address`: 'hg' is madvise(MADV_HUGEPAGE).
    inside = False
    for line in open("/proc/self/smaps"):
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            start, end = (int(part, 16) for part in head.split("-"))
            inside = start <= address < end
        elif inside and head == "VmFlags:":
            return "hg" in line.split()[1:]
    raise AssertionError("no mapping holds the result")

large = tb.special.erf(np.linspace(-3, 3, 1 << 20))   # 8 MiB of libtorch memory
small = tb.special.erf(np.linspace(-3, 3, 1000))
print(os.environ.get("THP_MEM_ALLOC_ENABLE"), advised(large.ctypes.data), advised(small.ctypes.data))
"""


def probe(**env: str) -> list[str]:
    environ = {k: v for k, v in os.environ.items() if k != "THP_MEM_ALLOC_ENABLE"} | env
    done = subprocess.run([sys.executable, "-c", PROBE], env=environ, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_large_results_get_huge_page_advice_by_default() -> None:
    assert probe() == ["1", "True", "False"]


def test_the_callers_setting_wins() -> None:
    assert probe(THP_MEM_ALLOC_ENABLE="0") == ["0", "False", "False"]
