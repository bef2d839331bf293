"""torchbridge on dask: every routine on dask arrays, lazily.

A ``dask.array.Array`` passed to any torchbridge routine returns a
``dask.array.Array`` (its chunks numpy or cupy, as the caller's were); the
graph is built with dask.array's own primitives and nothing is computed
until the caller asks. In every task libtorch computes on the task's blocks.
How each routine is chunked is declared once, in the chunking table
(:data:`CHUNKING`, ``python -m torchbridge.dask`` prints it).

dask is optional: ``import torchbridge`` never imports it, and the dask path
is looked up only for callers who pass dask arrays.
"""

from __future__ import annotations

from typing import Any

from ._table import TABLE as CHUNKING

__all__ = ["CHUNKING", "WORKER_CONFIG", "configure", "chunking_table"]

#: dask configuration to start worker processes under: ``with dask.config.set(WORKER_CONFIG):
#: LocalCluster(...)`` (or ``dask worker`` started with ``THP_MEM_ALLOC_ENABLE=1`` exported). It adds
#: ``THP_MEM_ALLOC_ENABLE=1`` to the environment dask's nannies give their workers, so that libtorch asks the
#: kernel for huge pages for its large results, as NumPy does for its arrays: under a nanny, glibc would
#: otherwise map every result afresh, a page fault per 4 KiB (see ``torchbridge.dask._workers.WORKER_ENVIRON``).
#: :func:`configure` warns when a worker started without it. (A nanny sets these variables in its own process
#: too before it spawns a worker, as dask documents: harmless to the libtorch already running there.)
WORKER_CONFIG = {"distributed.nanny.pre-spawn-environ.THP_MEM_ALLOC_ENABLE": "1"}


def chunking_table() -> str:
    """The chunking table as Markdown: one row per chunking class, with what
    it does (its docstring's first paragraph) and the routines it serves."""
    by_kind: dict[str, dict[str, list[str]]] = {}
    docs: dict[str, str] = {}
    for qualified, row in CHUNKING.items():
        family, name = qualified.split(".", 1)
        by_kind.setdefault(row.kind, {}).setdefault(family, []).append(f"`{name}`")
        docs.setdefault(row.kind, " ".join((type(row).__doc__ or "").strip().split("\n\n")[0].split()))
    lines = ["| chunking | how it runs on dask | routines |", "|---|---|---|"]
    for kind, families in by_kind.items():
        served = "; ".join(f"{family} ({len(names)}): {', '.join(names)}" for family, names in families.items())
        lines.append(f"| {kind} | {docs[kind]} | {served} |")
    return "\n".join(lines) + "\n"


def configure(client: Any, threads: int | None = None) -> dict[str, int]:
    """Sets libtorch's intra-op threads on every worker of ``client``, now and
    on workers that join later, so that on each host the workers' threads
    times their libtorch threads do not exceed the host's cores.

    Registers :class:`~torchbridge.dask._workers.TorchThreads` (a ``distributed.WorkerPlugin``, name
    ``"torchbridge-threads"``; calling ``configure`` again replaces it) with
    ``client.register_plugin``. Each worker, in its setup:

    - chooses ``threads`` if given, else its host's share: the cores its
      process may use (``os.sched_getaffinity``) divided by the threads of all
      workers the scheduler knows on that host, rounded down, at least 1
      (workers with more threads than cores stay oversubscribed by dask
      itself). Every worker on a host gets the same count, as in-process
      workers (``processes=False``), which share one libtorch with each other
      and with the caller, must;
    - sets it with :func:`torchbridge.set_num_threads` on its event-loop
      thread and inside each thread of its task executor (libtorch keeps a
      count per thread once a thread has computed; see
      :mod:`torchbridge.dask._workers`).

    A worker that joins later also makes the other workers on its host
    recompute their share (it shrinks); when a worker leaves, the others keep
    theirs (still within the cores). Nanny workers start with libtorch at one
    thread (dask sets ``OMP_NUM_THREADS=1`` for them), so the share can raise
    it. On a busy worker the call waits until each task thread is free for a
    moment. The client must be synchronous (not ``asynchronous=True``).

    It also warns (dask's ``PerformanceWarning``) when a worker process was
    started without :data:`WORKER_CONFIG`'s environment where it matters: a
    nanny's worker (glibc's mmap threshold fixed), on a kernel with
    transparent huge pages.

    Returns the count each worker chose, by worker address, e.g.
    ``{"tcp://127.0.0.1:40123": 1, "tcp://127.0.0.1:40125": 1}`` for two
    one-thread workers on a 2-core host.
    """
    from ._workers import configure as _configure  # imports distributed: only when called

    return _configure(client, threads)
