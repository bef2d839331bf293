"""libtorch's intra-op threads on dask.distributed workers (:func:`configure`).

A dask worker runs ``nthreads`` tasks at once, and inside each task libtorch
runs its own intra-op pool (OpenMP). Left alone, the two multiply: on a
2-core machine, two in-process workers of two threads each run 2 x 2 tasks x
2 libtorch threads. :class:`TorchThreads` is a ``distributed.WorkerPlugin``
that, on every worker (present, and joining later), sets libtorch's threads so
that, summed over the workers on one host, worker threads x libtorch threads
stay within the host's cores.

Two facts of libtorch decide how (measured on this machine with libtorch 2.11's
OpenMP build; ``torchbridge.info()["torch_threads"]`` read inside the threads):

- ``set_num_threads`` is per process only for threads that have not yet run a
  parallel libtorch op: it stores the process-wide count, which each thread
  reads once, at its first parallel op, into its own OpenMP setting. A thread
  that already computed keeps its old count (a worker thread that ran a task
  at 2 threads still ran at 2 after ``set_num_threads(1)`` from another
  thread). So the plugin sets the count on the worker's event-loop thread
  (for threads started later) *and* inside every thread of the worker's task
  executor, one call per thread.
- In-process workers (``LocalCluster(processes=False)``) share one libtorch,
  and the caller's: there is one process-wide count. The rule below gives
  every worker on a host the same count, so in-process workers never disagree.

libtorch's inter-op pool is left alone: torchbridge's routines do not use it.

The plugin also checks how each worker process allocates: see :data:`WORKER_ENVIRON`.
"""

from __future__ import annotations

import asyncio
import os
import threading
import warnings
from typing import Any

from distributed.comm.addressing import get_address_host
from distributed.diagnostics.plugin import WorkerPlugin

from .._core import set_num_threads
from ..errors import InvalidArgumentError

#: The name the plugin is registered under (registering again replaces it).
PLUGIN_NAME = "torchbridge-threads"

#: The environment a worker process needs from its start (``torchbridge.dask.WORKER_CONFIG`` puts it into
#: dask's ``distributed.nanny.pre-spawn-environ``). distributed's nannies set ``MALLOC_TRIM_THRESHOLD_`` for
#: their workers, which fixes glibc's mmap threshold at 128 KiB: every larger block is then a fresh mapping,
#: and writing a result costs a page fault per 4 KiB (3052 for 1.5e6 float64 elements; measured here, erf
#: at 1.5e6 elements took 1.5x the CPU time in such a process). NumPy advises huge pages for its large
#: arrays; libtorch's allocator does so for blocks of 2 MiB or more when ``THP_MEM_ALLOC_ENABLE`` is set when
#: it first allocates (498 faults for that result).
WORKER_ENVIRON = {"THP_MEM_ALLOC_ENABLE": "1"}

#: glibc's tunables that fix its mmap threshold when any is in the environment.
_FIXED_MMAP_THRESHOLD = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")

#: Seconds a thread of a busy executor waits for the others before it gives up
#: making sure each thread got its own call (it has set its own count already).
_BARRIER_TIMEOUT = 30.0


