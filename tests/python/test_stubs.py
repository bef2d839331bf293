"""The .pyi stubs are code: mypy's stubtest checks them against the runtime."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is in .ci/requirements.txt; install it to check the stubs")


def test_generated_stubs_are_current():
    script = Path(__file__).resolve().parents[2] / ".ci" / "stubs.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_stubs_match_the_runtime():
    package_dir = Path(__import__("torchbridge").__file__).parent.parent
    env = dict(os.environ, PYTHONPATH=str(package_dir))
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "torchbridge", "--mypy-config-file", os.devnull,
         "--allowlist", str(Path(__file__).resolve().parents[2] / ".ci" / "stubtest-allowlist.txt")],
        capture_output=True, text=True, timeout=600, env=env, cwd=package_dir,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
