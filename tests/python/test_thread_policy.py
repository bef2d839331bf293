"""The thread policy of torchbridge's compute path (src/threads.rs): the team of
libtorch threads each call runs with. Behaviour only, never timings: a small
call runs serially, a large one never above the thread's own team (what
``torch.set_num_threads`` set), and every call leaves the thread's team, and
torch's process-wide count, as it found them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import scipy.special as sc
import torch

import torchbridge as tb
from torchbridge import _core

SERIAL_BELOW = _core.build_info()["serial_below_elements"]


@pytest.fixture
def two_threads():
    """libtorch at 2 intra-op threads for the test (whatever the machine has), restored after."""
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(before)


def test_the_policy_is_reported():
    info = tb.info()
    assert info["thread_fitting"] is True
    assert info["serial_below_elements"] == SERIAL_BELOW == 32768


def test_a_small_call_runs_serially_and_restores_the_team(two_threads):
    plan = _core.thread_plan(SERIAL_BELOW - 1)
    assert plan["before"] == 2
    assert plan["team"] == plan["chosen"] == 1
    assert plan["after"] == 2
    assert torch.get_num_threads() == 2


def test_a_large_call_stays_within_the_team_and_the_free_cores(two_threads):
    plan = _core.thread_plan(10 * SERIAL_BELOW)
    assert plan["before"] == plan["after"] == 2
    assert 1 <= plan["team"] <= 2  # the free cores (another process may hold one), at least 1
    assert 0 <= plan["free_cores"] <= plan["cores"] == len(os.sched_getaffinity(0))
    assert torch.get_num_threads() == 2


def test_the_users_thread_count_is_a_ceiling_and_is_restored():
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        plan = _core.thread_plan(10 * SERIAL_BELOW)
        assert plan["before"] == plan["team"] == plan["after"] == 1
        x = np.linspace(-3, 3, 4 * SERIAL_BELOW)
        np.testing.assert_allclose(tb.special.erf(x), sc.erf(x), rtol=1e-15)
        assert torch.get_num_threads() == 1
        tb.set_num_threads(2)
        assert torch.get_num_threads() == 2
        tb.special.erf(x[:10])
        tb.special.erf(x)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_real_calls_leave_the_team_as_they_found_it(two_threads):
    for n in (10, SERIAL_BELOW - 1, SERIAL_BELOW, 3 * SERIAL_BELOW):
        x = np.linspace(-3, 3, n)
        np.testing.assert_allclose(tb.special.erfc(x), sc.erfc(x), rtol=1e-14)
        tb.fft.dct(x)
        assert torch.get_num_threads() == 2
    with pytest.raises(tb.TorchbridgeError):
        tb.special.erf(np.array(["a"]))  # a failing call restores too
    assert torch.get_num_threads() == 2


def test_other_threads_keep_their_own_team(two_threads):
    """The team is per thread: a call on one thread leaves another thread's as it is."""
    seen = {}

    def worker():
        torch.set_num_threads(2)  # this thread's own setting
        seen["plan"] = _core.thread_plan(SERIAL_BELOW - 1)
        seen["after"] = torch.get_num_threads()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["plan"]["team"] == 1 and seen["after"] == 2
    assert _core.thread_plan(0)["before"] == 2


def test_two_python_threads_share_the_free_cores(two_threads):
    """Calls running at the same moment divide the free cores between them: with
    one call in flight on another thread, a large call here gets at most half."""
    started = threading.Event()
    stop = threading.Event()
    x = np.linspace(-3, 3, 2_000_000)

    def busy():
        torch.set_num_threads(2)
        started.set()
        while not stop.is_set():
            tb.special.erfc(x)

    t = threading.Thread(target=busy)
    t.start()
    try:
        started.wait()
        teams = [_core.thread_plan(10 * SERIAL_BELOW)["team"] for _ in range(50)]
    finally:
        stop.set()
        t.join()
    # most readings see the other call in flight (it spends nearly all its time inside one)
    assert min(teams) == 1


def test_fitting_can_be_turned_off():
    code = ("import torch, torchbridge as tb\n"
            "from torchbridge import _core\n"
            "torch.set_num_threads(2)\n"
            "p = _core.thread_plan(10)\n"
            "assert tb.info()['thread_fitting'] is False\n"
            "assert p['team'] == p['before'] == 2, p\n")
    env = dict(os.environ, TORCHBRIDGE_FIT_THREADS="0")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
