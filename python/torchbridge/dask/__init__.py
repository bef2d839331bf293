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

__all__ = ["CHUNKING", "configure", "chunking_table"]


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


def configure(client: Any, threads: int | None = None) -> None:
    """Sets libtorch's intra-op threads on every worker of ``client`` (now and
    for workers that join later), so that the workers' threads times their
    libtorch threads do not exceed the machine's cores."""
    raise NotImplementedError  # filled in by the cluster work
