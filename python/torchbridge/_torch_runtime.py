"""Checks the installed torch against the one ``_core`` was built with, then loads its libtorch.

``torchbridge._core`` links libtorch's C++ libraries (``libtorch_cpu.so``, ``libc10.so`` and, for a
CUDA build, ``libtorch_cuda.so``) from the ``torch`` wheel. libtorch has no stable C++ ABI: against
any other torch release the extension fails to load with an undefined-symbol error, or worse. So
before ``_core`` is loaded, this module compares the installed torch distribution's version
(``importlib.metadata``, without importing torch) with the one the build recorded
(``_build_torch.py``, written by build.rs) and raises an ``ImportError`` that says what to install.
Then it loads those libraries from the installed torch package by absolute path, so that ``_core``
finds them whatever the layout (its RUNPATH ``$ORIGIN/../torch/lib`` covers torch installed beside
torchbridge; a ``.pth`` file, a user site or ``--target`` install puts it elsewhere).
"""

from __future__ import annotations

import ctypes
from importlib import metadata, util
from pathlib import Path

try:
    from ._build_torch import CUDA, TORCH_VERSION
except ImportError:  # build.rs writes it whenever it builds the extension
    raise ImportError(
        "torchbridge/_build_torch.py (the torch the extension was built against, written by build.rs) is "
        "missing: rebuild the extension (`touch build.rs` first if cargo thinks it is current)"
    ) from None


def _release(version: str) -> str:
    """``2.11.0+cu130`` -> ``2.11.0``: the local label names the variant, not the ABI."""
    return version.split("+", 1)[0]


def torch_lib_dir() -> Path:
    """Checks the installed torch and returns its ``torch/lib`` directory (raises ``ImportError``)."""
    want = _release(TORCH_VERSION)
    advice = (
        f"install it with `pip install torch=={want}` (torchbridge uses tch 0.24, which is written "
        f"against libtorch {want}; another torch needs another torchbridge build, and tch pins the release)"
    )
    try:
        found = metadata.version("torch")
    except metadata.PackageNotFoundError:
        raise ImportError(
            f"torchbridge was built against torch {TORCH_VERSION}, and no torch is installed: {advice}"
        ) from None
    if _release(found) != want:
        raise ImportError(
            f"torchbridge was built against torch {TORCH_VERSION}, but torch {found} is installed: "
            f"its compiled extension links libtorch's C++ libraries, whose ABI changes with every torch "
            f"release, so it cannot load against this one; {advice}"
        )
    spec = util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"the torch {found} distribution is installed but its package cannot be found: {advice}")
    lib = Path(next(iter(spec.submodule_search_locations))) / "lib"
    if CUDA and not (lib / "libtorch_cuda.so").exists():
        raise ImportError(
            f"torchbridge was built against torch {TORCH_VERSION}, a CUDA build, but the installed torch "
            f"{found} at {lib.parent} has no libtorch_cuda.so (a CPU-only build): install PyPI's default "
            f"torch=={want} (`pip install torch=={want}`), or build torchbridge from source against this torch"
        )
    return lib


def load_libtorch() -> None:
    """Checks the installed torch, then loads the libtorch libraries ``_core`` needs."""
    lib = torch_lib_dir()
    names = ["libc10.so", "libtorch_cpu.so"] + (["libtorch_cuda.so"] if CUDA else [])
    for name in names:
        try:
            ctypes.CDLL(str(lib / name))
        except OSError as error:
            raise ImportError(
                f"torchbridge cannot load {name} from the installed torch at {lib.parent}: {error}"
            ) from None


load_libtorch()
