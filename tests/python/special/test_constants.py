"""The coefficient tables (src/ops/special/constants.rs) regenerate from the
script kept beside them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_constant_tables_regenerate():
    script = Path(__file__).resolve().parents[3] / "src" / "ops" / "special" / "constants.py"
    proc = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "matches" in proc.stdout
