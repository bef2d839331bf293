"""``torch.compile`` over torchbridge's routines (issue 18, part 3), run in a
fresh interpreter.

The cases live in ``compile_cases/cases.py``. They run Dynamo and fake
tensors, which leave process-wide state behind: after a ``FakeTensorMode``,
libtorch reports fake CUDA devices on a machine without any (measured: 8),
which the device tests of the same process would then see. So the whole
file runs under its own pytest, and this test asserts that every case passed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CASES = Path(__file__).resolve().parent / "compile_cases" / "cases.py"


def test_compile_cases_in_a_fresh_interpreter():
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(CASES)],
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
