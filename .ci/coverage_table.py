"""The README's coverage table, generated from the package (not typed by hand).

    python .ci/coverage_table.py            # print the table
    python .ci/coverage_table.py --write    # rewrite it in README.md, between the markers

tests/python/test_coverage.py fails when README.md and the package disagree.
"""

from __future__ import annotations

import importlib
import sys

import readme_table

START, END = "<!-- coverage:start -->", "<!-- coverage:end -->"
README = readme_table.README


def families() -> tuple[str, ...]:
    """The package's SciPy-compatible families (``torchbridge._dispatch.families``)."""
    from torchbridge import _dispatch

    return _dispatch.families()


def scipy_counterpart(family: str, name: str):
    """The SciPy (or NumPy, for sinc) function a torchbridge routine mirrors."""
    if family == "special" and name == "sinc":
        import numpy

        return numpy.sinc
    return getattr(importlib.import_module(f"scipy.{family}"), name, None)


def table() -> str:
    lines = ["| family | routines | names |", "|---|---:|---|"]
    for family in families():
        module = importlib.import_module(f"torchbridge.{family}")
        names = sorted(module.__all__)
        lines.append(f"| `torchbridge.{family}` | {len(names)} | {', '.join(f'`{n}`' for n in names)} |")
    return "\n".join(lines)


def readme_block(text: str) -> str:
    return readme_table.block(text, START, END)


if __name__ == "__main__":
    sys.exit(readme_table.main(__doc__.split("\n\n")[0], table, START, END))
