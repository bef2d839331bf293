//! Build script: compiles the C++ shim (`csrc/dlpack.cpp`: DLPack and
//! streams; `csrc/dfti.cpp`: 1-D FFTs through MKL descriptors kept for reuse; `csrc/aten.cpp`: operators by name; `csrc/autograd.cpp`: values
//! with given derivatives; `csrc/faddeeva.cpp`: the Faddeeva function and
//! the complex erf family; `csrc/xsf_complex.cpp`: the complex gamma
//! family, digamma, exp1/expi, spence, lambertw, Carlson's integrals and sici, shichi,
//! fresnel of complex argument; `csrc/iir.cpp`: SciPy's recurrent filter loops;
//! `csrc/bessel.cpp`: Bessel functions of real order; `csrc/hypergeometric.cpp`:
//! hyp2f1, hyp1f1, hyp0f1 and the Struve functions; `csrc/legendre.cpp`: the
//! Legendre functions and spherical harmonics; `csrc/cephes_misc.cpp`:
//! SciPy's multi-output ufuncs (sici, shichi, fresnel, airy, airye, ellipj); `csrc/gammaln.cpp`:
//! gammaln (Cephes' lgam); `csrc/incbet.cpp`: the incomplete beta function;
//! `csrc/logit.cpp`: logit in one pass; `csrc/ndtr.cpp`: ndtr and log_ndtr in one pass each;
//! `csrc/ni_filters.cpp`: ndimage's line filters;
//! `csrc/ni_interpolation.cpp`: ndimage's interpolation point loop;
//! `csrc/rankdata.cpp`: `rankdata`; `csrc/realtransforms.cpp`: the DCT/DST
//! of types 2 and 3 in one call each; `csrc/tensor_impl.cpp`: torch tensors as
//! the `at::Tensor`s they are; `csrc/threads.cpp`: the calling thread's
//! OpenMP team)
//! against the libtorch that `torch-sys` found, and emits rpaths so that tests, examples,
//! benches and the installed Python extension find libtorch at run time.
//!
//! libtorch is located by `torch-sys` (with `LIBTORCH_USE_PYTORCH=1` it asks
//! the first `python` on PATH for its `torch` package) and handed to us as
//! `DEP_TCH_LIBTORCH_LIB`, the `.../torch/lib` directory.

use std::path::{Path, PathBuf};

/// The libtorch version that tch 0.24 is written against.
const EXPECTED_TORCH: &str = "2.11.0";

/// Reads an environment variable and asks cargo to rerun when it changes.
fn env_var_rerun(name: &str) -> Option<String> {
    println!("cargo:rerun-if-env-changed={name}");
    std::env::var(name).ok()
}

