//! # torchbridge
//!
//! View any DLPack array as a `tch::Tensor` without copying, run the full
//! libtorch API on it, and hand the result back. Rust users work on
//! `ndarray` arrays; Python users `import torchbridge` (the `python` feature).
//!
//! ```
//! use ndarray::Array2;
//!
//! let a = Array2::<f64>::from_shape_fn((3, 4), |(i, j)| (i as f64 - j as f64) / 4.0);
//! let expected = a.mapv(|v| v * 2.0);
//! let t = torchbridge::from_ndarray(a)?;                 // zero-copy: libtorch owns the buffer
//! let y = torchbridge::ops::special::erf(&t)?;           // computed by libtorch
//! let out: ndarray::ArrayD<f64> = torchbridge::to_ndarray(&y)?;
//! assert_eq!(out.shape(), &[3, 4]);
//! assert!((out[[0, 1]] - (-0.25f64).tanh().signum() * 0.276_326_390_168_236_9).abs() < 1e-12);
//! # let _ = expected;
//! # Ok::<(), torchbridge::Error>(())
//! ```
//!
//! Modules: [`dlpack`] (the zero-copy import/export), [`ops`] (SciPy-compatible
//! routines by family, and `ops::call` for any ATen operator by name),
//! [`aten`] (the operator-by-name machinery: schemas, typed arguments),
//! [`closure`] (tch code on borrowed `ndarray` views, zero-copy), and the
//! `ndarray` functions re-exported at the top level.
//!
//! Depending on torchbridge: take `tch` and `ndarray` from here
//! ([`tch`](crate::tch), [`ndarray`](crate::ndarray): the versions it was
//! built with), and call `torchbridge_build::link_libtorch()` (the
//! `torchbridge-build` crate of this repository) from your `build.rs`, so
//! your binaries get an rpath to libtorch and link `libtorch_cuda` where it
//! exists: link arguments of torchbridge's own build script reach only its
//! own binaries. Its build script exports what it found to yours as
//! `DEP_TORCHBRIDGE_SHIM_LIBTORCH_LIB`, `DEP_TORCHBRIDGE_SHIM_LIBTORCH_CUDA`
//! and `DEP_TORCHBRIDGE_SHIM_TORCH_VERSION`.
//!
//! `unsafe` code lives in two modules only, enforced by `deny(unsafe_code)`:
//! the DLPack layer ([`dlpack`]) and the declarations of the C++ shim
//! (`ffi`). Every `unsafe` block there carries a `// SAFETY:` comment and
//! every `unsafe fn` a `# Safety` section (clippy denies them otherwise).

#![warn(missing_docs)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc, unsafe_op_in_unsafe_fn)]

mod arrays;
pub mod aten;
pub mod closure;
mod device;
#[allow(unsafe_code)]
pub mod dlpack;
mod dtype;
mod error;
#[allow(unsafe_code)]
mod ffi;
pub mod ops;
#[cfg(feature = "python")]
mod python;
// the thread policy of the Python layer's compute path (unused without it)
#[cfg_attr(not(feature = "python"), allow(dead_code))]
mod threads;

/// The `tch` crate torchbridge is built on (0.24, for libtorch 2.11.0), so
/// that dependents use the very same version: write `torchbridge::tch::Tensor`
/// (or `use torchbridge::tch;`) rather than adding `tch` to your own
/// `Cargo.toml`. A second `tch` version in one build would link a second
/// `torch-sys`, which Cargo refuses (both declare `links = "tch"`).
pub use tch;

/// The `ndarray` crate (0.17) whose arrays torchbridge takes and returns, so
/// that dependents use the very same version: `torchbridge::ndarray::Array2`.
/// Arrays of another `ndarray` version are other types and do not convert.
/// (tch's own `ndarray` conversions use its `ndarray` 0.16: go through
/// torchbridge instead.)
pub use ndarray;

pub use arrays::{from_ndarray, to_ndarray, with_ndarray_view, Element};
pub use closure::{with_tensors, with_tensors_mut};
pub use device::Device;
pub use dtype::{DType, ACCEPTED_DTYPES};
pub use error::{Error, Result};

/// Whether libtorch sees a CUDA device from this process.
pub fn cuda_available() -> bool {
    tch::Cuda::is_available()
}

pub use dlpack::cuda_device_count;

/// The libtorch directory this crate was built against.
pub const LIBTORCH_LIB: &str = env!("TORCHBRIDGE_LIBTORCH_LIB");
