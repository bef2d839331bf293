//! # torchbridge-build
//!
//! The `build.rs` helper for a crate that depends on `torchbridge`: it makes
//! that crate's binaries, tests, examples and benches find libtorch at run
//! time without `LD_LIBRARY_PATH`, and see CUDA where the libtorch build has
//! it.
//!
//! ```toml
//! [dependencies]
//! torchbridge = { path = "../torchbridge" }
//!
//! [build-dependencies]
//! torchbridge-build = { path = "../torchbridge/torchbridge-build" }
//! ```
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     torchbridge_build::link_libtorch();
//! }
//! ```
//!
//! Why a helper: `cargo:rustc-link-arg` lines printed by torchbridge's own
//! build script apply to torchbridge's own tests and binaries only, never to
//! a dependent's. So torchbridge exports what it found (its `links =
//! "torchbridge_shim"` metadata) and the dependent's build script, the only
//! place that can add link arguments to the dependent's binaries, prints
//! them. Cargo hands that metadata to the build scripts of crates that
//! depend on torchbridge *directly*, as
//!
//! - `DEP_TORCHBRIDGE_SHIM_LIBTORCH_LIB`: the `.../torch/lib` directory
//!   torchbridge was built against,
//! - `DEP_TORCHBRIDGE_SHIM_LIBTORCH_CUDA`: `true` when it holds
//!   `libtorch_cuda.so`,
//! - `DEP_TORCHBRIDGE_SHIM_TORCH_VERSION`: the torch version (`2.11.0+cu130`).
//!
//! A crate that reaches torchbridge only through another crate does not get
//! them: depend on torchbridge directly in the crate that builds the binary.
//!
//! [`link_libtorch`] prints, for the crate whose build script calls it:
//!
//! - `-Wl,-rpath,<libtorch lib dir>`: an absolute RUNPATH, so the binary runs
//!   from anywhere on this machine. A binary shipped to another machine needs
//!   libtorch at that same path, or its own rpath / `LD_LIBRARY_PATH`.
//! - when libtorch has CUDA: `-Wl,--no-as-needed -ltorch_cuda -Wl,--as-needed`.
//!   No symbol of the binary refers to `libtorch_cuda.so`, so the linker would
//!   drop it, and without it loaded libtorch reports no CUDA device
//!   (`torchbridge::cuda_available()` is false even on a GPU machine).

// The example above is a whole build.rs, `fn main` included.
#![allow(clippy::needless_doctest_main)]
#![warn(missing_docs)]

use std::env;
use std::path::{Path, PathBuf};

/// What torchbridge's build script found and exported to its dependents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Libtorch {
    /// The libtorch library directory (`.../site-packages/torch/lib`).
    pub lib_dir: PathBuf,
    /// Whether it holds `libtorch_cuda.so`.
    pub cuda: bool,
    /// The torch version torchbridge was built against (`2.11.0+cu130`), or
    /// `"unknown"` for a libtorch without `version.py`.
    pub torch_version: String,
}

/// The metadata key names, as Cargo derives them from `links =
/// "torchbridge_shim"`: `DEP_<LINKS>_<KEY>`, upper case.
const LIB_VAR: &str = "DEP_TORCHBRIDGE_SHIM_LIBTORCH_LIB";
const CUDA_VAR: &str = "DEP_TORCHBRIDGE_SHIM_LIBTORCH_CUDA";
const VERSION_VAR: &str = "DEP_TORCHBRIDGE_SHIM_TORCH_VERSION";

/// Reads what torchbridge exported. Fails (with what to do) when the calling
/// build script does not belong to a crate that depends on torchbridge
/// directly.
pub fn libtorch() -> Result<Libtorch, String> {
    let lib_dir = env::var_os(LIB_VAR).map(PathBuf::from).ok_or_else(|| {
        format!(
            "{LIB_VAR} is not set: torchbridge_build::link_libtorch() must run in the build script of a \
             crate that has torchbridge in its [dependencies] (not only in a dependency's)"
        )
    })?;
    let cuda = match env::var(CUDA_VAR) {
        Ok(value) => value == "true",
        Err(_) => lib_dir.join("libtorch_cuda.so").exists(),
    };
    let torch_version = env::var(VERSION_VAR).unwrap_or_else(|_| "unknown".to_owned());
    Ok(Libtorch { lib_dir, cuda, torch_version })
}

/// The `cargo:` lines [`link_libtorch`] prints for `libtorch`.
pub fn link_lines(libtorch: &Libtorch) -> Vec<String> {
    let dir: &Path = &libtorch.lib_dir;
    let mut lines = vec![format!("cargo:rustc-link-search=native={}", dir.display())];
    if libtorch.cuda {
        lines.push("cargo:rustc-link-arg=-Wl,--no-as-needed".to_owned());
        lines.push("cargo:rustc-link-arg=-ltorch_cuda".to_owned());
        lines.push("cargo:rustc-link-arg=-Wl,--as-needed".to_owned());
    }
    lines.push(format!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display()));
    lines
}

/// Call from your `build.rs`: emits the rpath to torchbridge's libtorch and,
/// when libtorch has CUDA, the `libtorch_cuda` link, for every binary, test,
/// example and bench of your crate. Returns what it linked.
///
/// Prints no `rerun-if-*` line, so your build script keeps Cargo's default
/// rerun rules; Cargo reruns it anyway when torchbridge's build script output
/// changes.
///
/// # Panics
///
/// When the metadata is missing (see [`libtorch`]); a build script reports a
/// failure by panicking.
pub fn link_libtorch() -> Libtorch {
    let libtorch = libtorch().unwrap_or_else(|message| panic!("{message}"));
    for line in link_lines(&libtorch) {
        println!("{line}");
    }
    libtorch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_is_linked_with_no_as_needed_before_the_rpath() {
        let lines = link_lines(&Libtorch {
            lib_dir: PathBuf::from("/opt/torch/lib"),
            cuda: true,
            torch_version: "2.11.0".into(),
        });
        assert_eq!(
            lines,
            [
                "cargo:rustc-link-search=native=/opt/torch/lib",
                "cargo:rustc-link-arg=-Wl,--no-as-needed",
                "cargo:rustc-link-arg=-ltorch_cuda",
                "cargo:rustc-link-arg=-Wl,--as-needed",
                "cargo:rustc-link-arg=-Wl,-rpath,/opt/torch/lib",
            ]
        );
    }

    #[test]
    fn cpu_only_libtorch_gets_the_rpath_alone() {
        let lines = link_lines(&Libtorch {
            lib_dir: PathBuf::from("/opt/torch/lib"),
            cuda: false,
            torch_version: "2.11.0".into(),
        });
        assert_eq!(
            lines,
            ["cargo:rustc-link-search=native=/opt/torch/lib", "cargo:rustc-link-arg=-Wl,-rpath,/opt/torch/lib"]
        );
    }
}