fn main() {
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=build.rs");
    // torch-sys reads these; rerun when they change so the rpath follows.
    for name in ["LIBTORCH", "LIBTORCH_USE_PYTORCH", "LIBTORCH_LIB", "VIRTUAL_ENV"] {
        env_var_rerun(name);
    }

    let lib_dir = match env_var_rerun("DEP_TCH_LIBTORCH_LIB") {
        Some(dir) => PathBuf::from(dir),
        None => panic!(
            "torch-sys did not report a libtorch directory (DEP_TCH_LIBTORCH_LIB). \
             Build with LIBTORCH_USE_PYTORCH=1 and a Python that has torch=={EXPECTED_TORCH} \
             first on PATH (the project's .venv: `bash .ci/setup`)."
        ),
    };
    // .../site-packages/torch/lib -> .../site-packages/torch
    let torch_root = lib_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| panic!("unexpected libtorch lib dir {}", lib_dir.display()));
    let version = check_torch_version(&torch_root);
    println!("cargo:rustc-env=TORCHBRIDGE_TORCH_VERSION={}", version.as_deref().unwrap_or("unknown"));

    let include = torch_root.join("include");
    cc::Build::new()
        .cpp(true)
        .pic(true)
        .warnings(false)
        .flag("-std=c++17")
        .flag("-D_GLIBCXX_USE_CXX11_ABI=1")
        .flag("-DGLOG_USE_GLOG_EXPORT")
        // No fused multiply-adds: iir.cpp, ni_filters.cpp and ni_interpolation.cpp round as SciPy's loops do.
        .flag("-ffp-contract=off")
        .include(&include)
        .include(include.join("torch/csrc/api/include"))
        .file("csrc/dlpack.cpp")
        .file("csrc/dfti.cpp")
        .file("csrc/faddeeva.cpp")
        .file("csrc/xsf_complex.cpp")
        .file("csrc/aten.cpp")
        .file("csrc/autograd.cpp")
        .file("csrc/iir.cpp")
        .file("csrc/gammaln.cpp")
        .file("csrc/bessel.cpp")
        .file("csrc/hypergeometric.cpp")
        .file("csrc/legendre.cpp")
        .file("csrc/cephes_misc.cpp")
        .file("csrc/incbet.cpp")
        .file("csrc/logit.cpp")
        .file("csrc/ndtr.cpp")
        .file("csrc/ni_filters.cpp")
        .file("csrc/ni_interpolation.cpp")
        .file("csrc/rankdata.cpp")
        .file("csrc/realtransforms.cpp")
        .file("csrc/tensor_impl.cpp")
        .file("csrc/threads.cpp")
        .compile("torchbridge_shim");

    // libtorch_cuda is not referenced by any symbol we use, but a Rust binary
    // must still load it for CUDA to be visible: keep it with --no-as-needed.
    if lib_dir.join("libtorch_cuda.so").exists() {
        println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
        println!("cargo:rustc-link-arg=-ltorch_cuda");
        println!("cargo:rustc-link-arg=-Wl,--as-needed");
    }
    // The Python extension (feature `python`, which maturin builds) carries one
    // RUNPATH, $ORIGIN/../torch/lib: the torch wheel's libtorch beside
    // site-packages/torchbridge/. A wheel must not carry this machine's paths;
    // torchbridge/_torch_runtime.py also preloads libtorch from wherever the
    // installed torch is. Tests and benches run straight from target/ with
    // the absolute path of the libtorch they were built against; without the
    // `python` feature every target gets it (unit tests and doctests too).
    let python_extension = env_var_rerun("CARGO_FEATURE_PYTHON").is_some();
    if python_extension {
        // (every linkable target: the package's lib is an rlib, so the cdylib
        // exists only as maturin's `cargo rustc --crate-type cdylib`)
        println!("cargo:rustc-link-arg=-Wl,-rpath,$ORIGIN/../torch/lib");
        for kind in ["tests", "benches"] {
            println!("cargo:rustc-link-arg-{kind}=-Wl,-rpath,{}", lib_dir.display());
        }
    } else {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    }
    println!("cargo:rustc-env=TORCHBRIDGE_LIBTORCH_LIB={}", lib_dir.display());
    if python_extension {
        write_python_build_info(version.as_deref().unwrap_or("unknown"), lib_dir.join("libtorch_cuda.so").exists());
    }

    // `cargo:rustc-link-arg` above reaches this package's own binaries only.
    // Crates that depend on torchbridge read these (`links =
    // "torchbridge_shim"`) in their build script as
    // DEP_TORCHBRIDGE_SHIM_LIBTORCH_LIB, ..._LIBTORCH_CUDA and
    // ..._TORCH_VERSION; `torchbridge-build` turns them into their rpath and
    // the libtorch_cuda link.
    println!("cargo:libtorch_lib={}", lib_dir.display());
    println!("cargo:libtorch_cuda={}", lib_dir.join("libtorch_cuda.so").exists());
    println!("cargo:torch_version={}", version.as_deref().unwrap_or("unknown"));
}

/// Records the torch the Python extension is linked against in
/// `python/torchbridge/_build_torch.py` (not committed; the wheel carries it),
/// so that `import torchbridge` can check the installed torch before it loads
/// `_core` (torchbridge/_torch_runtime.py). Rewritten only when it changes.
fn write_python_build_info(version: &str, cuda: bool) {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let package = manifest_dir.join("python").join("torchbridge");
    if !package.is_dir() {
        return; // a crate without its Python package (e.g. from crates.io)
    }
    let text = format!(
        "# Generated by build.rs when the Python extension is built: the torch that\n\
         # torchbridge._core is linked against. Not committed; read by _torch_runtime.py.\n\
         TORCH_VERSION = \"{version}\"\n\
         CUDA = {}\n",
        if cuda { "True" } else { "False" }
    );
    let path = package.join("_build_torch.py");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}

/// Fails the build with a clear message when the torch package is not 2.11.0;
/// returns the version found.
fn check_torch_version(torch_root: &Path) -> Option<String> {
    let version_file = torch_root.join("version.py");
    let Ok(text) = std::fs::read_to_string(&version_file) else {
        return None; // a bare libtorch download has no version.py; torch-sys checked it
    };
    let found = text
        .lines()
        .find_map(|line| line.strip_prefix("__version__ = "))
        .map(|v| v.trim().trim_matches(|c| c == '\'' || c == '"').to_owned());
    if let Some(found) = &found {
        let base = found.split('+').next().unwrap_or(found);
        if base != EXPECTED_TORCH && env_var_rerun("LIBTORCH_BYPASS_VERSION_CHECK").is_none() {
            panic!(
                "torchbridge needs torch=={EXPECTED_TORCH} (tch 0.24), found {found} at {}. \
                 Run `bash .ci/setup` to make the pinned .venv.",
                torch_root.display()
            );
        }
    }
    found
}
