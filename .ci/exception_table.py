"""torchbridge.linalg's exception-parity table, generated (not typed by hand).

    python .ci/exception_table.py            # print the table
    python .ci/exception_table.py --write    # rewrite tests/python/linalg/exceptions.md

tests/python/linalg/test_exceptions.py fails when the file and the package disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests" / "python")]

from linalg import exceptions  # noqa: E402 (after the path set-up)

if __name__ == "__main__":
    text = exceptions.markdown(exceptions.cells())
    if "--write" in sys.argv[1:]:
        exceptions.TABLE.write_text(text)
        print(f"written: {exceptions.TABLE}")
    else:
        print(text, end="")
