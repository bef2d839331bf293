"""torchbridge on real dask.distributed clusters, never ``scheduler="threads"`` alone.

Three clusters, each started once for the module: in-process workers
(``processes=False``) with one thread each and with two threads, where tasks
run in the workers' thread pools of this process; and subprocess workers
(``processes=True``, nannies), where the graph and every chunk are pickled,
sent to other processes and moved between them. On each: routines on dask
arrays equal the eager result, elementwise ones bit for bit. On the subprocess
cluster: every exported routine pickles to a worker and comes back as itself.
And :func:`torchbridge.dask.configure` sets libtorch's threads as documented,
read back from inside the workers' task threads.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
from collections.abc import Iterator

import dask
import dask.array as da
import numpy as np
import pytest
from distributed import Client, LocalCluster, futures_of

import torchbridge as tb
import torchbridge.dask as tbd
from torchbridge import _dispatch
from torchbridge.dask import _workers

CLUSTERS = {
    "inprocess-1thread": dict(processes=False, n_workers=2, threads_per_worker=1),
    "inprocess-2threads": dict(processes=False, n_workers=1, threads_per_worker=2),
    "subprocess": dict(processes=True, n_workers=2, threads_per_worker=1),
}


#: What distributed's nannies put into this process's environment before spawning workers (the last from
#: tbd.WORKER_CONFIG).
NANNY_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "THP_MEM_ALLOC_ENABLE")


@pytest.fixture(scope="module", autouse=True)
def _restore_threads() -> Iterator[None]:
    """configure on an in-process cluster changes this process's libtorch, and the nannies set
    OMP_NUM_THREADS=1 (and MKL/OpenBLAS, THP_MEM_ALLOC_ENABLE) in this process's environment: put both back."""
    before = tb.info()["torch_threads"]
    environ = {name: os.environ.get(name) for name in NANNY_VARIABLES}
    yield
    tb.set_num_threads(int(before))
    for name, value in environ.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _start(kind: str) -> tuple[LocalCluster, Client]:
    with dask.config.set(tbd.WORKER_CONFIG):  # as the README starts worker processes
        cluster = LocalCluster(**CLUSTERS[kind], dashboard_address=":0")
    return cluster, Client(cluster, set_as_default=False)


@pytest.fixture(scope="module")
def clusters() -> Iterator[dict[str, Client]]:
    started = {kind: _start(kind) for kind in CLUSTERS}
    yield {kind: client for kind, (_, client) in started.items()}
    for cluster, client in started.values():
        client.close()
        cluster.close()


@pytest.fixture(params=list(CLUSTERS))
def client(request, clusters) -> Client:
    return clusters[request.param]


def compute(client: Client, *arrays):
    """The arrays computed on ``client``'s cluster (never the local scheduler)."""
    return client.gather(client.compute(list(arrays)))


# --------------------------------------------------------------------------- pickling


def _families() -> list[str]:
    return list(_dispatch.families())


def _routines() -> list:
    found = []
    for family in _families():
        module = importlib.import_module(f"torchbridge.{family}")
        found += [getattr(module, name) for name in module.__all__ if callable(getattr(module, name))]
    return found


def _resolve_on_worker(routines: list) -> list[tuple[str, str, bool]]:
    """On the worker: each routine's module and name, and whether the object
    that arrived *is* the one that name imports there (pickled by reference)."""
    out = []
    for routine in routines:
        home = importlib.import_module(routine.__module__)
        out.append((routine.__module__, routine.__qualname__, getattr(home, routine.__qualname__) is routine))
    return out


def _echo(value):
    return value


def test_every_routine_round_trips_through_a_subprocess_worker(clusters):
    client = clusters["subprocess"]
    routines = _routines()
    assert {"special", "fft", "linalg"} <= set(_families()) and len(routines) > 100
    resolved = client.submit(_resolve_on_worker, routines, pure=False).result()
    assert resolved == [(r.__module__, r.__qualname__, True) for r in routines]
    assert all(m.startswith("torchbridge.") for m, _, _ in resolved)
    back = client.submit(_echo, routines, pure=False).result()
    assert len(back) == len(routines) and all(b is r for b, r in zip(back, routines))


