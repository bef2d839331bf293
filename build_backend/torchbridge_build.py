"""PEP 517 build backend: maturin's, plus finding the libtorch to build against.

The Rust build (torch-sys, tch 0.24) compiles and links against libtorch 2.11.0, which comes from
the ``torch`` wheel. With ``LIBTORCH_USE_PYTORCH=1`` torch-sys asks the ``python`` on PATH where
torch is; under pip's default build isolation that interpreter sees only the isolated build
environment, where there is no torch (the error was ``no cxx11 abi returned by python ...
No module named 'torch'``). This backend settles where torch comes from, in this order:

1. ``LIBTORCH`` is set: torch-sys uses that directory (a torch package or a libtorch download);
   nothing is changed.
2. The environment being installed into (the interpreter running the build: ``sys.prefix``'s
   site-packages, and the directories its ``.pth`` files add) has torch 2.11.0: the build uses it.
   No download; this is the usual case, as torchbridge's own dependency is ``torch==2.11.0``.
3. The build environment has torch 2.11.0 (``--no-build-isolation``, or case 4).
4. Otherwise ``get_requires_for_build_wheel`` asks pip for ``torch==2.11.0`` in the isolated
   build environment: PyPI's CUDA build, roughly 2.7 GB with its nvidia-* and triton wheels
   (torch's own wheel is 531 MB), downloaded once into pip's cache, unpacked for every build.

Cases 2 and 3 keep torch-sys's own ``LIBTORCH_USE_PYTORCH=1`` mechanism (so its version check runs
and a build from the project's ``.venv`` reuses the same cargo artifacts as ``maturin develop``):
``python``/``python3`` on the build's PATH become the build's interpreter, and for case 2 without
pip's isolation variables, so that it imports the target environment's torch.

Wheels get a manylinux tag (``[tool.maturin] compatibility``) unless ``--compatibility`` is passed
in ``maturin.build-args``; maturin's own backend would tag them ``linux_x86_64``.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import site
import stat
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any, Mapping

import maturin
from maturin import (  # noqa: F401  (re-exported PEP 517 hooks)
    build_sdist,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_wheel,
)

TORCH = "2.11.0"  # tch 0.24's libtorch; build.rs and torch-sys check it too
REQUIREMENT = f"torch=={TORCH}"


def _release(version: str) -> str:
    return version.split("+", 1)[0]


def torch_version_at(package: Path) -> str | None:
    """The version of the torch package at ``package`` (``.../torch``), or None when there is none."""
    try:
        text = (package / "version.py").read_text()
    except OSError:
        return None
    if not (package / "lib").is_dir():
        return None
    found = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", text, re.M)
    return found.group(1) if found else None


def target_site_dirs(prefix: str | None = None) -> list[Path]:
    """The site-packages of the environment at ``prefix`` (default: ``sys.prefix``, the one pip
    installs into) and the directories its ``.pth`` files add, without importing anything."""
    scheme_vars = None if prefix is None else {"base": prefix, "platbase": prefix}
    paths = sysconfig.get_paths(vars=scheme_vars)
    dirs = [Path(paths["purelib"]), Path(paths["platlib"])]
    if prefix is None and site.ENABLE_USER_SITE is not False:
        dirs.append(Path(site.getusersitepackages()))
    found: list[Path] = []
    for directory in dirs:
        if directory in found or not directory.is_dir():
            continue
        found.append(directory)
        for pth in sorted(directory.glob("*.pth")):
            for line in pth.read_text(errors="replace").splitlines():
                line = line.strip()
                if not line or line.startswith(("#", "import ", "import\t")):
                    continue
                extra = (directory / line).resolve()
                if extra.is_dir() and extra not in found:
                    found.append(extra)
    return found


def target_torch(prefix: str | None = None) -> Path | None:
    """The target environment's torch 2.11.0 package directory, if it has one."""
    for directory in target_site_dirs(prefix):
        version = torch_version_at(directory / "torch")
        if version is not None:
            return directory / "torch" if _release(version) == TORCH else None
    return None


def build_env_torch() -> Path | None:
    """The build environment's own torch 2.11.0 (build requirement or no isolation), if any."""
    from importlib import util

    spec = util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = Path(next(iter(spec.submodule_search_locations)))
    version = torch_version_at(package)
    return package if version is not None and _release(version) == TORCH else None


def _python_shims(isolated_view: bool) -> str:
    """A directory with ``python`` and ``python3`` running this interpreter; with ``isolated_view``
    False they drop pip's isolation variables, so they see the target environment's packages."""
    shims = Path(tempfile.mkdtemp(prefix="torchbridge-build-python-"))
    atexit.register(shutil.rmtree, shims, ignore_errors=True)
    unset = "" if isolated_view else "unset PYTHONPATH PYTHONNOUSERSITE\n"
    for name in ("python", "python3"):
        shim = shims / name
        shim.write_text(f'#!/bin/sh\n{unset}exec "{sys.executable}" "$@"\n')
        shim.chmod(shim.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(shims)


def configure_libtorch(environ: dict[str, str] | None = None) -> str:
    """Sets the variables torch-sys reads (in ``environ``, default ``os.environ``); returns which
    torch the build uses: ``LIBTORCH``, ``target``, ``build`` or ``missing``."""
    env = os.environ if environ is None else environ
    if env.get("LIBTORCH"):
        return "LIBTORCH"
    source, isolated_view = ("target", False) if target_torch() is not None else ("build", True)
    if source == "build" and build_env_torch() is None:
        return "missing"
    env["LIBTORCH_USE_PYTORCH"] = "1"
    env["PATH"] = _python_shims(isolated_view) + os.pathsep + env.get("PATH", "")
    return source


def get_requires_for_build_wheel(config_settings: Mapping[str, Any] | None = None) -> list[str]:
    extra = [] if os.environ.get("LIBTORCH") or target_torch() is not None else [REQUIREMENT]
    return maturin.get_requires_for_build_wheel(config_settings) + extra


get_requires_for_build_editable = get_requires_for_build_wheel


def _with_compatibility(config_settings: Mapping[str, Any] | None) -> dict[str, Any]:
    settings = dict(config_settings or {})
    args = maturin.get_maturin_pep517_args(settings)
    if not any(a in ("--compatibility", "--manylinux") or a.startswith("--compatibility=") for a in args):
        compatibility = maturin.get_config().get("compatibility")
        if compatibility:
            args = ["--compatibility", compatibility, *args]
    settings["maturin.build-args"] = args
    return settings


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    if configure_libtorch() == "missing":
        raise RuntimeError(f"torchbridge's build needs {REQUIREMENT}: none in the target or the build environment")
    return maturin.build_wheel(wheel_directory, _with_compatibility(config_settings), metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    if configure_libtorch() == "missing":
        raise RuntimeError(f"torchbridge's build needs {REQUIREMENT}: none in the target or the build environment")
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)
