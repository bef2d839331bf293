"""Every ```python block of README.md runs as written.

Each block is executed as a script in a fresh interpreter whose working
directory is an empty temporary folder, so only the installed package (not
the source tree) makes it work. What a block prints must be exactly what the
README shows for it: the whole-line ``# `` comments directly under a line that
calls ``print(`` (whitespace-normalised). A block that prints nothing must
show nothing.

Blocks that need a GPU carry the marker ``<!-- needs: cuda -->`` on the line
before the opening fence. They run where libtorch sees CUDA; elsewhere the
test runs them anyway and checks that they fail with torchbridge's
``DeviceError`` (what the README promises for ``device="cuda"`` without a
GPU), so a marked block still proves something. A block that mentions CUDA
without the marker, or a marker without a block, fails the test: none hides.

The blocks are found anew on every run, so blocks added to the README
(installation, new sections) are covered without editing this file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import torchbridge as tb

README = Path(__file__).resolve().parents[2] / "README.md"
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
MARKER = re.compile(r"<!--\s*needs:\s*([\w, ]+?)\s*-->")
CUDA = bool(tb.info()["cuda_available"])


@dataclass
class Block:
    line: int  # 1-based line of the opening fence
    code: str
    needs: set[str] = field(default_factory=set)

    @property
    def expected(self) -> list[str]:
        """The ``# `` comment lines under each ``print(`` line, in order."""
        out: list[str] = []
        after_print = False
        for line in self.code.splitlines():
            if after_print and line.startswith("#"):
                out.append(_norm(line[1:]))
                continue
            after_print = "print(" in line and not line.lstrip().startswith("#")
        return out


def _norm(text: str) -> str:
    return " ".join(text.split())


def blocks(text: str | None = None) -> list[Block]:
    text = README.read_text(encoding="utf-8") if text is None else text
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        needs = set()
        marker = MARKER.fullmatch(before.strip())
        if marker:
            needs = {n.strip() for n in marker.group(1).split(",") if n.strip()}
        found.append(Block(text.count("\n", 0, match.start()) + 1, match.group(1), needs))
    return found


BLOCKS = blocks()


def run(block: Block, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / f"readme_line_{block.line}.py"
    script.write_text(block.code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_readme_has_its_python_blocks():
    # the quick start, devices, tb.torch and tb.ops at least; a broken fence regex would find none
    assert len(BLOCKS) >= 4
    assert BLOCKS[0].code.lstrip().startswith("import numpy as np\nimport torchbridge as tb")


def test_markers_are_honest():
    text = README.read_text(encoding="utf-8")
    # every marker sits right before a python block (a stray one would silently mark nothing)
    markers = [line for line in text.splitlines() if MARKER.fullmatch(line.strip())]
    assert len(markers) == sum(1 for b in BLOCKS if b.needs)
    for block in BLOCKS:
        assert block.needs <= {"cuda"}, f"README line {block.line}: unknown needs {block.needs}"
        uses_cuda = re.search(r"""device\s*=\s*["']cuda""", block.code) is not None
        assert uses_cuda == ("cuda" in block.needs), f"README line {block.line}: CUDA use and marker disagree"
    assert sum(1 for b in BLOCKS if "cuda" in b.needs) >= 1


def test_quick_start_needs_no_torch_import_and_prints():
    quick = BLOCKS[0]
    assert not re.search(r"^\s*(import torch\b|from torch\b)", quick.code, re.M)
    assert quick.expected, "the quick start shows what it prints"


def test_output_convention_is_parsed():
    (block,) = blocks("x\n```python\nprint(1)\n#  1\n# 2\ny = 3\n# not output\n```\n")
    assert block.expected == ["1", "2"] and block.line == 2 and not block.needs
    (marked,) = blocks("<!-- needs: cuda -->\n```python\npass\n```\n")
    assert marked.needs == {"cuda"}


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{b.line}" for b in BLOCKS])
def test_block_runs(block, tmp_path):
    compile(block.code, f"README.md:{block.line}", "exec")
    result = run(block, tmp_path)
    if "cuda" in block.needs and not CUDA:
        # no GPU here: the block must fail the documented way, not with a NameError or a crash
        assert result.returncode == 1, result.stderr
        assert "torchbridge.errors.DeviceError" in result.stderr, result.stderr
        return
    assert result.returncode == 0, f"README line {block.line} failed:\n{result.stderr}"
    printed = [_norm(line) for line in result.stdout.splitlines()]
    assert printed == block.expected, f"README line {block.line} printed:\n{result.stdout}"