def test_each_routine_is_a_task_argument_of_its_own(clusters):
    """One task per routine, every worker: what a graph does with a routine in it."""
    client = clusters["subprocess"]
    routines = _routines()
    futures = client.map(_echo, routines, pure=False)
    back = client.gather(futures)
    assert all(b is r for b, r in zip(back, routines))
    workers = client.who_has(futures)
    assert len({address for holders in workers.values() for address in holders}) == 2  # both workers took part


# --------------------------------------------------------------------------- results


def _data(shape, seed=0, lo=-3.0, hi=3.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape)


def test_erf_is_bit_identical(client):
    x = _data((64, 50))
    got = compute(client, tb.special.erf(da.from_array(x, chunks=(8, 25))))[0]
    np.testing.assert_array_equal(got, tb.special.erf(x))
    assert got.tobytes() == tb.special.erf(x).tobytes()


def test_binary_ufunc_with_broadcasting_is_bit_identical(client):
    x, y = _data((40, 30), 1, 0.0, 5.0), _data((30,), 2, 0.1, 5.0)
    lazy = tb.special.xlogy(da.from_array(x, chunks=(7, 11)), da.from_array(y, chunks=11))
    (got,) = compute(client, lazy)
    assert got.tobytes() == tb.special.xlogy(x, y).tobytes()


def test_rfft_along_an_axis(client):
    x = _data((24, 64), 3)
    (got,) = compute(client, tb.fft.rfft(da.from_array(x, chunks=(5, 64)), axis=1))
    want = tb.fft.rfft(x, axis=1)
    assert got.shape == want.shape == (24, 33) and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13)


def test_logsumexp_reduction_over_many_chunks(client):
    x = _data((60, 40), 4, -50.0, 50.0)
    lazy = da.from_array(x, chunks=(7, 9))
    full, rows = compute(client, tb.special.logsumexp(lazy), tb.special.logsumexp(lazy, axis=1))
    np.testing.assert_allclose(full, tb.special.logsumexp(x), rtol=1e-12)
    np.testing.assert_allclose(rows, tb.special.logsumexp(x, axis=1), rtol=1e-12)


@pytest.mark.xfail(
    "linalg.inv" not in tbd.CHUNKING, reason="linalg.inv's chunking row comes with the linalg dask work", strict=True
)
def test_inv_on_a_batch(client):
    a = np.random.default_rng(5).standard_normal((10, 4, 4)) + 4 * np.eye(4)
    (got,) = compute(client, tb.linalg.inv(da.from_array(a, chunks=(3, 4, 4))))
    np.testing.assert_allclose(got, tb.linalg.inv(a), rtol=1e-12, atol=1e-14)


def test_norm(client):
    a = _data((30, 20), 6)
    lazy = da.from_array(a, chunks=(7, 6))
    fro, vec, cols = compute(
        client, tb.linalg.norm(lazy), tb.linalg.norm(lazy.ravel(), 3), tb.linalg.norm(lazy, axis=0)
    )
    np.testing.assert_allclose(fro, tb.linalg.norm(a), rtol=1e-12)
    np.testing.assert_allclose(vec, tb.linalg.norm(a.ravel(), 3), rtol=1e-12)
    np.testing.assert_allclose(cols, tb.linalg.norm(a, axis=0), rtol=1e-12)


