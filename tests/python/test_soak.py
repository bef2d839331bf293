"""Soak: one million mixed calls keep RSS flat and release every producer.

Runs `benches/soak.py` (the documented command; see its docstring for the
call mix) in a fresh interpreter, so that the RSS it watches is its own and a
crash fails the test. About 35 s here: marked `slow` so that
`pytest -m "not slow"` can leave it out, but part of the default run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SOAK = os.path.join(os.path.dirname(__file__), "..", "..", "benches", "soak.py")


@pytest.mark.slow
def test_a_million_mixed_calls_keep_rss_flat_and_release_every_producer(tmp_path):
    report_path = tmp_path / "soak.json"
    done = subprocess.run(
        [sys.executable, SOAK, "--calls", "1000000", "--json", str(report_path)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert report_path.exists(), f"the soak died (exit code {done.returncode}):\n{done.stderr[-4000:]}"
    report = json.loads(report_path.read_text())
    assert report["calls"] == 1_000_000
    assert report["wrong"] == [], report["wrong"]
    assert report["live_producers"] == 0, f"producers never released, by op: {report['live_by_op']}"
    assert report["rss_growth_mb"] < 20, f"RSS grew by {report['rss_growth_mb']} MB: {report['rss_samples']}"
    assert done.returncode == 0, done.stdout[-2000:]
