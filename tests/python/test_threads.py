"""Threads: many Python threads calling torchbridge at once, every result checked.

The workload mixes `tb.special.*` and `tb.apply` on inputs shared by all
threads and on inputs each thread owns, small inputs (computed with the GIL
held) and large ones (computed with the GIL released, so the imported
tensors, whose NumPy deleters take the GIL, are dropped without it), zero-copy
views, copies (negative strides, read-only memory), torch and JAX inputs, and
results handed to another thread to be checked and dropped there.

It runs in a subprocess with a watchdog: a deadlock dumps every thread's stack
and fails the test instead of hanging it; a crash fails it too. Run by hand:

    python tests/python/test_threads.py 8 10000     # threads, calls per thread
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

SMALL = 100  # below torchbridge's GIL-release threshold (8192 elements)
LARGE = 20_000  # above it


def _workload(threads: int, calls: int, watchdog_s: float) -> dict:
    import faulthandler
    import queue
    import threading
    import time

    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import numpy as np
    import scipy.special as sc
    import torch

    import torchbridge as tb

    # A hang dumps every thread's stack to stderr and exits: the parent fails.
    faulthandler.dump_traceback_later(watchdog_s, exit=True)

    rng = np.random.default_rng(20261201)
    small = rng.uniform(-3, 3, SMALL)
    large = rng.uniform(-3, 3, LARGE)
    probabilities = rng.uniform(0.01, 0.99, LARGE)
    read_only = large.copy()
    read_only.flags.writeable = False
    reversed_large = large[::-1]  # negative stride: imported as a copy
    small32 = small.astype(np.float32)
    torch_large = torch.from_numpy(large.copy())
    jax_small = jnp.asarray(small)
    shared_copies = {"small": small.copy(), "large": large.copy(), "probabilities": probabilities.copy()}

    # References: torchbridge's own results computed on this thread before any
    # other starts (tests/python/special/ compares those with SciPy),
    # after a sanity check against SciPy here.
    ref = {
        "erf_small": tb.special.erf(small),
        "erfc_large": tb.special.erfc(large),
        "expit_large": tb.special.expit(large),
        "logit_p": tb.special.logit(probabilities),
        "gammaln_large": tb.special.gammaln(large),
        "erf_reversed": tb.special.erf(reversed_large),
        "erf_small32": tb.special.erf(small32),
    }
    for key, want in [("erf_small", sc.erf(small)), ("erfc_large", sc.erfc(large)),
                      ("gammaln_large", sc.gammaln(large)), ("erf_small32", sc.erf(small32))]:
        assert np.allclose(ref[key], want, rtol=1e-6, atol=1e-12), key

    handoff: queue.Queue = queue.Queue(maxsize=64)
    counts = [0] * threads
    failures: list[str] = []
    lock = threading.Lock()

    def fail(message: str) -> None:
        with lock:
            if len(failures) < 20:
                failures.append(message)

    def check(label, got, want):
        # Bit-for-bit the single-threaded result (a race gives garbage, not ulps).
        got = np.asarray(got)
        if got.shape != want.shape or got.dtype != want.dtype or not np.array_equal(got, want, equal_nan=True):
            fail(f"{label}: wrong result")

    def worker(index: int) -> None:
        own = np.arange(LARGE, dtype=np.float64) + index  # integers: +1 then -1 is exact
        own_expected = own.copy()
        held = []
        try:
            for i in range(calls):
                op = (i + index) % 12
                if op == 0:
                    check("erf(small)", tb.special.erf(small), ref["erf_small"])
                elif op == 1:
                    check("erfc(large)", tb.special.erfc(large), ref["erfc_large"])
                elif op == 2:
                    check("expit(large)", tb.special.expit(large), ref["expit_large"])
                elif op == 3:
                    check("logit(p)", tb.special.logit(probabilities), ref["logit_p"])
                elif op == 4:
                    check("gammaln(torch)", tb.special.gammaln(torch_large).numpy(), ref["gammaln_large"])
                elif op == 5:
                    r = tb.apply(lambda t: t * 2, large)
                    check("apply(t*2)", r, large * 2)  # exact in binary
                elif op == 6:
                    view = tb.apply(lambda t: t[1:], large)  # a zero-copy view of shared memory
                    if view.__array_interface__["data"][0] != large.__array_interface__["data"][0] + 8:
                        fail("apply(t[1:]) is not a view")
                    held.append((view, large[1:]))
                elif op == 7:
                    tb.apply(lambda t: t.add_(1), own)  # in place, on this thread's own array
                    own_expected += 1
                    if not np.array_equal(own, own_expected):
                        fail("in-place apply on an owned array")
                    tb.apply(lambda t: t.sub_(1), own)
                    own_expected -= 1
                elif op == 8:
                    check("erf(reversed)", tb.special.erf(reversed_large), ref["erf_reversed"])
                    r = tb.apply(lambda t: t.mul_(3), read_only)  # read-only: fn gets a copy
                    check("apply on read-only", r, large * 3)
                elif op == 9:
                    check("erf(float32)", tb.special.erf(small32), ref["erf_small32"])
                elif op == 10:
                    # Hand a result to whichever thread takes it next; it checks and drops it.
                    try:
                        handoff.put_nowait((tb.special.erfc(large), "erfc_large"))
                    except queue.Full:
                        pass
                    try:
                        got, key = handoff.get_nowait()
                        check("handed-off erfc", got, ref[key])
                        del got
                    except queue.Empty:
                        pass
                else:
                    if i % 24 == 11:
                        check("erf(jax)", np.asarray(tb.special.erf(jax_small)), ref["erf_small"])
                    else:
                        check("erf(small) again", tb.special.erf(small), ref["erf_small"])
                if len(held) > 16:  # drop views in batches, at various times
                    for view, want in held:
                        if not np.array_equal(view, want):
                            fail("a held view changed")
                    held.clear()
                counts[index] += 1
            if not np.array_equal(own, np.arange(LARGE, dtype=np.float64) + index):
                fail("owned array not restored")
        except BaseException as err:
            fail(f"thread {index}: {type(err).__name__}: {err}")

    start = time.perf_counter()
    workers = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=watchdog_s)
    alive = sum(w.is_alive() for w in workers)
    elapsed = time.perf_counter() - start
    while not handoff.empty():
        got, key = handoff.get_nowait()
        check("left in the hand-off queue", got, ref[key])
    for name, before in shared_copies.items():
        if not np.array_equal({"small": small, "large": large, "probabilities": probabilities}[name], before):
            fail(f"shared input {name} changed")
    faulthandler.cancel_dump_traceback_later()
    return {"calls": sum(counts), "alive": alive, "failures": failures, "seconds": round(elapsed, 2)}


def run_threads(threads: int, calls: int, timeout_s: float) -> dict:
    """Runs the workload in a fresh interpreter; returns its report."""
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), str(threads), str(calls), str(timeout_s)],
        capture_output=True,
        text=True,
        timeout=timeout_s + 60,
    )
    reports = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and reports, (
        f"the threaded workload crashed or hung (exit code {done.returncode}); "
        f"stderr (thread stacks on a hang):\n{done.stderr[-6000:]}"
    )
    return json.loads(reports[-1])


def test_eight_threads_ten_thousand_mixed_calls_each_every_result_checked():
    threads, calls = 8, 10_000  # the size; about 12 s here
    report = run_threads(threads, calls, timeout_s=300)
    assert report["alive"] == 0, f"deadlock: {report}"
    assert report["failures"] == [], report["failures"]
    assert report["calls"] == threads * calls, report


def test_gil_released_drops_do_not_deadlock_with_a_busy_main_thread():
    """Large inputs are computed with the GIL released and their imported
    views dropped there; NumPy's deleter then needs the GIL, which the main
    thread keeps taking back. Everything must finish."""
    script = r"""
import faulthandler, gc, threading
import numpy as np, torchbridge as tb
faulthandler.dump_traceback_later(120, exit=True)
x = np.linspace(-3, 3, 200_000)
want = tb.special.erf(x)[10:]
errors = []
def work():
    for _ in range(200):
        y = tb.special.erf(x[10:])  # zero-copy: the imported view dies with the GIL released
        if not np.array_equal(y, want):
            errors.append("wrong")
threads = [threading.Thread(target=work, daemon=True) for _ in range(4)]
for t in threads: t.start()
while any(t.is_alive() for t in threads):
    gc.collect(); [object() for _ in range(1000)]  # keep the GIL busy
for t in threads: t.join(5)
print("done", len(errors), sum(t.is_alive() for t in threads))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-6000:]
    assert done.stdout.split() == ["done", "0", "0"], done.stdout


if __name__ == "__main__":
    threads, calls = int(sys.argv[1]), int(sys.argv[2])
    watchdog = float(sys.argv[3]) if len(sys.argv) > 3 else 600.0
    print(json.dumps(_workload(threads, calls, watchdog)), flush=True)