def test_stats_moments_merge_on_workers(client):
    """The moment partials (dicts of arrays) and their merges travel between workers."""
    x = _data((80, 6), 8, 0.5, 3.0)
    lazy = da.from_array(x, chunks=(9, 4))
    skew, kurt, described, z, gm = compute(
        client,
        tb.stats.skew(lazy, axis=0),
        tb.stats.kurtosis(lazy, axis=None, bias=False),
        tb.stats.describe(lazy, axis=1).variance,
        tb.stats.zscore(lazy, axis=0),
        tb.stats.gmean(lazy, axis=0, weights=np.arange(1.0, 7.0)),
    )
    np.testing.assert_allclose(skew, tb.stats.skew(x, axis=0), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(kurt, tb.stats.kurtosis(x, axis=None, bias=False), rtol=1e-12, atol=3e-12)
    np.testing.assert_allclose(described, tb.stats.describe(x, axis=1).variance, rtol=1e-12)
    np.testing.assert_allclose(z, tb.stats.zscore(x, axis=0), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(gm, tb.stats.gmean(x, axis=0, weights=np.arange(1.0, 7.0)), rtol=1e-12)


def test_order_statistics_and_cdist_on_workers(client):
    x, y = _data((40, 5), 9), _data((25, 5), 10)
    xa, xb = da.from_array(x, chunks=(11, 5)), da.from_array(y, chunks=(7, 5))
    iqr, mode_count, dist, seuclidean, mahalanobis = compute(
        client,
        tb.stats.iqr(da.from_array(x, chunks=(40, 2)), axis=0),
        tb.stats.mode(da.from_array(np.round(x), chunks=(40, 2)), axis=0).count,
        tb.spatial.distance.cdist(xa, xb, "cityblock"),
        tb.spatial.distance.cdist(xa, xb, "seuclidean"),
        tb.spatial.distance.cdist(xa, xb, "mahalanobis"),
    )
    assert iqr.tobytes() == tb.stats.iqr(x, axis=0).tobytes()
    np.testing.assert_array_equal(mode_count, tb.stats.mode(np.round(x), axis=0).count)
    assert dist.tobytes() == tb.spatial.distance.cdist(x, y, "cityblock").tobytes()
    np.testing.assert_allclose(seuclidean, tb.spatial.distance.cdist(x, y, "seuclidean"), rtol=1e-12)
    np.testing.assert_allclose(mahalanobis, tb.spatial.distance.cdist(x, y, "mahalanobis"), rtol=1e-12)


def test_many_chunks_move_between_worker_processes(clusters):
    """256 chunks computed on both subprocess workers, then a reduction and a
    transpose that need chunks from the other process."""
    client = clusters["subprocess"]
    x = _data((256, 1024), 7)
    y = client.persist(tb.special.erf(da.from_array(x, chunks=(16, 64))))
    client.gather(futures_of(y))  # all computed (distributed.wait would look for a default client)
    holders = {address for addresses in client.who_has(y).values() for address in addresses}
    assert y.npartitions == 256 and len(holders) == 2, holders
    moved = tb.special.expit(y.T.rechunk((1024, 8)))  # every output chunk gathers pieces of 16 input chunks
    total = tb.special.logsumexp(y)
    got, lse = compute(client, moved, total)
    assert got.tobytes() == tb.special.expit(np.ascontiguousarray(tb.special.erf(x).T)).tobytes()
    np.testing.assert_allclose(lse, tb.special.logsumexp(tb.special.erf(x)), rtol=1e-12)


# --------------------------------------------------------------------------- configure


def _threads_in_task(_: int) -> tuple[int, int]:
    """What a task sees: libtorch's threads in this task thread, and the thread."""
    return int(tb.info()["torch_threads"]), threading.get_ident()


def _task_threads(client: Client, tasks: int = 24) -> dict[str, set[tuple[int, int]]]:
    """Per worker, the (libtorch threads, thread id) pairs its tasks saw."""
    seen: dict[str, set[tuple[int, int]]] = {}
    for address in client.scheduler_info(n_workers=-1)["workers"]:
        futures = client.map(_threads_in_task, range(tasks), workers=[address], allow_other_workers=False, pure=False)
        seen[address] = set(client.gather(futures))
    return seen


def _settings(client: Client) -> dict[str, int | None]:
    return client.run(_workers._setting)


def test_configure_splits_the_cores_among_the_workers_threads(clusters):
    cores = _workers.host_cores()
    for kind, client in clusters.items():
        spec = CLUSTERS[kind]
        before = _task_threads(client)  # the task threads have computed: their libtorch count is fixed per thread
        chosen = tbd.configure(client)
        want = max(1, cores // (spec["n_workers"] * spec["threads_per_worker"]))
        workers = set(client.scheduler_info(n_workers=-1)["workers"])
        assert chosen == dict.fromkeys(workers, want), kind
        assert _settings(client) == chosen
        after = _task_threads(client)
        for address in workers:
            assert {threads for threads, _ in after[address]} == {want}, (kind, after[address])
            # threads that had computed before (and so kept their own count) have the new one too
            assert {t for _, t in before[address]} & {t for _, t in after[address]}, kind


def test_configure_with_explicit_threads_and_its_errors(clusters):
    client = clusters["subprocess"]
    before = _task_threads(client)
    try:
        chosen = tbd.configure(client, threads=3)
        assert set(chosen.values()) == {3} and len(chosen) == 2
        after = _task_threads(client)
        for address, seen in after.items():
            assert {n for n, _ in seen} == {3}, seen
            # the very threads that computed at their old count (1 under a nanny, or the share) now run at 3
            old = {thread for n, thread in before[address] if n != 3}
            assert old & {thread for _, thread in seen}, (before[address], seen)
    finally:
        tbd.configure(client)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(tb.InvalidArgumentError, match="positive int"):
            tbd.configure(client, threads=bad)


def test_a_worker_joining_later_shrinks_the_share_on_its_host():
    cores = _workers.host_cores()
    with (
        LocalCluster(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        assert list(tbd.configure(client).values()) == [max(1, cores)]
        cluster.scale(cores + 1)  # one thread more than cores: the share drops to 1
        client.wait_for_workers(cores + 1)
        # each new worker's setup applies its share, then has the others on its host re-apply theirs; a worker
        # counts as arrived before its setup ends, so wait for the settings (not a timing: a deadline for a hang)
        deadline = time.monotonic() + 60
        while set((settings := _settings(client)).values()) != {1} and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(settings) == cores + 1 and set(settings.values()) == {1}, settings
        assert all({n for n, _ in seen} == {1} for seen in _task_threads(client, 4).values())


# --------------------------------------------------------------------------- WORKER_CONFIG


def _allocator_state(_: int = 0) -> tuple[str | None, bool, bool]:
    """In a worker: THP_MEM_ALLOC_ENABLE, whether libtorch page-aligns its blocks of 2 MiB or more (its
    allocator's huge-page mode: it then also advises huge pages for them), and _fresh_pages()."""
    import torch

    aligned = all(torch.empty(n, dtype=torch.float64).data_ptr() % 4096 == 0 for n in (300_000, 1_562_500, 4_000_000))
    return os.environ.get("THP_MEM_ALLOC_ENABLE"), aligned, _workers._fresh_pages()


def test_worker_config_reaches_libtorchs_allocator_in_the_workers(clusters):
    states = clusters["subprocess"].run(_allocator_state)
    assert len(states) == 2 and set(states.values()) == {("1", True, False)}, states


def test_configure_warns_when_a_worker_process_started_without_it(monkeypatch):
    from dask.array.core import PerformanceWarning

    monkeypatch.delenv("THP_MEM_ALLOC_ENABLE", raising=False)  # left here by the module's clusters' nannies
    with (
        LocalCluster(processes=True, n_workers=1, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        ((thp, aligned, fresh),) = client.run(_allocator_state).values()
        assert thp is None and not aligned  # a nanny's worker: glibc's 64-byte-aligned blocks, 4 KiB pages
        assert fresh == _workers.huge_pages_available()
        if fresh:
            with pytest.warns(PerformanceWarning, match=r"THP_MEM_ALLOC_ENABLE=1 \(`with dask.config.set"):
                tbd.configure(client)
        else:  # a kernel without transparent huge pages: nothing to gain, nothing said
            tbd.configure(client)


def test_share_rule():
    assert _workers.share(2, 1) == 2 and _workers.share(2, 2) == 1 and _workers.share(2, 4) == 1
    assert _workers.share(16, 3) == 5 and _workers.share(16, 0) == 16
