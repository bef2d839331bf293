"""The README's table of differentiated arguments, generated from the package
(``torchbridge._differentiable.DIFFERENTIABLE``, which test_autograd.py
gradchecks entry by entry), not typed by hand.

    python .ci/differentiability_table.py            # print the table
    python .ci/differentiability_table.py --write    # rewrite it in README.md, between the markers

tests/python/test_autograd.py fails when README.md and the package disagree.
"""

from __future__ import annotations

import sys

import readme_table

START, END = "<!-- differentiable:start -->", "<!-- differentiable:end -->"
README = readme_table.README


def table() -> str:
    from torchbridge._differentiable import DIFFERENTIABLE

    by_family: dict[str, list[str]] = {}
    for name, arguments in DIFFERENTIABLE.items():
        family, routine = name.split(".", 1) if not name.startswith("spatial.") else name.rsplit(".", 1)
        by_family.setdefault(family, []).append(f"`{routine}({', '.join(arguments)})`")
    lines = ["| family | routines | routine(differentiated arguments) |", "|---|---:|---|"]
    for family, entries in by_family.items():
        lines.append(f"| `torchbridge.{family}` | {len(entries)} | {', '.join(sorted(entries))} |")
    return "\n".join(lines)


def readme_block(text: str) -> str:
    return readme_table.block(text, START, END)


if __name__ == "__main__":
    sys.exit(readme_table.main(__doc__.split("\n\n")[0], table, START, END))