def host_cores() -> int:
    """The cores this process may run on (its CPU affinity; ``os.cpu_count()`` where unknown)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def share(cores: int, worker_threads_on_host: int) -> int:
    """libtorch threads per worker thread on a host: ``cores // worker threads``, at least 1."""
    return max(1, cores // max(1, worker_threads_on_host))


def _set_in_thread(threads: int, barrier: threading.Barrier) -> int:
    """Runs in one executor thread: sets its count, then holds the thread until
    every thread of the executor has its call (so that no thread gets two)."""
    set_num_threads(threads)
    try:
        barrier.wait(_BARRIER_TIMEOUT)
    except threading.BrokenBarrierError:
        pass
    return threading.get_ident()


async def _set_everywhere(worker: Any, threads: int) -> None:
    """``threads`` on the worker's event-loop thread and in each thread of its task executor."""
    set_num_threads(threads)
    executor = worker.executor
    size = getattr(executor, "_max_workers", None)
    if not isinstance(size, int) or size < 1:  # a custom executor: its threads read the count at their first op
        return
    barrier = threading.Barrier(size)
    futures = [executor.submit(_set_in_thread, threads, barrier) for _ in range(size)]
    await asyncio.gather(*(asyncio.wrap_future(f) for f in futures))


class TorchThreads(WorkerPlugin):
    """Sets libtorch's intra-op threads on each worker (see :func:`configure`).

    ``threads``: the count for every worker, or ``None`` for the host's share
    (:func:`share` of :func:`host_cores` over the threads of all workers the
    scheduler knows on that host). ``initial``: the workers present at
    registration; a worker not among them has joined later, and its setup also
    recomputes the share of the other workers on its host. ``setting`` is the
    count this worker chose (read back by :func:`configure`).
    """

    idempotent = False

    def __init__(self, threads: int | None = None, initial: frozenset[str] = frozenset()):
        self.threads = threads
        self.initial = initial
        self.setting: int | None = None
        self._lock: asyncio.Lock | None = None  # made on the worker: applies one at a time there
        self._pending: set[asyncio.Task] = set()

    async def setup(self, worker: Any) -> None:
        self._lock = asyncio.Lock()
        await self.apply(worker)
        if self.threads is None and worker.address not in self.initial:
            # In the background: a worker serves requests only once its setup is over, so awaiting the
            # others here would deadlock two workers that join together (each waiting on the other).
            task = asyncio.ensure_future(self._others_reapply(worker))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    def teardown(self, worker: Any) -> None:
        for task in self._pending:
            task.cancel()

    async def _others_reapply(self, worker: Any) -> None:
        peers = [address for address in await _on_host(worker) if address != worker.address]
        if peers:
            await _run_on(worker, _reapply, peers)

    async def apply(self, worker: Any) -> int:
        """Chooses this worker's count and sets it; returns it. One at a time on a
        worker, each reading the scheduler's workers afresh, so the last one to
        run has seen every worker that had joined when it was asked for."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            threads = self.threads
            if threads is None:
                on_host = await _on_host(worker)
                total = sum(on_host.values()) + (0 if worker.address in on_host else worker.state.nthreads)
                threads = share(host_cores(), total)
            await _set_everywhere(worker, threads)
            self.setting = threads
            return threads

    def __getstate__(self) -> dict[str, Any]:
        return {"threads": self.threads, "initial": self.initial, "setting": self.setting}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["threads"], state["initial"])  # type: ignore[misc]
        self.setting = state["setting"]


async def _on_host(worker: Any) -> dict[str, int]:
    """The workers the scheduler knows on ``worker``'s host: address -> threads."""
    identity = await worker.scheduler.identity()
    host = get_address_host(worker.address)
    return {address: int(info["nthreads"]) for address, info in identity["workers"].items() if info["host"] == host}


async def _run_on(worker: Any, function: Any, workers: list[str]) -> None:
    """``function(dask_worker=...)`` on ``workers``, through the scheduler (as ``Client.run``)."""
    from distributed.protocol.pickle import dumps

    await worker.scheduler.broadcast(
        msg={"op": "run", "function": dumps(function), "args": dumps(()), "kwargs": dumps({}), "wait": True},
        workers=workers,
        on_error="ignore",
    )


async def _reapply(dask_worker: Any) -> int | None:
    """A worker's plugin recomputes its share (another worker joined its host)."""
    plugin = dask_worker.plugins.get(PLUGIN_NAME)
    return None if plugin is None else await plugin.apply(dask_worker)


def huge_pages_available() -> bool:
    """Whether the kernel grants transparent huge pages to memory that asks (``madvise`` or ``always``)."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return "[never]" not in f.read()
    except OSError:  # not Linux, or no THP
        return False


def _fresh_pages(dask_worker: Any = None) -> bool:
    """Whether this process writes its large libtorch results to fresh 4 KiB pages (see :data:`WORKER_ENVIRON`)."""
    fixed = any(name in os.environ for name in _FIXED_MMAP_THRESHOLD)
    thp = os.environ.get("THP_MEM_ALLOC_ENABLE", "").strip().upper() in ("1", "ON", "YES", "TRUE", "Y")
    return fixed and not thp and huge_pages_available()


def _setting(dask_worker: Any) -> int | None:
    plugin = dask_worker.plugins.get(PLUGIN_NAME)
    return None if plugin is None else plugin.setting


def configure(client: Any, threads: int | None = None) -> dict[str, int]:
    """:func:`torchbridge.dask.configure` (documented there)."""
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise InvalidArgumentError(f"threads must be a positive int or None, got {threads!r}")
    initial = frozenset(client.scheduler_info(n_workers=-1)["workers"])
    responses = client.register_plugin(TorchThreads(threads, initial), name=PLUGIN_NAME)
    failed = {address: r for address, r in (responses or {}).items() if r.get("status") != "OK"}
    if failed:
        address, response = next(iter(failed.items()))
        raise RuntimeError(
            f"torchbridge.dask.configure failed on {address}: {response.get('exception_text', response)}"
        )
    slow = sorted(address for address, fresh in client.run(_fresh_pages).items() if fresh)
    if slow:
        from dask.array.core import PerformanceWarning

        warnings.warn(
            f"{len(slow)} worker(s) ({', '.join(slow[:3])}{', ...' if len(slow) > 3 else ''}) write each large "
            "libtorch result to fresh 4 KiB pages (their environment fixes glibc's mmap threshold, as dask's "
            "nannies do), which can cost elementwise routines a third of their speed: start the workers with "
            "THP_MEM_ALLOC_ENABLE=1 (`with dask.config.set(torchbridge.dask.WORKER_CONFIG): LocalCluster(...)`, "
            "or export it where `dask worker` starts)",
            PerformanceWarning,
            stacklevel=3,
        )
    return {address: value for address, value in client.run(_setting).items() if value is not None}
