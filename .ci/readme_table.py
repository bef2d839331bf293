"""A generated table kept in README.md between two markers: the shared part of
``coverage_table.py`` and ``differentiability_table.py``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def block(text: str, start: str, end: str) -> str:
    """What ``text`` holds between the markers ``start`` and ``end``."""
    return text[text.index(start) + len(start) : text.index(end)].strip()


def main(description: str, table: Callable[[], str], start: str, end: str, argv=None) -> int:
    """Prints the table, or with ``--write`` rewrites it in README.md between the markers."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--write", action="store_true", help="rewrite the table in README.md")
    args = parser.parse_args(argv)
    generated = table()
    if not args.write:
        print(generated)
        return 0
    text = README.read_text()
    first, last = text.index(start) + len(start), text.index(end)
    README.write_text(text[:first] + "\n" + generated + "\n" + text[last:])
    return 0
